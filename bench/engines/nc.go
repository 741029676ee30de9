package main

import (
	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/fts5"
)

// ncDB is github.com/ncruces/go-sqlite3 (SQLite compiled to WebAssembly,
// translated to Go), through its own API, as fleetcom uses it.
type ncDB struct{ c *sqlite3.Conn }

func openNC(path string) (sqlDB, error) {
	c, err := sqlite3.Open(path)
	if err != nil {
		return nil, err
	}
	return &ncDB{c}, fts5.Register(c)
}

func (d *ncDB) prepare(query string, args []any) (*sqlite3.Stmt, error) {
	st, _, err := d.c.Prepare(query)
	if err != nil {
		return nil, err
	}
	for i, a := range args {
		switch v := a.(type) {
		case int64:
			st.BindInt64(i+1, v)
		case string:
			st.BindText(i+1, v)
		}
	}
	return st, nil
}

func (d *ncDB) exec(query string, args ...any) error {
	if len(args) == 0 {
		return d.c.Exec(query)
	}
	st, err := d.prepare(query, args)
	if err != nil {
		return err
	}
	defer st.Close()
	return st.Exec()
}

func (d *ncDB) rows(query string, args ...any) (int, error) {
	st, err := d.prepare(query, args)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	n := 0
	for st.Step() {
		for i := 0; i < st.ColumnCount(); i++ {
			_ = st.ColumnText(i)
		}
		n++
	}
	return n, st.Err()
}

func (d *ncDB) float(query string, args ...any) ([]float64, error) {
	st, err := d.prepare(query, args)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var out []float64
	for st.Step() {
		out = append(out, st.ColumnFloat(0))
	}
	return out, st.Err()
}

func (d *ncDB) close() { d.c.Close() }
