package index

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// A refresh that found nothing new writes nothing (but for the time the
// index was up to date, once a minute), and the write-ahead log never
// stays larger than logLimit: no command closes the index, and each one
// that opens it reads the whole log first.
func TestRefreshKeepsTheLogShort(t *testing.T) {
	h := newToyHome(t)
	now := time.Now()
	dir := t.TempDir()
	x, err := Open(dir, Options{Agents: []harness.Agent{toyAgent}, Homes: func(harness.Agent) []string { return []string{h.home} },
		Text: true, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	// Text enough that the first build writes several times logLimit.
	for i := range 400 {
		var words []string
		for j := range 300 {
			words = append(words, fmt.Sprintf("w%dx%d", i, j))
		}
		h.write("/p", uuidN(i), "C /p", "P "+strings.Join(words, " "))
	}
	logSize := func() int64 {
		t.Helper()
		fi, err := os.Stat(x.path() + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	refreshed := func() time.Time {
		t.Helper()
		st, err := x.Stats()
		if err != nil {
			t.Fatal(err)
		}
		return st.Refreshed
	}
	refresh(t, x, Scope{})
	if db, _ := os.Stat(x.path()); db.Size()+logSize() < 3*logLimit {
		t.Fatalf("the first build wrote %d bytes: too few to show the log trimmed", db.Size()+logSize())
	}
	if n := logSize(); n > logLimit {
		t.Errorf("the log holds %d bytes after the first build, past %d", n, logLimit)
	}
	first := refreshed()

	now = now.Add(refreshedEvery / 2)
	before := logSize()
	refresh(t, x, Scope{})
	if n := logSize(); n != before {
		t.Errorf("a refresh that found nothing wrote %d bytes to the log", n-before)
	}
	if got := refreshed(); !got.Equal(first) {
		t.Errorf("refreshed %v, want %v kept", got, first)
	}

	now = now.Add(refreshedEvery)
	refresh(t, x, Scope{})
	if got := refreshed(); !got.Equal(now.Truncate(time.Millisecond)) {
		t.Errorf("refreshed %v a minute on, want %v", got, now)
	}
}

// The full-text engine is registered on the connection only once a
// statement needs it: a command that lists pays nothing for it, and one
// that searches or writes text still finds it there.
func TestTextEngineOnlyWhenNeeded(t *testing.T) {
	h := newToyHome(t)
	dir := t.TempDir()
	h.write("/p", uuidN(1), "C /p", "P the quetzal flew")
	x := h.open(dir, true)
	refresh(t, x, Scope{})
	x.Close()

	x = h.open(dir, true)
	refresh(t, x, Scope{Dirs: []string{"/p"}})
	n := 0
	if err := x.EachDir("/p", "", func(Conv) bool { n++; return true }); err != nil || n != 1 {
		t.Fatalf("EachDir: %d conversations, %v", n, err)
	}
	if x.db.text {
		t.Error("listing registered the full-text engine")
	}
	keys, err := x.Holding(Query{Terms: []string{"quetzal"}})
	if err != nil || len(keys) != 1 || !x.db.text {
		t.Errorf("a search found %v (%v), engine registered %v", keys, err, x.db.text)
	}
}

func TestNeedsText(t *testing.T) {
	for q, want := range map[string]bool{
		`SELECT rowid FROM chunk WHERE chunk MATCH ?`:           true,
		`INSERT INTO chunk(rowid, body) VALUES (?, ?)`:          true,
		"DROP TABLE db; DROP TABLE chunk;":                      true,
		`PRAGMA quick_check(1)`:                                 true,
		`SELECT rowid, chunks FROM conv WHERE cwd = ?`:          false,
		`UPDATE conv SET textlen = 0, chunks = 0 WHERE rowid=?`: false,
		`SELECT chunk_id FROM x`:                                false,
	} {
		if got := needsText(q); got != want {
			t.Errorf("needsText(%q) = %v, want %v", q, got, want)
		}
	}
}

// A short history (every refresh a full sweep) that did not change leaves
// the index's files as they were: nothing written, and a log the last
// connection emptied, which the next process has no need to read again.
func TestUnchangedSweepWritesNothing(t *testing.T) {
	h := newToyHome(t)
	now := time.Now()
	dir := t.TempDir()
	for i := range 3 {
		h.write("/p", uuidN(i), "C /p", "P hello")
	}
	cycle := func() {
		t.Helper()
		x, err := Open(dir, Options{Agents: []harness.Agent{toyAgent}, Homes: func(harness.Agent) []string { return []string{h.home} },
			Text: true, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		refresh(t, x, Scope{Dirs: []string{"/p"}})
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
	}
	read := func() (db []byte, log int64) {
		t.Helper()
		db, err := os.ReadFile(filepath.Join(dir, File))
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Join(dir, File) + "-wal")
		if err != nil {
			t.Fatal(err)
		}
		return db, fi.Size()
	}
	cycle()
	db, log := read()
	if log != 0 {
		t.Errorf("the log holds %d bytes after the last connection closed", log)
	}
	now = now.Add(refreshedEvery / 2)
	cycle()
	if db2, log2 := read(); !bytes.Equal(db, db2) || log2 != 0 {
		t.Errorf("a sweep that found nothing changed the database (%v) or left a log of %d bytes", !bytes.Equal(db, db2), log2)
	}
}
