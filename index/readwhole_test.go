package index

import (
	"os"
	"testing"
)

// TestReadWhole: the files ReadWhole hands an agent's look are the ones
// the index read to their end and that have not changed since; a turn
// appended, or a line still being written, takes the file out until a
// refresh reads it.
func TestReadWhole(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P first words")
	h.write("/d", idB, "C /d", "P other words")
	x := h.open(t.TempDir(), true)
	refresh(t, x, Scope{})
	p := h.path("/d", idA)
	whole := func() int {
		t.Helper()
		files, err := x.ReadWhole("toy", idA)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			fi, err := os.Stat(f.Path)
			if err != nil || f.Path != p || f.Size != fi.Size() || f.Cursor.Offset != f.Size {
				t.Errorf("ReadWhole gave %+v for %s (%v)", f, p, err)
			}
		}
		return len(files)
	}
	if n := whole(); n != 1 {
		t.Fatalf("ReadWhole of a file read whole: %d files", n)
	}
	h.write("/d", idA, "P second words")
	if n := whole(); n != 0 {
		t.Errorf("ReadWhole of a file grown since: %d files", n)
	}
	refresh(t, x, Scope{})
	if n := whole(); n != 1 {
		t.Errorf("ReadWhole after the refresh read it: %d files", n)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("R half writ")
	f.Close()
	refresh(t, x, Scope{})
	if n := whole(); n != 0 {
		t.Errorf("ReadWhole of a file with a line still being written: %d files", n)
	}
	if files, err := x.ReadWhole("toy", "no-such-id"); err != nil || len(files) != 0 {
		t.Errorf("ReadWhole of an unknown conversation: %v, %v", files, err)
	}
}
