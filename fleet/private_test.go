package fleet

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
)

// A live folder others can write to, or one in such a store, is read as
// no runs at all, and Private says why.
func TestLiveFolderMustBePrivate(t *testing.T) {
	store := filepath.Join(t.TempDir(), "fleetcom")
	d := OpenDir(filepath.Join(store, "live"))
	if err := d.Private(); err != nil {
		t.Errorf("no store yet: %v", err)
	}
	r := Run{Tool: tool, ID: uid, Cwd: "/p", State: harness.Working, Since: t0, Started: t0,
		Proc: Proc{PID: 1, Start: "1", Boot: "b"}}
	if err := d.Write(&r); err != nil {
		t.Fatal(err)
	}
	if runs, _ := d.Read(); len(runs) != 1 || d.Private() != nil {
		t.Fatalf("a private folder: %d runs, %v", len(runs), d.Private())
	}
	for _, dir := range []string{store, d.Path()} {
		os.Chmod(dir, 0o777)
		if runs, _ := d.Read(); len(runs) != 0 {
			t.Errorf("%s open to others: %d runs read", dir, len(runs))
		}
		if err := d.Private(); !errors.Is(err, ErrNotPrivate) {
			t.Errorf("%s open to others: Private = %v", dir, err)
		}
		os.Chmod(dir, 0o700)
	}
}
