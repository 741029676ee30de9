package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Project makes a project directory (a name with a space in it is fine) and
// marks it trusted for both CLIs. The returned path has symlinks resolved, as
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
	w.trustClaude(dir, true)
	w.appendFile(filepath.Join(w.CodexHome, "config.toml"),
		fmt.Sprintf("\n[projects.%s]\ntrust_level = \"trusted\"\n", tomlString(dir)))
	return dir
}

// trustClaude records in Claude's own ~/.claude.json whether the user
// accepted its folder-trust dialog for dir; without it Claude asks first.
func (w *World) trustClaude(dir string, trusted bool) {
	w.t.Helper()
	// Merge into the file Claude itself keeps up to date.
	p := filepath.Join(w.Home, ".claude.json")
	var cfg map[string]any
	b, err := os.ReadFile(p)
	if err == nil {
		err = json.Unmarshal(b, &cfg)
	}
	if err != nil {
		w.t.Fatalf("read %s: %v", p, err)
	}
	projects, _ := cfg["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	entry, _ := projects[dir].(map[string]any)
	if entry == nil {
		entry = map[string]any{}
	}
	entry["hasTrustDialogAccepted"] = trusted
	projects[dir], cfg["projects"] = entry, projects
	w.writeJSON(p, cfg)
}

// SetCodexNotify makes argv the user's own Codex notifier in config.toml.
// Call it before the first Project.
func (w *World) SetCodexNotify(argv ...string) { w.writeCodexConfig(argv) }

// writeCodexConfig writes config.toml for the fake provider. Projects are
// appended later, so the notify line (top level) must come first.
func (w *World) writeCodexConfig(notify []string) {
	var b strings.Builder
	if len(notify) > 0 {
		q := make([]string, len(notify))
		for i, a := range notify {
			q[i] = tomlString(a)
		}
		fmt.Fprintf(&b, "notify = [%s]\n", strings.Join(q, ", "))
	}
	fmt.Fprintf(&b, `model_provider = "fake"
model = %q
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = %q
wire_api = "responses"
env_key = %q

[analytics]
enabled = false

[features]
daemon_auto_start = false
plugins = false
remote_plugin = false
apps = false
`, codexModel, w.API.URL()+"/v1", openaiKeyVar)
	w.writeFile(filepath.Join(w.CodexHome, "config.toml"), b.String(), 0o600)
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
	if err := os.WriteFile(p, []byte(s), mode); err != nil {
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
