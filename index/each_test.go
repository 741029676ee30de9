package index

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// EachDir walks a directory's conversations in Dir's order and stops
// where its caller does; EachRecorded walks only the recorded ones.
func TestEachDir(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "1700000000 P old")
	h.write("/d", idB, "C /d", "1700000500 P new")
	h.write("/d", idC, "C /d", "S", "1700000900 P side thread")
	x := h.open("", true)
	refresh(t, x, Scope{})
	var all, one []string
	if err := x.EachDir("/d", "", func(c Conv) bool { all = append(all, c.ID); return true }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(all, []string{idC, idB, idA}) {
		t.Errorf("EachDir: %v", all)
	}
	x.EachDir("/d", "", func(c Conv) bool { one = append(one, c.ID); return len(one) < 2 })
	if !slices.Equal(one, []string{idC, idB}) {
		t.Errorf("EachDir stopped at %v", one)
	}
	var none []string
	x.EachDir("/d", "othertool", func(c Conv) bool { none = append(none, c.ID); return true })
	x.EachRecorded("/d", "", func(c Conv) bool { none = append(none, c.ID); return true })
	if len(none) != 0 {
		t.Errorf("another tool's or unrecorded conversations walked: %v", none)
	}
}

// The walk of a directory's newest reads its index in order: no sort of
// the directory's rows, whose cost would grow with its history.
func TestEachDirUsesItsIndex(t *testing.T) {
	h := newToyHome(t)
	x := h.open("", true)
	for _, q := range []struct{ where, index string }{
		{`WHERE cwd = ? AND tool LIKE ? ORDER BY ` + activity, "conv_cwd_activity"},
		{`WHERE cwd = ? AND rec IS NOT NULL AND tool LIKE ? ORDER BY ` + activity, "conv_cwd_recorded"},
	} {
		var plan []string
		err := x.db.query(`EXPLAIN QUERY PLAN SELECT `+convCols+` FROM conv `+q.where, []any{"/d", "%"}, func(s *sqlite3.Stmt) error {
			plan = append(plan, s.ColumnText(3))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		p := strings.Join(plan, "; ")
		if !strings.Contains(p, q.index) || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("plan of %s: %s", q.where, p)
		}
	}
}

// A quick refresh lists a folder's newest files from source_dir alone:
// every command runs it, and a lookup of each row in source would read
// the readers' state with it.
func TestNearFilesReadsOneIndex(t *testing.T) {
	h := newToyHome(t)
	x := h.open("", true)
	var plan []string
	if err := x.db.query(`EXPLAIN QUERY PLAN `+nearQuery, []any{"/d", nearLimit}, func(s *sqlite3.Stmt) error {
		plan = append(plan, s.ColumnText(3))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(plan, "; "); !strings.Contains(p, "COVERING INDEX source_dir") || strings.Contains(p, "TEMP B-TREE") {
		t.Errorf("plan of the quick refresh's folder listing: %s", p)
	}
}

// Rows that repeat the last row's paths share its strings (rowStrings),
// and each row still has its own: a walk of every directory, interleaved
// by time, gives each conversation the cwd it was read with, in the same
// order All returns them.
func TestEachAllKeepsEachRowsPaths(t *testing.T) {
	h := newToyHome(t)
	dirs := []string{"/a", "/b", "/a/deeper", "/c"}
	want := map[string]string{}
	for i := range 12 {
		d := dirs[i%len(dirs)]
		if i%5 == 0 {
			d = dirs[0]
		}
		id := uuidN(i)
		want[id] = d
		h.write(d, id, "C "+d, strconv.Itoa(1700000000+i)+" P prompt")
	}
	x := h.open("", true)
	refresh(t, x, Scope{})
	all, err := x.All("")
	if err != nil {
		t.Fatal(err)
	}
	var walked []Conv
	if err := x.EachAll(func(c Conv) bool { walked = append(walked, c); return true }); err != nil {
		t.Fatal(err)
	}
	if len(walked) != len(want) || len(all) != len(want) {
		t.Fatalf("walked %d, All %d, want %d", len(walked), len(all), len(want))
	}
	for i, c := range walked {
		if c.Cwd != want[c.ID] || c.StoreCwd != want[c.ID] || c.Home != h.home || c.Tool != toyAgent.Name {
			t.Errorf("%s: cwd %q, store cwd %q, home %q, tool %q; want %q in %s", c.ID, c.Cwd, c.StoreCwd, c.Home, c.Tool, want[c.ID], h.home)
		}
		if all[i] != c {
			t.Errorf("row %d: EachAll %+v, All %+v", i, c, all[i])
		}
	}
}

// TestEachAllReadsInOrder: a listing of every directory reads the index
// of the catalog's order, not a sort of every conversation before the
// first row, and an index built before that index gets it as it opens.
func TestEachAllReadsInOrder(t *testing.T) {
	h := newToyHome(t)
	dir := t.TempDir()
	h.write("/p", uuidN(1), "C /p", "P hello")
	plan := func(x *Index) string {
		t.Helper()
		var steps []string
		err := x.db.query(`EXPLAIN QUERY PLAN SELECT `+convCols+` FROM conv ORDER BY `+activity, nil, func(s *sqlite3.Stmt) error {
			steps = append(steps, s.ColumnText(3))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(steps, "; ")
	}
	x := h.open(dir, true)
	refresh(t, x, Scope{})
	if p := plan(x); strings.Contains(p, "TEMP B-TREE") || !strings.Contains(p, "conv_activity") {
		t.Errorf("EachAll's plan: %s", p)
	}
	if err := x.db.exec(`DROP INDEX conv_activity`); err != nil {
		t.Fatal(err)
	}
	x.Close()
	x = h.open(dir, true)
	if p := plan(x); !strings.Contains(p, "conv_activity") {
		t.Errorf("reopened without the index, EachAll's plan: %s", p)
	}
}

// TestRecordedHomes: the homes of recorded conversations, each once and
// only while it exists, beside the configured one; found by seeks, not a
// read of every record.
func TestRecordedHomes(t *testing.T) {
	h := newToyHome(t)
	x := h.open("", false)
	other, third := t.TempDir(), t.TempDir()
	for i, home := range []string{other, h.home, other, third, "/nowhere/at/all", "", third, "relative"} {
		if err := x.db.exec(`INSERT INTO conv(tool, id, home, rec) VALUES (?, ?, ?, '{}')`, toyAgent.Name, uuidN(i), home); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.db.exec(`INSERT INTO conv(tool, id, home) VALUES (?, ?, ?)`, toyAgent.Name, uuidN(99), t.TempDir()); err != nil {
		t.Fatal(err)
	}
	got := x.homes(toyAgent)
	want := []string{h.home, other, third}
	slices.Sort(got[1:])
	slices.Sort(want[1:])
	if !slices.Equal(got, want) {
		t.Errorf("homes = %q, want %q", got, want)
	}
	var plan []string
	x.db.query(`EXPLAIN QUERY PLAN SELECT min(home) FROM conv WHERE tool = ?1 AND rec IS NOT NULL AND home > ''`, []any{toyAgent.Name}, func(s *sqlite3.Stmt) error {
		plan = append(plan, s.ColumnText(3))
		return nil
	})
	if p := strings.Join(plan, "; "); !strings.Contains(p, "conv_rechome") {
		t.Errorf("a home's seek: %s", p)
	}
}

// TestRecordDirs: each directory with a record once, that of the newest
// recorded conversation first, found by seeks in conv_cwd_recorded.
func TestRecordDirs(t *testing.T) {
	h := newToyHome(t)
	x := h.open("", false)
	for i, r := range []struct {
		cwd     string
		ractive int64
		rec     bool
	}{{"/b", 100, true}, {"/a", 300, true}, {"/b", 500, true}, {"/c", 200, true}, {"/d", 900, false}, {"/a", 50, true}} {
		var rec any
		if r.rec {
			rec = "{}"
		}
		if err := x.db.exec(`INSERT INTO conv(tool, id, cwd, ractive, rec) VALUES (?, ?, ?, ?, ?)`, toyAgent.Name, uuidN(i), r.cwd, r.ractive, rec); err != nil {
			t.Fatal(err)
		}
	}
	got, err := x.RecordDirs()
	if want := []string{"/b", "/a", "/c"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("RecordDirs = %q, %v; want %q", got, err, want)
	}
	var plan []string
	x.db.query(`EXPLAIN QUERY PLAN SELECT min(cwd) FROM conv WHERE rec IS NOT NULL AND cwd > ?`, []any{"/a"}, func(s *sqlite3.Stmt) error {
		plan = append(plan, s.ColumnText(3))
		return nil
	})
	if p := strings.Join(plan, "; "); !strings.Contains(p, "conv_cwd_recorded") {
		t.Errorf("the next directory's seek: %s", p)
	}
}
