package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shimWorld is a scratch user with fleetcom's shims first on PATH and the
// real CLI of r behind them. It returns the world and the fleetcom binary.
func shimWorld(t *testing.T, r Real) (*World, string) {
	t.Helper()
	return shimWorldOf(t, r)
}

// shimWorldOf is shimWorld with the real CLIs of several agents behind
// the shims, one version of each.
func shimWorldOf(t *testing.T, reals ...Real) (*World, string) {
	t.Helper()
	fc := fleetcom(t)
	var bins []string
	for _, r := range reals {
		bins = append(bins, r.Bin)
	}
	w := NewWorld(t, bins...)
	shims := filepath.Join(w.Root, "shims")
	w.Setenv("FLEETCOM_SHIM_DIR", shims)
	if r := w.Fleetcom(t, fc, w.Root, "shims", "install", "--dir", shims); r.Code != 0 {
		t.Fatalf("fleetcom shims install: exit %d: %s", r.Code, r.Stderr)
	}
	// The shims run fleetcom-shim, built beside fleetcom, as installed.
	want, err := os.Stat(ShimBinary(fc))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range AgentNames() {
		got, err := os.Stat(filepath.Join(shims, name))
		if err != nil || !os.SameFile(got, want) {
			t.Fatalf("shim %s is not fleetcom-shim: %v", name, err)
		}
	}
	w.PrependPath(shims)
	for _, r := range reals {
		if p := lookPath(w, r.CLI.Name); filepath.Dir(p) != shims {
			t.Fatalf("%s resolves to %q, want the shim in %s", r.CLI.Name, p, shims)
		}
	}
	return w, fc
}

// lookPath finds a command on the world's PATH.
func lookPath(w *World, name string) string {
	for _, dir := range filepath.SplitList(w.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// headless runs the program bin (a path, or a name looked up on the
// World's PATH) with args and no terminal in dir, as a script would, with
// extra KEY=VALUE entries added to the World's environment, and returns its
// output, its error output and its exit status.
func headless(t testing.TB, w *World, bin, dir string, extra []string, args ...string) (string, string, int) {
	t.Helper()
	name := bin
	if !strings.Contains(bin, "/") {
		if bin = lookPath(w, name); bin == "" {
			t.Fatalf("no %s on the test's PATH %s", name, w.Getenv("PATH"))
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = w.Env(extra...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run %s %s: %v", name, strings.Join(args, " "), err)
	}
	t.Logf("%s %s (in %s, %v): exit %d\n%s%s", filepath.Base(name), strings.Join(args, " "), dir, extra, code, out.String(), errOut.String())
	return out.String(), errOut.String(), code
}

// wantResume checks that "fleetcom resume [args]" in dir prints exactly the
// canonical line for id.
func wantResume(t *testing.T, w *World, fc, dir, line string, args ...string) {
	t.Helper()
	r := w.Fleetcom(t, fc, dir, append([]string{"resume"}, args...)...)
	if r.Code != 0 || r.Stdout != line+"\n" {
		t.Errorf("fleetcom resume %v: exit %d, stdout %q, want %q", args, r.Code, r.Stdout, line+"\n")
	}
}

// wantRecord checks the newest record of tool in dir against the ID the
// tool itself filed.
func wantRecord(t *testing.T, w *World, fc, dir, tool, id, line string) {
	t.Helper()
	rec := Newest(t, w.List(t, fc, dir), tool)
	if rec.ID != id || rec.CWD != dir || !rec.Resumable || rec.Resume != line {
		t.Errorf("newest %s record: %+v\nwant id %s, cwd %s, resumable, resume %q", tool, rec, id, dir, line)
	}
}

// fleetcomExec is the argv that runs "fleetcom resume --exec" in a pane.
func fleetcomExec(fc string) []string { return []string{fc, "resume", "--exec"} }

// lastDrift returns the drift tally's last line for tool without its time:
// "<version> hint=<outcome> capture=<outcome>" (store/drift.go).
func lastDrift(t *testing.T, w *World, tool string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.Getenv("XDG_STATE_HOME"), "fleetcom", "drift", tool))
	if err != nil {
		t.Fatalf("drift tally of %s: %v", tool, err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	_, rest, _ := strings.Cut(lines[len(lines)-1], " ")
	return rest
}
