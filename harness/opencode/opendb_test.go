package opencode

import (
	"fmt"
	"github.com/fleetcom/fleetcom/harness"
	"net/url"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// ocDB is a database open with the SQLite driver the index uses, as a
// harness.Querier: its statements prepared once, as the index's are.
type ocDB struct {
	c     *sqlite3.Conn
	stmts map[string]*sqlite3.Stmt
}

func newOcDB(c *sqlite3.Conn) ocDB { return ocDB{c, map[string]*sqlite3.Stmt{}} }

// close closes the statements and the connection.
func (d ocDB) close() {
	for _, s := range d.stmts {
		s.Close()
	}
	d.c.Close()
}

func (d ocDB) Query(query string, args []any, scan func(row []any) error) error {
	s, ok := d.stmts[query]
	if !ok {
		var err error
		if s, _, err = d.c.Prepare(query); err != nil {
			return err
		}
		d.stmts[query] = s
	}
	defer s.Reset()
	var err error
	for i, a := range args {
		switch v := a.(type) {
		case int64:
			err = s.BindInt64(i+1, v)
		case string:
			err = s.BindText(i+1, v)
		default:
			err = fmt.Errorf("cannot bind %T", a)
		}
		if err != nil {
			return err
		}
	}
	for s.Step() {
		row := make([]any, s.ColumnCount())
		for i := range row {
			switch s.ColumnType(i) {
			case sqlite3.INTEGER:
				row[i] = s.ColumnInt64(i)
			case sqlite3.FLOAT:
				row[i] = s.ColumnFloat(i)
			case sqlite3.TEXT:
				row[i] = s.ColumnText(i)
			case sqlite3.BLOB:
				row[i] = s.ColumnBlob(i, nil)
			}
		}
		if err := scan(row); err != nil {
			return err
		}
	}
	return s.Err()
}

// openOpencodeReadOnly opens a database as harness.OpenDB must: read-only, and
// immutable when it has no write-ahead log (a read-only connection would
// make one, and its index, beside it).
func openOpencodeReadOnly(path string) (harness.Querier, func(), error) {
	u := url.URL{Scheme: "file", Path: path, RawQuery: "mode=ro"}
	if _, err := os.Lstat(path + "-wal"); err != nil {
		u.RawQuery += "&immutable=1"
	}
	c, err := sqlite3.OpenFlags(u.String(), sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		return nil, nil, err
	}
	d := newOcDB(c)
	return d, d.close, nil
}

// The store's reads through harness.OpenDB answer as through the sqlite3 program.
func TestOpencodeOpenDBReadsAsSQLite3(t *testing.T) {
	home := t.TempDir()
	writeDB(t, home, ocRow{id: "ses_dcbb20063ffeCKCXIkplFKKSHS", dir: "/src/app", title: "Fix the login",
		created: time.UnixMilli(1796532400000), prompts: []string{"fix it", "and test it"}},
		ocRow{id: "ses_dcbb20063ffeCKCXIkplFKKSHT", dir: "/src/app", title: "New session - 2026-12-06T04:40:00.000Z",
			created: time.UnixMilli(1796532500000), prompts: []string{"what's up"}, archived: true})
	saved := harness.OpenDB
	t.Cleanup(func() { harness.OpenDB = saved; cache.db = "" })
	read := func() ([]session, []messageText, []harness.Note) {
		cache.db = ""
		list, err := sessions(home)
		if err != nil {
			t.Fatal(err)
		}
		texts, err := texts(home, "ses_dcbb20063ffeCKCXIkplFKKSHS")
		if err != nil {
			t.Fatal(err)
		}
		return list, texts, opencode{}.Diagnose(home)
	}
	harness.OpenDB = nil
	list, texts, _ := read()
	harness.OpenDB = openOpencodeReadOnly
	list2, texts2, notes := read()
	if len(list) != 2 || !reflect.DeepEqual(list, list2) || len(texts) != 4 || !reflect.DeepEqual(texts, texts2) {
		t.Errorf("sqlite3: %+v %+v\nOpenDB: %+v %+v", list, texts, list2, texts2)
	}
	if !notes[0].OK || strings.Contains(notes[0].Detail, "sqlite3") {
		t.Errorf("doctor with harness.OpenDB: %+v", notes[0])
	}
	// Reading leaves nothing beside the database.
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if e.Name() != "opencode.db" {
			t.Errorf("left %s", e.Name())
		}
	}
}
