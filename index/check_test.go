package index

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Damage past the header is not looked for at every open (reading the
// whole index would cost every command); Check, which the background
// sweep runs at most daily, finds it and rebuilds.
func TestCheckRebuildsADamagedIndex(t *testing.T) {
	h := newToyHome(t)
	for i := 0; i < 300; i++ {
		h.write("/d", uuidN(i), "C /d", "P words of conversation "+strings.Repeat("filler ", 200))
	}
	dir := t.TempDir()
	x := h.open(dir, true)
	refresh(t, x, Scope{Full: true})
	x.Close()
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(filepath.Join(dir, File+suffix))
	}
	p := filepath.Join(dir, File)
	data, err := os.ReadFile(p)
	if err != nil || len(data) < 64<<10 {
		t.Fatalf("index of %d bytes, %v", len(data), err)
	}
	// Pages in the middle, not the header: Open does not notice.
	copy(data[len(data)/2:], strings.Repeat("\xff", 16<<10))
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	y, warnings := h.openWarned(dir)
	if len(*warnings) != 0 {
		t.Fatalf("warnings at open: %q", *warnings)
	}
	if err := y.Check(); err != nil {
		t.Fatal(err)
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "rebuilding") {
		t.Errorf("warnings after Check: %q; want one saying it is rebuilt", *warnings)
	}
	refresh(t, y, Scope{Full: true})
	if got := search(t, y, "conversation"); len(got) != 300 {
		t.Errorf("search after the rebuild: %d hits", len(got))
	}
	// Checked now: not again within a day.
	*warnings = nil
	if err := y.Check(); err != nil || len(*warnings) != 0 {
		t.Errorf("a second Check: %v, %q", err, *warnings)
	}
}

// status's refresh looks at the running conversations' files alone: the
// rest of the stores waits for the next command or sweep.
func TestHotOnlyRefresh(t *testing.T) {
	h := newToyHome(t)
	h.write("/d", idA, "C /d", "P running words")
	x := h.open(t.TempDir(), true)
	refresh(t, x, Scope{Full: true})
	h.write("/d", idA, "P more running words")
	h.write("/d", idB, "C /d", "P a newcomer")
	r := refresh(t, x, Scope{Hot: []Key{{"toy", idA}}, HotOnly: true})
	if r.Files != 1 {
		t.Errorf("hot-only refresh read %d files, want the running conversation's", r.Files)
	}
	if got := search(t, x, "newcomer"); len(got) != 0 {
		t.Errorf("a hot-only refresh read another conversation: %v", got)
	}
	if got := search(t, x, "more"); !slices.Equal(got, []string{idA}) {
		t.Errorf("search more: %v", got)
	}
}
