package index

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/harness"
)

// toyDB is an agent whose conversations are rows of one SQLite table,
// read after a mark as opencode's are. failAfter > 0 makes a read fail
// after handing over that many conversations.
type toyDB struct {
	toy
	failAfter *int
}

var toyDBSpec = harness.Spec{Name: "toydb", ID: &harness.UUID, Resume: harness.Spelling{Words: []string{"--resume"}}}

func (toyDB) Trees(string) []harness.Tree { return nil }
func (toyDB) Database(home string) string { return filepath.Join(home, "toy.db") }

func (d toyDB) ReadDB(q harness.Querier, mark int64, l harness.Limits, emit func(harness.Learned) error) (int64, error) {
	next, n := mark, 0
	err := q.Query(`SELECT id, cwd, text, updated FROM s WHERE updated > ? ORDER BY updated`, []any{mark}, func(row []any) error {
		if *d.failAfter > 0 && n == *d.failAfter {
			return errors.New("the toy database failed")
		}
		n++
		next = max(next, row[3].(int64))
		text := row[2].(string)
		return emit(harness.Learned{ID: row[0].(string), Cwd: row[1].(string), Title: text, Turns: 1, Messages: 1, Texts: []string{text}})
	})
	return next, err
}

func (toyDB) ListDB(q harness.Querier) ([]string, error) {
	var ids []string
	err := q.Query(`SELECT id FROM s`, nil, func(row []any) error {
		ids = append(ids, row[0].(string))
		return nil
	})
	return ids, err
}

// A database's conversations are read beside the writer: every one lands,
// a read that fails midway leaves the index as it was (mark included, so
// the next refresh reads them again), and a deleted one is forgotten.
func TestDatabaseRead(t *testing.T) {
	home := t.TempDir()
	db, err := sqlite3.Open(filepath.Join(home, "toy.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Exec(`CREATE TABLE s(id TEXT PRIMARY KEY, cwd TEXT, text TEXT, updated INTEGER)`); err != nil {
		t.Fatal(err)
	}
	id := func(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }
	add := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			if err := db.Exec(fmt.Sprintf(`INSERT INTO s VALUES ('%s', '/w/p', 'prompt number%d', %d)`, id(i), i, 1000+i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// More than the hand-over holds at once.
	add(0, 300)
	fail := 0
	agent := harness.Agent{Spec: &toyDBSpec, Behaviour: toyDB{failAfter: &fail}}
	var warnings []string
	x, err := Open(t.TempDir(), Options{
		Agents: []harness.Agent{agent},
		Homes:  func(harness.Agent) []string { return []string{home} },
		Text:   true,
		Warn:   func(m string) { warnings = append(warnings, m) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	count := func() int {
		t.Helper()
		all, err := x.All("toydb")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range all {
			if c.Stored {
				n++
			}
		}
		return n
	}
	found := func(word string) bool {
		t.Helper()
		hits, err := x.Search(Query{Terms: []string{word}})
		if err != nil {
			t.Fatal(err)
		}
		return len(hits) == 1
	}
	var reports []Progress
	if _, err := x.Refresh(Scope{Progress: func(p Progress) { reports = append(reports, p) }}); err != nil {
		t.Fatal(err)
	}
	// Told conversation by conversation, then that the reading is done.
	if len(reports) < 2 || reports[len(reports)-2] != (Progress{Swept: true, Database: "toydb", Convs: 300}) ||
		reports[len(reports)-1] != (Progress{Swept: true}) {
		t.Fatalf("the last progress reports of a database's read: %+v", reports[max(0, len(reports)-2):])
	}
	if n := count(); n != 300 || !found("number0") || !found("number299") {
		t.Fatalf("after the first read: %d conversations, the first found %v, the last %v", n, found("number0"), found("number299"))
	}

	add(300, 400)
	fail = 50
	if _, err := x.Refresh(Scope{}); err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 {
		t.Fatalf("a failed read warned %q, want one warning", warnings)
	}
	if n := count(); n != 300 || found("number300") {
		t.Fatalf("a read that failed midway left %d conversations (number300 found: %v), want the 300 before it", n, found("number300"))
	}
	fail = 0
	if _, err := x.Refresh(Scope{}); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 400 || !found("number300") || !found("number399") {
		t.Fatalf("the read after a failed one: %d conversations, want 400, with the ones it missed", n)
	}

	if err := db.Exec(fmt.Sprintf(`DELETE FROM s WHERE id = '%s'`, id(7))); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Refresh(Scope{Full: true}); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 399 || found("number7") {
		t.Fatalf("after a deletion: %d conversations, number7 found %v", n, found("number7"))
	}
}
