package index

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/fts5"
)

// conn is one SQLite connection with its prepared statements cached by
// their text: the index runs the same few statements many times.
type conn struct {
	c     *sqlite3.Conn
	stmts map[string]*sqlite3.Stmt
	// text says that the full-text engine (FTS5) is registered. It is
	// registered before the first statement that needs it (needsText):
	// its set-up is some 10 % of a command that only lists.
	text bool
}

// openConn opens the database file path (":memory:" for one in memory).
// SQLite reads the schema of the full-text table without its engine,
// which only a statement that uses the table needs.
func openConn(path string, flags sqlite3.OpenFlag) (*conn, error) {
	c, err := sqlite3.OpenFlags(path, flags|sqlite3.OPEN_NOFOLLOW|sqlite3.OPEN_EXRESCODE)
	if err != nil {
		return nil, err
	}
	return &conn{c: c, stmts: map[string]*sqlite3.Stmt{}}, nil
}

// textFor registers the full-text engine before query when query needs
// it: it names the full-text table (chunk), or checks the database.
func (d *conn) textFor(query string) error {
	if d.text || !needsText(query) {
		return nil
	}
	if err := fts5.Register(d.c); err != nil {
		return err
	}
	d.text = true
	return nil
}

// needsText reports a statement that names the table chunk (a word of its
// own: not the column chunks) or runs a check of the database.
func needsText(query string) bool {
	if strings.Contains(query, "_check") {
		return true
	}
	word := func(c byte) bool {
		return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(query[i:], "chunk")
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len("chunk")
		if (start == 0 || !word(query[start-1])) && (end == len(query) || !word(query[end])) {
			return true
		}
		i = end
	}
}

// script runs statements that return no rows, uncached.
func (d *conn) script(query string) error {
	if err := d.textFor(query); err != nil {
		return err
	}
	return d.c.Exec(query)
}

func (d *conn) close() error {
	for _, s := range d.stmts {
		s.Close()
	}
	d.stmts = nil
	return d.c.Close()
}

// prepare returns the statement for query, compiled once.
func (d *conn) prepare(query string) (*sqlite3.Stmt, error) {
	if s, ok := d.stmts[query]; ok {
		return s, nil
	}
	if err := d.textFor(query); err != nil {
		return nil, err
	}
	s, tail, err := d.c.Prepare(query)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", err, query)
	}
	if tail != "" {
		s.Close()
		return nil, fmt.Errorf("more than one statement: %s", query)
	}
	d.stmts[query] = s
	return s, nil
}

// bind binds args to s, in order.
func bind(s *sqlite3.Stmt, args []any) error {
	for i, a := range args {
		var err error
		switch v := a.(type) {
		case nil:
			err = s.BindNull(i + 1)
		case int:
			err = s.BindInt64(i+1, int64(v))
		case int64:
			err = s.BindInt64(i+1, v)
		case bool:
			err = s.BindBool(i+1, v)
		case string:
			err = s.BindText(i+1, v)
		case []byte:
			err = s.BindBlob(i+1, v)
		default:
			err = fmt.Errorf("index: cannot bind %T", a)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// exec runs a statement that returns no rows.
func (d *conn) exec(query string, args ...any) error {
	if len(args) == 0 && d.stmts[query] == nil && multi(query) {
		return d.script(query)
	}
	s, err := d.prepare(query)
	if err != nil {
		return err
	}
	defer s.Reset()
	if err := bind(s, args); err != nil {
		return err
	}
	return s.Exec()
}

// multi reports a script of several statements, run with Exec uncached.
func multi(query string) bool {
	for i := 0; i < len(query)-1; i++ {
		if query[i] == ';' {
			return true
		}
	}
	return false
}

// query runs a statement and calls each for every row; an error from each
// ends the query and is returned.
func (d *conn) query(query string, args []any, each func(s *sqlite3.Stmt) error) error {
	s, err := d.prepare(query)
	if err != nil {
		return err
	}
	defer s.Reset()
	if err := bind(s, args); err != nil {
		return err
	}
	for s.Step() {
		if err := each(s); err != nil {
			return err
		}
	}
	return s.Err()
}

// one runs a statement for its first row; ok is false when there is none.
func (d *conn) one(query string, args []any, scan func(s *sqlite3.Stmt)) (ok bool, err error) {
	err = d.query(query, args, func(s *sqlite3.Stmt) error {
		scan(s)
		ok = true
		return errStop
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return ok, err
}

var errStop = errors.New("stop")

// int64Of is the single integer a statement returns, 0 for none.
func (d *conn) int64Of(query string, args ...any) (int64, error) {
	var v int64
	_, err := d.one(query, args, func(s *sqlite3.Stmt) { v = s.ColumnInt64(0) })
	return v, err
}

// tx runs fn in a transaction that takes the write lock at once, committed
// when fn returns nil and rolled back otherwise.
func (d *conn) tx(fn func() error) (err error) {
	if err := d.exec("BEGIN IMMEDIATE"); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			d.exec("ROLLBACK")
			return
		}
		err = d.exec("COMMIT")
	}()
	return fn()
}

// rowValues turns the current row of s into plain values, for a Querier.
func rowValues(s *sqlite3.Stmt, row []any) []any {
	row = row[:0]
	for i := 0; i < s.ColumnCount(); i++ {
		switch s.ColumnType(i) {
		case sqlite3.INTEGER:
			row = append(row, s.ColumnInt64(i))
		case sqlite3.FLOAT:
			row = append(row, s.ColumnFloat(i))
		case sqlite3.TEXT:
			row = append(row, s.ColumnText(i))
		case sqlite3.BLOB:
			row = append(row, s.ColumnBlob(i, nil))
		default:
			row = append(row, nil)
		}
	}
	return row
}
