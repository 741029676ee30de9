package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/internal/testexec"
)

// Project makes a project directory (a name with a space in it is fine) and
// marks it trusted for every CLI. The returned path has symlinks resolved, as
// the CLIs and fleetcom record it.
func (w *World) Project(name string) string {
	w.t.Helper()
	dir := filepath.Join(w.Root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.t.Fatal(err)
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		w.t.Fatal(err)
	}
	for _, name := range AgentNames() {
		agents[name].Trust(w, dir)
	}
	return dir
}

// tomlString quotes s as a TOML basic string; JSON string escapes are valid
// TOML ones.
func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (w *World) writeJSON(p string, v any) {
	w.t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		w.t.Fatal(err)
	}
	w.writeFile(p, string(b)+"\n", 0o600)
}

func (w *World) writeFile(p, s string, mode os.FileMode) {
	w.t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		w.t.Fatal(err)
	}
	if err := testexec.WriteFile(p, []byte(s), mode); err != nil {
		w.t.Fatal(err)
	}
}

func (w *World) appendFile(p, s string) {
	w.t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		_, err = f.WriteString(s)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		w.t.Fatal(err)
	}
}
