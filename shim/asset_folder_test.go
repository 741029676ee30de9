package shim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
)

// An asset named folder/file, for a CLI that is handed a directory: a
// stable one is written once into a folder of the root that carries the
// content's hash (so the path a CLI keeps data under stays the same from
// run to run), the file keeps its name, and the folder outlives the run; a
// per-run one goes in a folder of the namespace and goes with it.
func TestFolderAsset(t *testing.T) {
	root := Root{Dir: filepath.Join(t.TempDir(), "fleetcom")}
	assets := []harness.Asset{
		{Name: "plugin/plugin.json", Mode: 0o600, Data: []byte(`{"name":"x"}`), Stable: true},
		{Name: "scratch/notes.json", Mode: 0o600, Data: []byte(`{}`)},
	}
	ns, err := newNamespace(root, assets)
	if err != nil {
		t.Fatal(err)
	}
	stable, scratch := ns.assets["plugin/plugin.json"], ns.assets["scratch/notes.json"]
	folder := filepath.Dir(stable)
	if filepath.Base(stable) != "plugin.json" || filepath.Dir(folder) != ns.root || !strings.HasPrefix(filepath.Base(folder), "plugin-") {
		t.Fatalf("stable asset at %s, want <root>/plugin-<hash>/plugin.json", stable)
	}
	if scratch != filepath.Join(ns.dir, "scratch", "notes.json") {
		t.Fatalf("per-run asset at %s, want it in the namespace's folder", scratch)
	}
	for _, p := range []string{stable, scratch} {
		if b, err := os.ReadFile(p); err != nil || len(b) == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	if err := ns.settle(); err != nil {
		t.Fatal(err)
	}
	ns.remove()
	if _, err := os.Lstat(ns.dir); err == nil {
		t.Errorf("the namespace %s outlived its run", ns.dir)
	}
	if fi, err := os.Stat(stable); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the stable asset did not outlive its run: %v", err)
	}
	again, err := newNamespace(root, assets)
	if err != nil || again.assets["plugin/plugin.json"] != stable {
		t.Errorf("a second run got %v, %v; want the same folder", again.assets, err)
	}
	again.remove()

	// Other content, another folder: a run never sees a half-changed one.
	assets[0].Data = []byte(`{"name":"y"}`)
	other, err := newNamespace(root, assets[:1])
	if err != nil {
		t.Fatal(err)
	}
	if p := other.assets["plugin/plugin.json"]; filepath.Dir(p) == folder {
		t.Errorf("new content went into the old folder %s", folder)
	}
	other.remove()
}
