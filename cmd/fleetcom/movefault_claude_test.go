package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A move whose record cannot be written (the state disk is full once the
// conversation's files are in place) is undone: the conversation stays where
// its record says, and resume --exec runs it there (issue 21, item 6).
func TestMoveStateDiskFull(t *testing.T) {
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
	home, proj, state := filepath.Join(work, "home"), filepath.Join(work, "proj"), filepath.Join(work, "state")
	for _, d := range []string{home, proj, state, filepath.Join(work, "new")} {
		os.MkdirAll(d, 0o700)
	}
	fleet := selfAs(t, "fleetcom")
	script := `set -u
mount -t tmpfs -o size=64k tmpfs "$XDG_STATE_HOME"
cd "$WORK/proj"
"$REAL/claude" -p 'move me' >/dev/null
id=$(basename "$(ls "$HOME"/.claude/projects/*proj/*.jsonl)" .jsonl)
fleetcom resume "$id" >/dev/null; echo "adopted $?"
i=0; while [ $i -lt 64 ]; do head -c 4096 /dev/zero > "$XDG_STATE_HOME/fill$i" 2>/dev/null || break; i=$((i+1)); done
fleetcom move "$id" "$WORK/new" 2>"$WORK/move.err"; echo "move status $?"
rm -f "$XDG_STATE_HOME"/fill*
echo "folders: $(ls "$HOME/.claude/projects" | sed 's/.*-//' | tr '\n' ' ')"
fleetcom list --all --json | grep '"cwd"' | sed 's/.*\///'
fleetcom resume --exec "$id" </dev/null >"$WORK/exec.out" 2>&1; echo "exec status $?"
`
	cmd := exec.Command("unshare", "--map-root-user", "--mount", "sh", "-c", script)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + fleet + ":" + filepath.Join(work, "real") + ":/usr/bin:/bin", "HOME=" + home, "XDG_STATE_HOME=" + state, "WORK=" + work,
		"REAL=" + filepath.Join(work, "real"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_RUNTIME_DIR=" + filepath.Join(work, "run"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"FAKE_ARGV_LOG=" + filepath.Join(work, "argv.log")}
	os.MkdirAll(filepath.Join(work, "run"), 0o700)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := string(out)
	moveErr, _ := os.ReadFile(filepath.Join(work, "move.err"))
	execOut, _ := os.ReadFile(filepath.Join(work, "exec.out"))
	t.Logf("%s\nmove: %s\nexec: %s", got, moveErr, execOut)
	for _, want := range []string{"adopted 0\n", "move status 1\n", "folders: proj \n", "proj\",\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(string(execOut), "No conversation found") {
		t.Errorf("resume --exec ran claude where the conversation is not: %s", execOut)
	}
	if !strings.HasPrefix(string(moveErr), "fleetcom: error: ") {
		t.Errorf("move said %q, want an error", moveErr)
	}
}
