package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

func TestDriftTally(t *testing.T) {
	s, _ := openTest(t)
	for i := 0; i < 3; i++ {
		if err := s.NoteRun("anchor", Run{Time: at(i), Version: "2.1.332", Hint: Silent, Capture: Agreed}); err != nil {
			t.Fatal(err)
		}
	}
	s.NoteRun("anchor", Run{Time: at(9), Hint: Agreed, Capture: NotExpected})
	runs, err := Runs(s.dir, "anchor")
	if err != nil || len(runs) != 4 || runs[0].Hint != Silent || runs[0].Version != "2.1.332" || runs[3].Version != "" || !runs[3].Time.Equal(at(9)) {
		t.Fatalf("Runs = %+v, %v", runs, err)
	}
	if none, err := Runs(s.dir, "bravo"); err != nil || none != nil {
		t.Errorf("an empty tally: %v, %v", none, err)
	}
	if err := s.NoteRun("../x", Run{}); err == nil {
		t.Error("a tool name with path syntax was accepted")
	}
	// A damaged line is skipped; the tally stays bounded.
	p := filepath.Join(s.dir, "drift", "anchor")
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("garbage\n")
	f.Close()
	for i := 0; i < 3000; i++ {
		s.NoteRun("anchor", Run{Time: time.Unix(int64(i), 0), Version: "2.1.340", Hint: Agreed, Capture: Agreed})
	}
	runs, _ = Runs(s.dir, "anchor")
	if fi, _ := os.Stat(p); fi.Size() > maxDriftSize || len(runs) < maxDriftRuns || runs[len(runs)-1].Time.Unix() != 2999 {
		t.Errorf("tally of %d bytes, %d runs, last %v", fi.Size(), len(runs), runs[len(runs)-1].Time)
	}
}

// A tally over any size is trimmed to its newest runs on the next run, and
// read meanwhile: an older fleetcom (or runs ending together) can leave one
// far past the bound, and then every run warned and doctor saw nothing.
func TestDriftOversized(t *testing.T) {
	s, _ := openTest(t)
	p := filepath.Join(s.dir, "drift", "anchor")
	os.MkdirAll(filepath.Dir(p), 0o700)
	var b strings.Builder
	for i := 0; b.Len() < 300<<10; i++ {
		fmt.Fprintf(&b, "%d 2.1.197 hint=ok capture=ok\n", i)
	}
	b.WriteString("999999 2.1.332 hint=silent capture=ok\n")
	os.WriteFile(p, []byte(b.String()), 0o600)
	runs, err := Runs(s.dir, "anchor")
	if err != nil || len(runs) < maxDriftRuns || runs[len(runs)-1].Version != "2.1.332" {
		t.Fatalf("Runs of an oversized tally: %d runs, %v", len(runs), err)
	}
	if err := s.NoteRun("anchor", Run{Time: time.Unix(1000000, 0), Version: "2.1.332", Hint: Agreed, Capture: Agreed}); err != nil {
		t.Fatalf("NoteRun on an oversized tally: %v", err)
	}
	fi, _ := os.Stat(p)
	runs, _ = Runs(s.dir, "anchor")
	if fi.Size() > maxDriftSize || len(runs) != maxDriftRuns || runs[len(runs)-2].Hint != Silent || runs[len(runs)-1].Time.Unix() != 1000000 {
		t.Errorf("after the trim: %d bytes, %d runs, last two %+v", fi.Size(), len(runs), runs[len(runs)-2:])
	}
	// A sparse file of gigabytes without a line: read in its window,
	// trimmed to nothing, then the new run.
	f, _ := os.Create(p)
	f.Truncate(4 << 30)
	f.Close()
	if err := s.NoteRun("anchor", Run{Time: time.Unix(7, 0), Hint: Agreed, Capture: Agreed}); err != nil {
		t.Fatal(err)
	}
	if runs, _ := Runs(s.dir, "anchor"); len(runs) != 0 {
		t.Errorf("after trimming a file without lines: %+v", runs)
	}
	// A version that could break the line's shape is written as unknown.
	s.NoteRun("bravo", Run{Time: time.Unix(8, 0), Version: "1.0 hint=x\n", Hint: Agreed, Capture: Agreed})
	if runs, _ := Runs(s.dir, "bravo"); len(runs) != 1 || runs[0].Version != "" || runs[0].Hint != Agreed {
		t.Errorf("a hostile version: %+v", runs)
	}
}

// A FIFO, a symlink or a directory at drift/<tool> is an error at once:
// the run that notes itself must never wait on it.
func TestDriftNotRegular(t *testing.T) {
	s, _ := openTest(t)
	dir := filepath.Join(s.dir, "drift")
	os.MkdirAll(dir, 0o700)
	target := filepath.Join(t.TempDir(), "target")
	os.WriteFile(target, nil, 0o600)
	if err := syscall.Mkfifo(filepath.Join(dir, "anchor"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink(target, filepath.Join(dir, "bravo"))
	os.Mkdir(filepath.Join(dir, "cedar"), 0o700)
	for _, tool := range []string{"anchor", "bravo", "cedar"} {
		done := make(chan error, 1)
		go func() { done <- s.NoteRun(tool, Run{Time: time.Unix(1, 0), Hint: Agreed, Capture: Agreed}) }()
		select {
		case err := <-done:
			if !errors.Is(err, safe.ErrNotRegular) {
				t.Errorf("%s: NoteRun = %v, want ErrNotRegular", tool, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: NoteRun blocked", tool)
		}
		if _, err := Runs(s.dir, tool); !errors.Is(err, safe.ErrNotRegular) {
			t.Errorf("%s: Runs = %v, want ErrNotRegular", tool, err)
		}
	}
	if b, _ := os.ReadFile(target); len(b) != 0 {
		t.Errorf("written through the symlink: %q", b)
	}
}
