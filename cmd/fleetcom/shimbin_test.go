package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// TestShimBinary builds both programs side by side, as an install has
// them: `fleetcom shims install` links the agents' shims to fleetcom-shim
// (and the fleetcom link to fleetcom), doctor accepts them and says so,
// and a conversation run through fleetcom-shim is recorded, found by
// fleetcom. Without fleetcom-shim beside it, the shims link to fleetcom
// itself again, and either kind is fleetcom's to remove.
func TestShimBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds both programs")
	}
	t.Parallel()
	work := t.TempDir()
	bin := filepath.Join(work, "bin")
	fc, fcShim := filepath.Join(bin, "fleetcom"), filepath.Join(bin, "fleetcom-shim")
	for out, pkg := range map[string]string{fc: ".", fcShim: "../fleetcom-shim"} {
		build := exec.Command("go", "build", "-o", out, pkg)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	home := filepath.Join(work, "home")
	shims, real := filepath.Join(work, "shims"), filepath.Join(work, "real")
	project := filepath.Join(home, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(work, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := installFakes(work, real); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "PATH=" + shims + ":" + real + ":/usr/bin:/bin",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(work, "run"), "FLEETCOM_SHIM_DIR=" + shims,
		"FAKE_ARGV_LOG=" + filepath.Join(work, "argv.log"), "FLEETCOM_NO_SWEEP=1"}
	run := func(stdin string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = project, env, strings.NewReader(stdin)
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("%s %q: %v\n%s%s", name, args, err, out, stderr)
		}
		return string(out)
	}
	links := func(want string) {
		t.Helper()
		for _, name := range append(agents.Names(), "fleetcom") {
			w := want
			if name == "fleetcom" {
				w = fc
			}
			if got, err := os.Readlink(filepath.Join(shims, name)); err != nil || got != w {
				t.Errorf("%s leads to %q (%v), want %s", name, got, err, w)
			}
		}
	}
	shimsCheck := func() doctorCheck {
		t.Helper()
		cmd := exec.Command(fc, "doctor", "--json")
		cmd.Dir, cmd.Env = project, env
		out, _ := cmd.Output() // unhealthy: no real CLI of some agents
		var rep doctorReport
		if err := json.Unmarshal(out, &rep); err != nil {
			t.Fatalf("doctor --json: %v\n%s", err, out)
		}
		for _, c := range rep.Checks {
			if c.Name == "shims" {
				return c
			}
		}
		t.Fatalf("doctor --json has no shims check:\n%s", out)
		return doctorCheck{}
	}

	run("", fc, "shims", "install")
	links(fcShim)
	if c := shimsCheck(); c.Status != statusOK || !strings.Contains(c.Detail, "lead to this fleetcom's shim binary, "+fcShim) {
		t.Errorf("doctor on shims to fleetcom-shim: %+v", c)
	}
	if out := run("hello grok\n", filepath.Join(shims, "grok")); !strings.Contains(out, "ACK hello grok") {
		t.Errorf("grok through fleetcom-shim printed %q", out)
	}
	var recs []struct{ Tool, ID string }
	if err := json.Unmarshal([]byte(run("", fc, "list", "--json")), &recs); err != nil || len(recs) != 1 || recs[0].Tool != "grok" || recs[0].ID == "" {
		t.Errorf("after a grok conversation through fleetcom-shim, list --json gave %+v (%v)", recs, err)
	}
	if out := run("", fc, "resume", "grok"); !strings.Contains(out, "--resume '"+recs[0].ID+"'") {
		t.Errorf("fleetcom resume grok printed %q", out)
	}

	// A build without fleetcom-shim: the shims lead to fleetcom again.
	if err := os.Remove(fcShim); err != nil {
		t.Fatal(err)
	}
	run("", fc, "shims", "install")
	links(fc)
	if c := shimsCheck(); c.Status != statusOK || !strings.HasSuffix(c.Detail, "lead to this fleetcom") {
		t.Errorf("doctor on shims to fleetcom: %+v", c)
	}
	// Links to a fleetcom-shim are fleetcom's own to remove.
	if err := os.Symlink(filepath.Join(bin, "elsewhere", "fleetcom-shim"), filepath.Join(shims, "claude.tmp")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(shims, "claude.tmp"), filepath.Join(shims, "claude")); err != nil {
		t.Fatal(err)
	}
	run("", fc, "shims", "remove")
	if _, err := os.Lstat(shims); err == nil {
		t.Errorf("shims remove left %s", shims)
	}
}
