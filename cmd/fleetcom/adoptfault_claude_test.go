package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Resuming a conversation found in its agent's store when the store cannot
// take its adoption (a read-only or a full file system): the line is
// printed, and fr runs it, with one warning saying it was not recorded;
// with room again, resume adopts it as usual. A private mount namespace
// with a tiny tmpfs stands in for the broken disk.
func TestResumeFoundOnBrokenStore(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("needs unshare(1) from util-linux to mount a scratch filesystem")
	}
	if err := exec.Command("unshare", "--map-root-user", "--mount", "true").Run(); err != nil {
		t.Skipf("this kernel refuses a user mount namespace, so no scratch filesystem can be mounted: %v", err)
	}
	needShell(t, "bash")
	bin := buildFleetcom(t)
	home := t.TempDir()
	state, project, work := filepath.Join(home, "state"), filepath.Join(home, "project"), filepath.Join(home, "out")
	for _, d := range []string{state, project, work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(home, "ran.log")
	real := fakeRealClaude(t, log)
	id := safe.NewUUID()
	writeTranscript(t, filepath.Join(home, ".claude"), project, id)
	script := `set -u
mount -t tmpfs -o size=64k tmpfs "$XDG_STATE_HOME"
"$BIN" list >/dev/null 2>&1; echo "room list $?"
mount -o remount,ro "$XDG_STATE_HOME"
"$BIN" resume >"$OUT/ro.out" 2>"$OUT/ro.err"; echo "read-only resume $?"
bash -c 'eval "$("$BIN" init bash)"; fr' >/dev/null 2>"$OUT/ro.fr"; echo "read-only fr $?"
mount -o remount,rw "$XDG_STATE_HOME"
head -c 1048576 /dev/zero > "$XDG_STATE_HOME/fill" 2>/dev/null
"$BIN" resume >"$OUT/full.out" 2>"$OUT/full.err"; echo "full resume $?"
rm -f "$XDG_STATE_HOME/fill"
"$BIN" resume >"$OUT/room.out" 2>"$OUT/room.err"; echo "room resume $?"
"$BIN" list --json | grep -c '"source": "adopted"' | sed 's/^/adopted: /'
`
	cmd := exec.Command("unshare", "--map-root-user", "--mount", "sh", "-c", script)
	cmd.Dir = project
	cmd.Env = append(shellEnv(home, state), "PATH="+real+":/usr/bin:/bin", "BIN="+bin, "OUT="+work,
		"FLEETCOM_SHIM_DIR="+filepath.Join(home, "shims"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"room list 0\n", "read-only resume 0\n", "read-only fr 0\n", "full resume 0\n",
		"room resume 0\n", "adopted: 1\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(work, name))
		return string(b)
	}
	line := "claude --resume " + safe.QuoteAlways(id) + "\n"
	for _, f := range []string{"ro", "full"} {
		if got := read(f + ".out"); got != line {
			t.Errorf("%s: resume printed %q, want %q", f, got, line)
		}
	}
	for f, cause := range map[string]string{"ro.err": "read-only file system", "ro.fr": "read-only file system", "full.err": "no space left on device"} {
		got := read(f)
		warn := "fleetcom: warning: claude conversation " + id + " is resumed without a record: "
		if strings.Count(got, "fleetcom: warning: ") != 1 || !strings.Contains(got, warn) || !strings.Contains(got, cause) {
			t.Errorf("%s: want one warning that it is not recorded (%s), got %q", f, cause, got)
		}
		if strings.Contains(got, "error:") {
			t.Errorf("%s: %q", f, got)
		}
	}
	if got, want := read("room.out"), line; got != want {
		t.Errorf("with room again, resume printed %q, want %q", got, want)
	}
	if got := read("room.err"); strings.Contains(got, "warning") {
		t.Errorf("with room again: %q", got)
	}
	if got, _ := os.ReadFile(log); string(got) != project+"|--resume "+id+"\n" {
		t.Errorf("fr ran %q", got)
	}
}
