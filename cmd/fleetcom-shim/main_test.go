package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestImportBoundary: the shim program links neither the index nor any
// SQLite driver, whose initialisation and size every shim start would pay
// for. Nothing of catalog, which opens the index, may come in either, nor
// the tests' terminal kit.
func TestImportBoundary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 50 {
		t.Fatalf("go list -deps listed only %q", deps)
	}
	const module = "github.com/fleetcom/fleetcom/"
	for _, p := range deps {
		switch {
		case strings.HasPrefix(p, "github.com/ncruces/"),
			strings.HasPrefix(p, "github.com/tetratelabs/wazero"),
			strings.Contains(p, "sqlite"),
			p == module+"index" || strings.HasPrefix(p, module+"index/"),
			p == module+"catalog" || strings.HasPrefix(p, module+"catalog/"),
			p == module+"internal/termtest":
			t.Errorf("fleetcom-shim depends on %s", p)
		}
	}
	if !strings.Contains(string(out), module+"shim\n") {
		t.Errorf("fleetcom-shim does not link the shim:\n%s", out)
	}
}

// Under a name that is no agent's it runs nothing, and points at fleetcom.
func TestOtherName(t *testing.T) {
	var b strings.Builder
	stderr = &b
	defer func() { stderr = os.Stderr }()
	for _, args := range [][]string{{"/usr/local/bin/fleetcom-shim", "version"}, {"fleetcom"}, {}} {
		b.Reset()
		if code := run(args); code != exitUsage {
			t.Errorf("run(%q) = %d, want %d", args, code, exitUsage)
		}
		got := b.String()
		if !strings.HasPrefix(got, "fleetcom: error: fleetcom-shim runs only as an agent's shim (claude, ") ||
			!strings.Contains(got, "\nfleetcom: hint: run fleetcom for fleetcom's commands") {
			t.Errorf("run(%q) said %q", args, got)
		}
	}
}
