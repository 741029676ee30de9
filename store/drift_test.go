package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"
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
