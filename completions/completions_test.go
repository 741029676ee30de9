package completions

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestScript(t *testing.T) {
	for _, shell := range Shells() {
		s, ok := Script(shell, "'/opt/my tools/fleetcom'")
		if !ok || strings.Contains(s, Placeholder) || !strings.Contains(s, "'/opt/my tools/fleetcom' __complete --") {
			t.Errorf("%s: the binary is not named in the call of __complete:\n%s", shell, s)
		}
	}
	if _, ok := Script("tcsh", "x"); ok {
		t.Error("a script for tcsh")
	}
}

// TestSyntax has each shell parse its script without running it; the
// behaviour is tested in the real shells in cmd/fleetcom.
func TestSyntax(t *testing.T) {
	for _, shell := range Shells() {
		t.Run(shell, func(t *testing.T) {
			if _, err := exec.LookPath(shell); err != nil {
				t.Skipf("%s is not installed (CI installs it)", shell)
			}
			s, _ := Script(shell, "/usr/bin/fleetcom")
			path := filepath.Join(t.TempDir(), "fleetcom."+shell)
			if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(shell, "-n", path).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", shell, err, out)
			}
		})
	}
}
