package main

import (
	"fmt"
	"strings"
)

// sqlDB is what the benchmark needs of a SQLite driver.
type sqlDB interface {
	exec(query string, args ...any) error
	rows(query string, args ...any) (int, error)
	float(query string, args ...any) ([]float64, error)
	close()
}

// sqliteEngine is fleetcom's index schema on one SQLite driver.
type sqliteEngine struct {
	opener func(path string) (sqlDB, error)
	db     sqlDB
}

const schema = `PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
CREATE TABLE conv(rowid INTEGER PRIMARY KEY, tool TEXT NOT NULL, id TEXT NOT NULL, cwd TEXT, title TEXT, active INTEGER, UNIQUE(tool, id));
CREATE INDEX conv_cwd ON conv(cwd, active);
CREATE VIRTUAL TABLE chunk USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO chunk(chunk, rank) VALUES('automerge', 4);`

const chunkBits = 20

func (e *sqliteEngine) build(path string, docs []doc) error {
	db, err := e.opener(path)
	if err != nil {
		return err
	}
	e.db = db
	if err := db.exec(schema); err != nil {
		return err
	}
	if err := db.exec("BEGIN"); err != nil {
		return err
	}
	for i, d := range docs {
		row := int64(i + 1)
		if err := db.exec(`INSERT INTO conv(rowid, tool, id, cwd, title, active) VALUES (?, 'agent', ?, ?, ?, ?)`, row, d.id, d.cwd, d.title, d.active); err != nil {
			return err
		}
		for k, body := range d.chunks {
			if err := db.exec(`INSERT INTO chunk(rowid, body) VALUES (?, ?)`, row<<chunkBits|int64(k), body); err != nil {
				return err
			}
		}
		if i%1000 == 999 {
			if err := db.exec("COMMIT"); err != nil {
				return err
			}
			if err := db.exec("BEGIN"); err != nil {
				return err
			}
		}
	}
	return db.exec("COMMIT")
}

func (e *sqliteEngine) open(path string) error {
	db, err := e.opener(path)
	e.db = db
	return err
}

func (e *sqliteEngine) list(cwd string) (int, error) {
	return e.db.rows(`SELECT tool, id, title, active FROM conv WHERE cwd = ? ORDER BY active DESC`, cwd)
}

// search is the index's: candidates hold every term somewhere in their
// text; the matching parts of the newest conversations, at most 2,000,
// are ranked by BM25 in one pass, and a hit's snippet is cut from its best
// part's text.
func (e *sqliteEngine) search(terms []string) (int, error) {
	var sets []string
	var args []any
	var ors []string
	for _, t := range terms {
		m := `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
		sets = append(sets, fmt.Sprintf(`SELECT rowid >> %d FROM chunk WHERE chunk MATCH ?`, chunkBits))
		args = append(args, m)
		ors = append(ors, m)
	}
	ids, err := e.db.float(`SELECT rowid FROM conv WHERE rowid IN (`+strings.Join(sets, " INTERSECT ")+`) ORDER BY active DESC`, args...)
	if err != nil {
		return 0, err
	}
	if _, err := e.db.float(`SELECT bm25(chunk) FROM chunk WHERE chunk MATCH ? ORDER BY rowid DESC LIMIT 2000`, strings.Join(ors, " OR ")); err != nil {
		return 0, err
	}
	for i := 0; i < len(ids) && i < 20; i++ {
		if _, err := e.db.rows(`SELECT body FROM chunk WHERE rowid = ?`, int64(ids[i])<<chunkBits); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

func (e *sqliteEngine) close() {
	if e.db != nil {
		e.db.close()
	}
}
