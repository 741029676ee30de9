package main

import (
	"database/sql"

	_ "modernc.org/sqlite"
)

// mcDB is modernc.org/sqlite (SQLite's C translated to Go), through
// database/sql, its only API.
type mcDB struct{ c *sql.DB }

func openMC(path string) (sqlDB, error) {
	c, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	c.SetMaxOpenConns(1)
	return &mcDB{c}, nil
}

func (d *mcDB) exec(query string, args ...any) error {
	_, err := d.c.Exec(query, args...)
	return err
}

func (d *mcDB) rows(query string, args ...any) (int, error) {
	rows, err := d.c.Query(query, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, err
		}
		n++
	}
	return n, rows.Err()
}

func (d *mcDB) float(query string, args ...any) ([]float64, error) {
	rows, err := d.c.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []float64
	for rows.Next() {
		var f float64
		if err := rows.Scan(&f); err != nil {
			return out, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

func (d *mcDB) close() { d.c.Close() }
