package store

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestChangedNamesWhatWasWritten(t *testing.T) {
	s, _ := openTest(t)
	a, b := rec("anchor", 1, "/work/a"), rec("bravo", 2, "/work/b")
	if _, err := s.Put(a); err != nil {
		t.Fatal(err)
	}
	// The first look knows nothing: read everything.
	keys, mark, all, err := s.Changed("")
	if err != nil || !all || keys != nil {
		t.Fatalf("Changed(\"\") = %v, %q, %v, %v; want all", keys, mark, all, err)
	}
	if keys, _, all, _ := s.Changed(mark); all || len(keys) != 0 {
		t.Errorf("nothing written since: %v, all %v", keys, all)
	}
	for i := 0; i < 3; i++ {
		if _, err := s.Put(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Forget(a.Tool, a.ID); err != nil {
		t.Fatal(err)
	}
	keys, next, all, err := s.Changed(mark)
	want := []string{"bravo-" + b.ID, "anchor-" + a.ID}
	if err != nil || all || !slices.Equal(keys, want) {
		t.Errorf("Changed after three writes of b and a forget of a: %v, all %v, %v; want %v", keys, all, err, want)
	}
	s.Remember(a.Tool, a.ID)
	if keys, _, _, _ := s.Changed(next); !slices.Equal(keys, []string{"anchor-" + a.ID}) {
		t.Errorf("Changed after Remember: %v", keys)
	}
}

func TestChangedStartsOverWhenTheFileDoes(t *testing.T) {
	s, _ := openTest(t)
	if _, err := s.Put(rec("anchor", 1, "/work/a")); err != nil {
		t.Fatal(err)
	}
	_, mark, _, _ := s.Changed("")
	p := filepath.Join(s.dir, changesFile)
	// Replaced (as when it grows too long), or gone (a write that could not
	// be noted removes it): the changes since the mark are unknown.
	s.restartChanges()
	if _, _, all, _ := s.Changed(mark); !all {
		t.Error("a replaced file was read on from the old mark")
	}
	_, mark, _, _ = s.Changed("")
	os.Remove(p)
	if _, err := s.Put(rec("anchor", 2, "/work/a")); err != nil {
		t.Fatal(err)
	}
	os.Remove(p)
	if _, _, all, _ := s.Changed(mark); !all {
		t.Error("a missing file was taken for no change")
	}
	// A write after the file went makes none: only a reader does, reading
	// everything as it does. (A file made again may get the inode of the
	// one a mark was taken in: marks name the file's token, not its inode.)
	_, mark, _, _ = s.Changed("")
	os.Remove(p)
	if _, err := s.Put(rec("anchor", 4, "/work/a")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("a write made the changes file again: %v", err)
	}
	if _, _, all, _ := s.Changed(mark); !all {
		t.Error("a missing file after a write was taken for no change")
	}
	// A file from before tokens (keys from its first line) starts over.
	os.WriteFile(p, []byte("anchor-"+testID(5)+"\n"), 0o600)
	if _, _, all, _ := s.Changed(mark); !all {
		t.Error("a file without a token was read on")
	}
	_, mark, all, _ := s.Changed("")
	if _, err := s.Put(rec("anchor", 6, "/work/a")); err != nil {
		t.Fatal(err)
	}
	if keys, _, again, _ := s.Changed(mark); !all || again || !slices.Equal(keys, []string{"anchor-" + testID(6)}) {
		t.Errorf("after the file started over: %v, all %v; want the one write", keys, again)
	}
	// It grows no larger than about maxChanges.
	for i := 0; i < maxChanges/40+10; i++ {
		s.noteChange("anchor", testID(3))
	}
	if fi, err := os.Stat(p); err != nil || fi.Size() > maxChanges {
		t.Errorf("changes file: %v, %v; want at most %d bytes", fi.Size(), err, maxChanges)
	}
}
