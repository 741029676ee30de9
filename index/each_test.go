package index

import (
	"slices"
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
