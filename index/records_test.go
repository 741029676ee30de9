package index

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/store"
)

// someRecords is a session store that cannot say what changed, so every
// refresh reads all of it, in the order it holds.
type someRecords []store.Record

func (r someRecords) Changed(string) ([]string, string, bool, error) { return nil, "", true, nil }
func (r someRecords) Get(tool, id string) (store.Record, bool, error) {
	for _, rec := range r {
		if rec.Tool == tool && rec.ID == id {
			return rec, true, nil
		}
	}
	return store.Record{}, false, nil
}
func (r someRecords) All() ([]store.Record, error) { return r, nil }
func (r someRecords) Forgotten() map[string]bool   { return nil }

// Conversations first known from their records are numbered oldest first,
// whatever order the store lists them in, as the files read after them
// are: search ranks the newest matches by rowid, and FTS5 takes a
// conversation's text fastest in rowid order.
func TestRecordsNumberedByAge(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var recs someRecords
	for i := range 50 {
		at := t0.Add(time.Duration(i) * time.Hour)
		rec := store.Record{Tool: "toy", ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Cwd: "/w/p",
			Started: at.Add(-time.Hour), Updated: t0.Add(1000 * time.Hour)}
		// Dated by the conversation's activity, else by the run's end:
		// never by the store's own stamp.
		if i%2 == 0 {
			rec.Active = &at
		} else {
			rec.Ended = &at
		}
		recs = append(recs, rec)
	}
	rand.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	home := t.TempDir()
	x, err := Open(t.TempDir(), Options{
		Agents:  []harness.Agent{toyAgent},
		Homes:   func(harness.Agent) []string { return []string{home} },
		Records: recs,
		Warn:    func(m string) { t.Log("warning: " + m) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if _, err := x.Refresh(Scope{}); err != nil {
		t.Fatal(err)
	}
	var ids []string
	if err := x.db.query(`SELECT id FROM conv ORDER BY rowid`, nil, func(s *sqlite3.Stmt) error {
		ids = append(ids, s.ColumnText(0))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(ids) != 50 {
		t.Fatalf("%d conversations indexed, want 50", len(ids))
	}
	for i, id := range ids {
		if want := fmt.Sprintf("00000000-0000-4000-8000-%012d", i); id != want {
			t.Fatalf("conversation %d by rowid is %s, want %s (the %dth oldest)", i, id, want, i)
		}
	}
}
