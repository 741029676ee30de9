package shim

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// TestFindSkipsTheOtherProgram: an install is fleetcom and fleetcom-shim
// side by side. When fleetcom looks up the real CLI (`fleetcom run`,
// `resume --exec`, doctor), a claude that leads to the fleetcom-shim beside
// it is a shim, passed over, wherever it is on PATH; so is a
// FLEETCOM_CLAUDE_BIN that names it. The control names that file
// otherwise, and the link is then a candidate like any other program.
func TestFindSkipsTheOtherProgram(t *testing.T) {
	if os.Getenv("SHIM_SIBLING_CHILD") == "1" {
		a, _ := agents.Named("claude")
		real, err := FindReal(a, config.Config{}, "", os.Getenv("SHIM_DIR"))
		fmt.Printf("real=%s err=%v\n", real, err)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	for _, sibling := range []string{"fleetcom-shim", "fleetcom-old"} {
		root := t.TempDir()
		inst, other, real := filepath.Join(root, "inst"), filepath.Join(root, "other"), filepath.Join(root, "real")
		for _, d := range []string{inst, other, real} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		me := filepath.Join(inst, "fleetcom")
		files := map[string][]byte{me: data, filepath.Join(inst, sibling): []byte("#!/bin/sh\n"), filepath.Join(real, "claude"): []byte("#!/bin/sh\n")}
		for p, b := range files {
			if err := os.WriteFile(p, b, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		link := filepath.Join(other, "claude")
		if err := os.Symlink(filepath.Join(inst, sibling), link); err != nil {
			t.Fatal(err)
		}
		for _, bin := range []string{"", link} {
			cmd := exec.Command(me, "-test.run=^TestFindSkipsTheOtherProgram$")
			cmd.Env = []string{"SHIM_SIBLING_CHILD=1", "HOME=" + root, "PATH=" + other + ":" + real,
				"SHIM_DIR=" + filepath.Join(root, "shims"), "FLEETCOM_CLAUDE_BIN=" + bin}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			want := "real=" + filepath.Join(real, "claude") + " err=<nil>\n"
			switch {
			case sibling != "fleetcom-shim":
				want = "real=" + link + " err=<nil>\n"
			case bin != "":
				want = "real= err=FLEETCOM_CLAUDE_BIN is set to " + link + ", which is fleetcom itself\n"
			}
			if !strings.HasPrefix(string(out), want) {
				t.Errorf("beside %s, FLEETCOM_CLAUDE_BIN=%q: %q, want %q", sibling, bin, out, want)
			}
		}
	}
}
