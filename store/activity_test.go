package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A directory's name may hold ESC, a tab or a newline (issue 21, item 10):
// its records are stored, indexed and read back as they are.
func TestControlCharactersInPaths(t *testing.T) {
	s, _ := openTest(t)
	odd := filepath.Join(physicalTempDir(t), "odd\x1b[31mred\ttab\nline")
	if err := os.Mkdir(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	r := rec("anchor", 1, odd)
	r.Home = "/home/u\x1b/.anchor"
	mustPut(t, s, r)
	got, err := s.Dir(odd)
	if err != nil || len(got) != 1 || got[0].Cwd != odd || got[0].Home != r.Home {
		t.Fatalf("Dir(%q) = %+v, %v", odd, got, err)
	}
	if _, err := s.Put(rec("anchor", 2, "/work/\xff")); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid UTF-8 in cwd: %v, want ErrInvalid", err)
	}
}

// NewestFirst follows the conversation's last message when it is known,
// not the end of its run; one run that ended in two conversations lists
// the one it ended in (written last) first (issue 21, item 12).
func TestNewestFirst(t *testing.T) {
	a, b := rec("anchor", 1, "/w"), rec("anchor", 2, "/w")
	// a's run ended later, b's last message is later.
	a.Ended, a.Active = ptr(at(500)), ptr(at(100))
	b.Ended, b.Active = ptr(at(400)), ptr(at(300))
	list := []Record{a, b}
	slices.SortFunc(list, NewestFirst)
	if list[0].ID != b.ID {
		t.Errorf("by last message: %v first, want %s", ids(list), b.ID)
	}
	// One run, both closed at its end, nothing read of the store: the one
	// written last wins, whatever the IDs say.
	for _, first := range []int{1, 2} {
		x, y := rec("anchor", first, "/w"), rec("anchor", 3-first, "/w")
		x.Ended, y.Ended = ptr(at(500)), ptr(at(500))
		x.Updated, y.Updated = at(501), at(502)
		list := []Record{x, y}
		slices.SortFunc(list, NewestFirst)
		if list[0].ID != y.ID {
			t.Errorf("a tie went to %s, want the one written last, %s", list[0].ID, y.ID)
		}
	}
}

// Refile moves a record to another directory in one write: the old
// directory no longer lists it, the new one does, and what Put merges is
// merged.
func TestRefile(t *testing.T) {
	s, _ := openTest(t)
	old, dir := physicalTempDir(t), physicalTempDir(t)
	r := rec("anchor", 1, old)
	r.Title = "kept"
	mustPut(t, s, r)
	in := rec("anchor", 1, dir)
	in.Source, in.Title, in.Active = "moved", "", ptr(at(42))
	got, err := s.Refile(in)
	if err != nil {
		t.Fatal(err)
	}
	if got.Cwd != dir || got.Title != "kept" || got.Source != "moved" || got.Active == nil || !got.Active.Equal(at(42)) {
		t.Errorf("refiled: %+v", got)
	}
	if l, _ := s.Dir(old); len(l) != 0 {
		t.Errorf("the old directory still lists %v", ids(l))
	}
	if l, _ := s.Dir(dir); len(l) != 1 || l[0].ID != r.ID {
		t.Errorf("the new directory lists %v", ids(l))
	}
	// An invalid one changes nothing.
	before := listTree(t, s.dir)
	bad := in
	bad.Cwd = "relative"
	if _, err := s.Refile(bad); err == nil {
		t.Error("a relative cwd was refiled")
	}
	if d := cmp.Diff(before, listTree(t, s.dir)); d != "" {
		t.Errorf("a refused Refile changed the store:\n%s", d)
	}
}
