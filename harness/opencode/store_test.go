package opencode

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/internal/opencodetest"
)

// ocRow is one session of a test database, with its turns.
type ocRow struct {
	id, dir, title, parent string
	created                time.Time
	prompts                []string // each gets an answer, "ACK <prompt>"
	archived               bool
}

// sqlQuote is s as an SQL string literal.
func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// writeDB makes home/opencode.db hold rows, as opencode writes
// them, with the sqlite3 program.
func writeDB(t testing.TB, home string, rows ...ocRow) {
	t.Helper()
	var b strings.Builder
	db := dbPath(home)
	if _, err := os.Stat(db); err != nil {
		b.WriteString(opencodetest.Schema)
	}
	for _, r := range rows {
		ms := r.created.UnixMilli()
		parent, archived := "NULL", "NULL"
		if r.parent != "" {
			parent = sqlQuote(r.parent)
		}
		if r.archived {
			archived = fmt.Sprint(ms + 1)
		}
		fmt.Fprintf(&b, "INSERT INTO session (id, project_id, parent_id, slug, directory, path, title, version, time_created, time_updated, time_archived) VALUES (%s, 'global', %s, 'slug', %s, '', %s, '1.18.33', %d, %d, %s);\n",
			sqlQuote(r.id), parent, sqlQuote(r.dir), sqlQuote(r.title), ms, ms, archived)
		for j, p := range r.prompts {
			at := ms + int64(1000*j)
			for k, m := range []struct{ role, text string }{{"user", p}, {"assistant", "ACK " + p}} {
				mid := fmt.Sprintf("msg_%s_%d_%d", r.id[4:], j, k)
				fmt.Fprintf(&b, "INSERT INTO message VALUES (%s, %s, %d, %d, %s);\n", sqlQuote(mid), sqlQuote(r.id), at+int64(k), at+int64(k),
					sqlQuote(`{"role":"`+m.role+`","time":{"created":`+fmt.Sprint(at)+`}}`))
				if m.role == "assistant" {
					fmt.Fprintf(&b, "INSERT INTO part VALUES (%s, %s, %s, %d, %d, %s);\n", sqlQuote(mid+"_a"), sqlQuote(mid), sqlQuote(r.id), at, at,
						sqlQuote(`{"type":"step-start"}`))
				}
				fmt.Fprintf(&b, "INSERT INTO part VALUES (%s, %s, %s, %d, %d, %s);\n", sqlQuote(mid+"_b"), sqlQuote(mid), sqlQuote(r.id), at, at,
					sqlQuote(`{"type":"text","text":`+string(harness.JSONString(m.text))+`}`))
			}
		}
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sqliteForTest(t), "-batch", "-bail", "-init", os.DevNull, db)
	cmd.Stdin = strings.NewReader(b.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sqlite3: %v\n%s", err, out)
	}
}

// sqliteForTest is the sqlite3 program; the tests of opencode's store
// need it as fleetcom does (CI installs it).
func sqliteForTest(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Fatal("the sqlite3 program is needed to make opencode's database: ", err)
	}
	return p
}

func TestStore(t *testing.T) {
	a := Agent
	home := filepath.Join(t.TempDir(), "data", "opencode")
	proj := t.TempDir()
	other := t.TempDir()
	t0 := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	empty, child, archived, untitled := "ses_dcbb10000000aaaaaaaaaaaaaa", "ses_dcbb10000001bbbbbbbbbbbbbb", "ses_dcbb10000002cccccccccccccc", "ses_dcbb10000003dddddddddddddd"
	writeDB(t, home,
		ocRow{id: ocID1, dir: proj, title: "Remember the owl", created: t0, prompts: []string{"remember OWL-77", "which codes now"}},
		ocRow{id: ocID2, dir: other, title: "Elsewhere", created: t0.Add(time.Minute), prompts: []string{"hi"}},
		ocRow{id: empty, dir: proj, title: "New session - 2026-12-02T00:56:36.529Z", created: t0.Add(2 * time.Minute)},
		ocRow{id: child, dir: proj, parent: ocID1, title: "Child session - 2026-12-02T00:56:36.529Z", created: t0.Add(3 * time.Minute), prompts: []string{"sub task"}},
		ocRow{id: archived, dir: proj, title: "Old", created: t0.Add(4 * time.Minute), prompts: []string{"old"}, archived: true},
		ocRow{id: untitled, dir: proj, title: "New session - 2026-12-02T00:56:36.529Z", created: t0.Add(5 * time.Minute), prompts: []string{"  first\nprompt  "}},
	)

	for _, c := range []struct {
		cwd, id string
		want    bool
	}{
		{proj, ocID1, true}, {"", ocID1, true}, {other, ocID1, false}, {other, ocID2, true},
		{proj, empty, false}, {proj, "ses_dcbb1000000fffffffffffffff", false}, {proj, "ses_x", false},
	} {
		if got := a.Exists(home, c.cwd, c.id); got != c.want {
			t.Errorf("Exists(%q, %s) = %v, want %v", c.cwd, c.id, got, c.want)
		}
	}
	if got := a.Title(home, proj, ocID1); got != "Remember the owl" {
		t.Errorf("Title = %q", got)
	}
	if got := a.Title(home, proj, untitled); got != "first prompt" {
		t.Errorf("Title of a session opencode has not titled = %q, want its first prompt", got)
	}
	if got := a.Title(home, other, ocID1); got != "" {
		t.Errorf("Title from another directory = %q", got)
	}
	if got, want := harness.LastActive(a, home, proj, ocID1), t0.Add(time.Second+time.Millisecond); !got.Equal(want) {
		t.Errorf("LastActive = %v, want the last message's time %v", got, want)
	}

	found, err := a.Discover(home, proj, "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range found {
		ids = append(ids, f.ID)
		if f.Tool != "opencode" || f.Cwd != proj || f.Home != home {
			t.Errorf("found %+v", f)
		}
	}
	if strings.Join(ids, " ") != untitled+" "+ocID1 {
		t.Errorf("Discover = %v, want the untitled one then %s (no empty, child or archived session)", ids, ocID1)
	}
	if found[1].Title != "Remember the owl" || !found[1].Started.Equal(t0) {
		t.Errorf("found %+v", found[1])
	}

	if f, err := a.Lookup(home, ocID2); err != nil || f.Cwd != other || f.Title != "Elsewhere" {
		t.Errorf("Lookup = %+v, %v", f, err)
	}
	for id, kind := range map[string]error{empty: harness.ErrEmptyConversation, child: harness.ErrNotUsers, "ses_dcbb1000000fffffffffffffff": harness.ErrNoConversation, "x": harness.ErrNoConversation} {
		if _, err := a.Lookup(home, id); !errors.Is(err, kind) {
			t.Errorf("Lookup(%s) = %v, want %v", id, err, kind)
		}
	}
	if err := a.Adoptable(home, proj, ocID1); err != nil {
		t.Errorf("Adoptable: %v", err)
	}
	if err := a.Adoptable(home, other, ocID1); !errors.Is(err, harness.ErrElsewhere) {
		t.Errorf("Adoptable from another directory: %v", err)
	}

	x := a.Excerpt(home, proj, ocID1, 1, 2)
	if x.Total != 4 || len(x.First) != 1 || x.First[0] != (harness.Message{Role: "user", Text: "remember OWL-77"}) ||
		len(x.Last) != 2 || x.Last[1] != (harness.Message{Role: "assistant", Text: "ACK which codes now"}) {
		t.Errorf("Excerpt = %+v", x)
	}

	// Correlate: the one session of the directory created since the spawn.
	if got := a.Correlate(home, proj, t0.Add(4*time.Minute+time.Second)); got != untitled {
		t.Errorf("Correlate = %q, want %s", got, untitled)
	}
	if got := a.Correlate(home, proj, t0.Add(-time.Second)); got != "" {
		t.Errorf("Correlate with several = %q", got)
	}
	if got := a.Correlate(home, proj, t0.Add(time.Hour)); got != "" {
		t.Errorf("Correlate with none since = %q", got)
	}

	// No database yet: nothing, and no error.
	none := filepath.Join(t.TempDir(), "opencode")
	if a.Exists(none, proj, ocID1) {
		t.Error("Exists in a home without a database")
	}
	if f, err := a.Discover(none, proj, ""); err != nil || len(f) != 0 {
		t.Errorf("Discover without a database: %v, %v", f, err)
	}
	if err := a.Adoptable(none, proj, ocID1); !errors.Is(err, harness.ErrNoConversation) {
		t.Errorf("Adoptable without a database: %v", err)
	}
}

// TestStoreFollowsWrites: a session written after a first read is
// seen (the cache follows the database's files).
func TestStoreFollowsWrites(t *testing.T) {
	a := Agent
	home, proj := t.TempDir(), t.TempDir()
	writeDB(t, home, ocRow{id: ocID1, dir: proj, title: "one", created: time.Now(), prompts: []string{"a"}})
	if !a.Exists(home, proj, ocID1) || a.Exists(home, proj, ocID2) {
		t.Fatal("first read")
	}
	writeDB(t, home, ocRow{id: ocID2, dir: proj, title: "two", created: time.Now(), prompts: []string{"b"}})
	if !a.Exists(home, proj, ocID2) {
		t.Error("a session written since the last read is not seen")
	}
}

// TestStoreUnread: without sqlite3 the store cannot tell. A record
// is not taken for gone (prune keeps it), and a resume is refused, saying
// why.
func TestStoreUnread(t *testing.T) {
	a := Agent
	home, proj := t.TempDir(), t.TempDir()
	writeDB(t, home, ocRow{id: ocID1, dir: proj, title: "one", created: time.Now(), prompts: []string{"a"}})
	saved := sqlitePath
	t.Cleanup(func() { sqlitePath = saved; cache.db = "" })
	sqlitePath = func() (string, error) { return "", exec.ErrNotFound }
	cache.db = ""
	if !a.Exists(home, proj, ocID1) || !a.Exists(home, proj, ocID2) {
		t.Error("Exists with an unreadable store: want true (cannot tell)")
	}
	if err := a.Adoptable(home, proj, ocID1); err == nil || !strings.Contains(err.Error(), "sqlite3") {
		t.Errorf("Adoptable = %v, want a refusal naming sqlite3", err)
	}
	if _, err := a.Discover(home, proj, ""); err == nil {
		t.Error("Discover with an unreadable store: no error")
	}
	if a.Title(home, proj, ocID1) != "" || !harness.LastActive(a, home, proj, ocID1).IsZero() {
		t.Error("a title or an activity from an unreadable store")
	}
	notes := a.Behaviour.(harness.Diagnoser).Diagnose(home)
	if len(notes) == 0 || notes[0].OK || !strings.Contains(notes[0].Detail, "install sqlite3") {
		t.Errorf("Diagnose = %+v", notes)
	}
	// A database sqlite3 cannot read is an unreadable store too.
	sqlitePath = saved
	bad := t.TempDir()
	harnesstest.WriteFile(t, dbPath(bad), "not a database at all, but long enough to look like a file of one")
	if _, err := a.Discover(bad, proj, ""); !errors.Is(err, errUnread) {
		t.Errorf("Discover on a broken database: %v", err)
	}
	if !a.Exists(bad, proj, ocID1) {
		t.Error("Exists on a broken database: want true (cannot tell)")
	}
}

// TestStoreReadOnly: reading takes no lock that makes opencode
// wait and writes nothing: while a writer holds a write transaction open,
// a read returns at once with what was committed, and the writer then
// commits; a database whose write-ahead log is gone gets none from a read.
func TestStoreReadOnly(t *testing.T) {
	a := Agent
	home, proj := t.TempDir(), t.TempDir()
	writeDB(t, home, ocRow{id: ocID1, dir: proj, title: "one", created: time.Now(), prompts: []string{"a"}})
	// Checkpoint and close: no -wal or -shm file is left.
	if out, err := exec.Command(sqliteForTest(t), dbPath(home), "PRAGMA wal_checkpoint(TRUNCATE);").CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	before := dirNames(t, home)
	data, _ := os.ReadFile(dbPath(home))
	if !a.Exists(home, proj, ocID1) {
		t.Fatal("not read")
	}
	if after := dirNames(t, home); after != before {
		t.Errorf("a read left files: %s, was %s", after, before)
	}
	if now, _ := os.ReadFile(dbPath(home)); string(now) != string(data) {
		t.Error("a read changed the database")
	}

	writer := exec.Command(sqliteForTest(t), "-batch", dbPath(home))
	in, err := writer.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := writer.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := writer.Start(); err != nil {
		t.Fatal(err)
	}
	defer writer.Process.Kill()
	fmt.Fprintf(in, "BEGIN IMMEDIATE; INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (%s, 'g', 's', %s, 't', 'v', 1, 1); SELECT 'held';\n",
		sqlQuote(ocID2), sqlQuote(proj))
	buf := make([]byte, 5)
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "held\n" {
		t.Fatalf("the writer did not start its transaction: %q %v", buf, err)
	}
	cache.db = ""
	if _, err := sessions(home); err != nil {
		t.Fatalf("read during a write transaction: %v", err)
	}
	if _, err := find(home, ocID2); !absent(err) {
		t.Errorf("an uncommitted session was read: %v", err)
	}
	fmt.Fprintf(in, "COMMIT; SELECT 'done';\n")
	if _, err := io.ReadFull(out, buf); err != nil || string(buf) != "done\n" {
		t.Fatalf("the writer could not commit after the read: %q %v", buf, err)
	}
	// Committed to the write-ahead log, which the open writer keeps.
	if _, err := os.Stat(dbPath(home) + "-wal"); err != nil {
		t.Fatalf("no write-ahead log while the writer is open: %v", err)
	}
	if _, err := find(home, ocID2); err != nil {
		t.Errorf("the session committed to the write-ahead log is not read: %v", err)
	}
	in.Close()
	writer.Wait()
}

func dirNames(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// TestLookupReadsOneSession: a question about one session reads that
// session alone, not a listing of every one (whose questions about each
// session's messages cost 150 ms at 5,000 sessions); a listing still
// lists them all, and a lookup after it reads nothing more.
func TestLookupReadsOneSession(t *testing.T) {
	a := Agent
	home, proj := t.TempDir(), t.TempDir()
	t0 := time.Now().Add(-time.Hour)
	writeDB(t, home,
		ocRow{id: ocID1, dir: proj, title: "one", created: t0, prompts: []string{"a"}},
		ocRow{id: ocID2, dir: proj, title: "two", created: t0.Add(time.Minute), prompts: []string{"b"}},
		ocRow{id: "ses_dcbb10000000aaaaaaaaaaaaaa", dir: proj, title: "three", created: t0.Add(2 * time.Minute), prompts: []string{"c"}})
	if got := a.Title(home, proj, ocID2); got != "two" {
		t.Fatalf("Title = %q", got)
	}
	cache.Lock()
	all, n := cache.all, len(cache.list)
	cache.Unlock()
	if all || n != 1 {
		t.Errorf("after one lookup the cache holds %d sessions (all: %v), want the one", n, all)
	}
	if f, err := a.Discover(home, proj, ""); err != nil || len(f) != 3 {
		t.Fatalf("Discover: %d, %v", len(f), err)
	}
	if got := a.Title(home, proj, ocID1); got != "one" || !a.Exists(home, proj, ocID1) || a.Exists(home, proj, "ses_dcbb1000000fffffffffffffff") {
		t.Errorf("after the listing: Title %q, or Exists wrong", got)
	}
}
