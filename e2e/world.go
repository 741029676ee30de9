package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

// World is one scratch user: a home with XDG and tool homes under it, a fake
// model API, and the environment every process of the test runs with. Nothing
// of the real user's home is read or written.
type World struct {
	Root string
	Home string
	API  *fakeapi.Server

	t    testing.TB
	path []string
	env  map[string]string
}

// NewWorld makes the scratch user and starts its fake API. path lists the
// directories searched first for commands (shims, then the real CLIs); the
// directories of node, tmux and sh follow.
func NewWorld(t testing.TB, path ...string) *World {
	t.Helper()
	root := scratchRoot(t)
	w := &World{
		Root: root, Home: filepath.Join(root, "home"), t: t,
		env: map[string]string{},
	}
	xdg := filepath.Join(root, "xdg")
	for _, d := range []string{w.Home, xdg + "/config", xdg + "/data", xdg + "/state", xdg + "/cache", xdg + "/runtime"} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	api, err := fakeapi.Start("127.0.0.1:0", filepath.Join(root, "api.log"))
	if err != nil {
		t.Fatal(err)
	}
	api.SetBodyLimit(1 << 20)
	w.API = api
	t.Cleanup(func() { api.Close() })

	w.path = append(append([]string(nil), path...), toolDirs()...)
	for k, v := range map[string]string{
		"HOME": w.Home, "USER": "fleetcom", "LOGNAME": "fleetcom", "LANG": "C.UTF-8",
		"SHELL": shell(), "PATH": strings.Join(w.path, string(os.PathListSeparator)),
		"XDG_CONFIG_HOME": xdg + "/config", "XDG_DATA_HOME": xdg + "/data",
		"XDG_STATE_HOME": xdg + "/state", "XDG_CACHE_HOME": xdg + "/cache",
		"XDG_RUNTIME_DIR": xdg + "/runtime",
	} {
		w.env[k] = v
	}
	// Each CLI's own: its home, its key and base URL, its switches.
	for _, name := range AgentNames() {
		for k, v := range agents[name].Env(w) {
			w.env[k] = v
		}
	}
	// Whatever still tries to leave the machine (Codex fetches an
	// announcement with no switch to stop it) goes to the fake as its proxy,
	// is refused and logged, and never reaches a resolver.
	for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"} {
		w.env[k], w.env[strings.ToLower(k)] = api.URL(), api.URL()
	}
	w.env["NO_PROXY"], w.env["no_proxy"] = "127.0.0.1,localhost", "127.0.0.1,localhost"

	for _, name := range AgentNames() {
		agents[name].Setup(w)
	}
	w.writeEnvFile()
	return w
}

// writeEnvFile leaves the test environment as a shell script in the scratch
// root, so a kept run (FLEETCOM_E2E_KEEP=1) can be replayed by hand.
func (w *World) writeEnvFile() {
	var b strings.Builder
	b.WriteString("# source this to act as the test's scratch user\n")
	for _, kv := range w.Env() {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&b, "export %s=%s\n", k, shellQuote(v))
	}
	w.writeFile(filepath.Join(w.Root, "env.sh"), b.String(), 0o600)
}

// scratchRoot is the test's scratch directory; FLEETCOM_E2E_KEEP=1 keeps it
// after the test for a look at the transcripts, logs and configs.
func scratchRoot(t testing.TB) string {
	t.Helper()
	if os.Getenv("FLEETCOM_E2E_KEEP") == "" {
		return t.TempDir()
	}
	d, err := os.MkdirTemp("", "fleetcom-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("scratch kept in %s", d)
	return d
}

// toolDirs are the directories of the programs the CLIs and the rig need
// besides themselves.
func toolDirs() []string {
	var out []string
	seen := map[string]bool{}
	for _, name := range []string{"node", "tmux", "sh", "git", "ps", "grep"} {
		if p, err := exec.LookPath(name); err == nil && !seen[filepath.Dir(p)] {
			seen[filepath.Dir(p)] = true
			out = append(out, filepath.Dir(p))
		}
	}
	for _, d := range []string{"/usr/bin", "/bin"} {
		if !seen[d] {
			out = append(out, d)
		}
	}
	return out
}

func shell() string {
	if _, err := os.Stat("/bin/bash"); err == nil {
		return "/bin/bash"
	}
	return "/bin/sh"
}

// Env returns the environment for every process of the test, plus extra
// KEY=VALUE entries.
func (w *World) Env(extra ...string) []string {
	var out []string
	for k, v := range w.env {
		out = append(out, k+"="+v)
	}
	return append(out, extra...)
}

// Setenv sets one variable of the test environment, for processes and tmux
// servers started after it.
func (w *World) Setenv(k, v string) {
	w.env[k] = v
	w.writeEnvFile()
}

// PrependPath puts dir first on the test's PATH.
func (w *World) PrependPath(dir string) {
	w.path = append([]string{dir}, w.path...)
	w.Setenv("PATH", strings.Join(w.path, string(os.PathListSeparator)))
}

// Getenv returns one variable of the test environment.
func (w *World) Getenv(k string) string { return w.env[k] }

// Script writes an executable /bin/sh script under the scratch root and
// returns its absolute path.
func (w *World) Script(name, body string) string {
	w.t.Helper()
	p := filepath.Join(w.Root, "bin", name)
	w.writeFile(p, "#!/bin/sh\n"+body, 0o755)
	return p
}

// Tmux returns a private tmux server running with the test environment.
func (w *World) Tmux() *Tmux { return NewTmux(w.t, w.Env()) }
