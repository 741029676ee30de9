package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// The store on a full or read-only filesystem: the CLI still runs and
// exits as it would, fleetcom says so once, and what was recorded before is
// still there. A private mount namespace with a tiny tmpfs stands in for
// the broken disk.
func TestStoreOnBrokenFilesystem(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("needs unshare(1) from util-linux to mount a scratch filesystem")
	}
	if err := exec.Command("unshare", "--map-root-user", "--mount", "true").Run(); err != nil {
		t.Skipf("this kernel refuses a user mount namespace, so no scratch filesystem can be mounted: %v", err)
	}
	work := t.TempDir()
	if err := installFakes(work, filepath.Join(work, "real")); err != nil {
		t.Fatal(err)
	}
	shims := filepath.Join(work, "shims")
	if err := linkShims(shims); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(work, "state")
	for _, d := range []string{state, filepath.Join(work, "run"), filepath.Join(work, "home"), filepath.Join(work, "proj")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(),
		"PATH="+shims+":"+filepath.Join(work, "real")+":/usr/bin:/bin",
		"HOME="+filepath.Join(work, "home"),
		"XDG_STATE_HOME="+state,
		"XDG_RUNTIME_DIR="+filepath.Join(work, "run"),
		"XDG_CONFIG_HOME="+filepath.Join(work, "home", ".config"),
		"XDG_CACHE_HOME="+filepath.Join(work, "home", ".cache"),
		"FLEETCOM_SHIM_DIR="+shims,
	)
	// Each grok reads EOF at once and exits 0; a record is written per run.
	script := `set -u
mount -t tmpfs -o size=64k tmpfs "$XDG_STATE_HOME"
run() { grok </dev/null >/dev/null 2>"$1"; echo "status $?"; }
run err.ok
fleetcom list --all --json | grep -c '"id"' | sed 's/^/before: /'
mount -o remount,ro "$XDG_STATE_HOME"
run err.ro
fleetcom list --all --json | grep -c '"id"' | sed 's/^/read-only: /'
mount -o remount,rw "$XDG_STATE_HOME"
head -c 1048576 /dev/zero > "$XDG_STATE_HOME/fill" 2>/dev/null
run err.full
rm -f "$XDG_STATE_HOME/fill"
fleetcom list --all --json | grep -c '"id"' | sed 's/^/after: /'
`
	cmd := exec.Command("unshare", "--map-root-user", "--mount", "sh", "-c", script)
	cmd.Env, cmd.Dir = env, filepath.Join(work, "proj")
	// The test binary plays fleetcom under that name, like the scripts'.
	fleet := filepath.Join(work, "bin")
	os.MkdirAll(fleet, 0o755)
	exe, _ := os.Executable()
	os.Symlink(exe, filepath.Join(fleet, "fleetcom"))
	cmd.Env = append(cmd.Env, "PATH="+shims+":"+filepath.Join(work, "real")+":"+fleet+":/usr/bin:/bin")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{"status 0\nbefore: 1\n", "status 0\nread-only: 1\n", "status 0\nafter: 1\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, f := range []string{"err.ro", "err.full"} {
		b, _ := os.ReadFile(filepath.Join(work, "proj", f))
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "fleetcom: warning: ") {
			t.Errorf("%s: want exactly one fleetcom warning, got %q", f, b)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(work, "proj", "err.ok")); len(b) != 0 {
		t.Errorf("a healthy run printed %q", b)
	}
}

// Importing into a tool home on a read-only or full filesystem: a clear
// error, nothing written there and nothing recorded; with room again, the
// same bundle imports.
func TestImportIntoBrokenHome(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("needs unshare(1) from util-linux to mount a scratch filesystem")
	}
	if err := exec.Command("unshare", "--map-root-user", "--mount", "true").Run(); err != nil {
		t.Skipf("this kernel refuses a user mount namespace, so no scratch filesystem can be mounted: %v", err)
	}
	work := t.TempDir()
	home, proj, state := filepath.Join(work, "home"), filepath.Join(work, "proj"), filepath.Join(work, "state")
	for _, d := range []string{filepath.Join(home, ".claude"), proj, state} {
		os.MkdirAll(d, 0o700)
	}
	id := safe.NewUUID()
	transcript := `{"type":"user","sessionId":"` + id + `","cwd":"/old/dir","message":{"role":"user","content":"moved here"}}` + "\n" +
		`{"type":"assistant","sessionId":"` + id + `","cwd":"/old/dir","message":{"role":"assistant","content":"ok"}}` + "\n"
	var buf bytes.Buffer
	catalog.WriteBundle(&buf, catalog.Bundle{Format: "fleetcom-conversation", Version: 1, Tool: "claude", ID: id, Cwd: "/old/dir",
		Files: []catalog.BundleFile{{Name: "transcript.jsonl", Data: []byte(transcript)}}})
	bundle := filepath.Join(work, "conv.bundle")
	os.WriteFile(bundle, buf.Bytes(), 0o600)
	fleet := selfAs(t, "fleetcom")
	script := `set -u
mount -t tmpfs -o size=16k tmpfs "$HOME/.claude"
mount -o remount,ro "$HOME/.claude"
fleetcom import -C "$PROJ" "$BUNDLE" 2>err.ro; echo "read-only status $?"
echo "read-only entries $(ls -A "$HOME/.claude" | wc -l)"
mount -o remount,rw "$HOME/.claude"
head -c 1048576 /dev/zero > "$HOME/.claude/fill" 2>/dev/null
fleetcom import -C "$PROJ" "$BUNDLE" 2>err.full; echo "full status $?"
echo "full entries $(ls -A "$HOME/.claude" | wc -l)"
rm -f "$HOME/.claude/fill"
fleetcom import -C "$PROJ" "$BUNDLE" >/dev/null; echo "room status $?"
`
	cmd := exec.Command("unshare", "--map-root-user", "--mount", "sh", "-c", script)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + fleet + ":/usr/bin:/bin", "HOME=" + home, "XDG_STATE_HOME=" + state,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PROJ=" + proj, "BUNDLE=" + bundle}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"read-only status 1\nread-only entries 0\n", "full status 1\nfull entries 1\n", "room status 0\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"err.ro", "err.full"} {
		b, _ := os.ReadFile(filepath.Join(work, f))
		if !strings.HasPrefix(string(b), "fleetcom: error: import claude conversation "+id+": ") {
			t.Errorf("%s: %q, want a clear error", f, b)
		}
	}
}
