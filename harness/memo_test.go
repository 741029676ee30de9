package harness

import (
	"os"
	"path/filepath"
	"testing"
)

// LastRead reads a file again only when its size or mtime moved, and a
// missing file every time.
func TestLastRead(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	reads := 0
	read := func(path string) int {
		reads++
		b, _ := os.ReadFile(path)
		return len(b)
	}
	var m LastRead[int]
	if got := m.Of(p, read); got != 0 || reads != 1 {
		t.Errorf("missing: %d after %d reads", got, reads)
	}
	if m.Of(p, read); reads != 2 {
		t.Errorf("missing again: %d reads, want 2", reads)
	}
	os.WriteFile(p, []byte("abc"), 0o644)
	if got := m.Of(p, read); got != 3 || reads != 3 {
		t.Errorf("written: %d after %d reads", got, reads)
	}
	if got := m.Of(p, read); got != 3 || reads != 3 {
		t.Errorf("unchanged: %d after %d reads, want no new read", got, reads)
	}
	os.WriteFile(p, []byte("abcdef"), 0o644)
	if got := m.Of(p, read); got != 6 || reads != 4 {
		t.Errorf("grown: %d after %d reads", got, reads)
	}
	q := p + "2"
	os.WriteFile(q, []byte("abcdef"), 0o644)
	if got := m.Of(q, read); got != 6 || reads != 5 {
		t.Errorf("another file: %d after %d reads", got, reads)
	}
}
