package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// scratch holds what the tests share and TestMain removes: the npm prefix and
// the fleetcom build.
var scratch string

func TestMain(m *testing.M) {
	code := m.Run()
	if scratch != "" && os.Getenv("FLEETCOM_E2E_KEEP") == "" {
		os.RemoveAll(scratch)
	}
	os.Exit(code)
}

// gate skips unless the suite was asked for: it installs the real CLIs and
// drives them for minutes.
func gate(t *testing.T) {
	t.Helper()
	if os.Getenv("FLEETCOM_E2E") != "1" {
		t.Skip("end-to-end suite against the real claude and codex: run with FLEETCOM_E2E=1 (needs node, npm, tmux)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed: %v", err)
	}
}

var (
	sharedOnce sync.Once
	sharedErr  error

	installOnce sync.Once
	realBin     string
	installErr  error

	buildOnce sync.Once
	fleetBin  string
	buildErr  error
)

func scratchDir() (string, error) {
	sharedOnce.Do(func() { scratch, sharedErr = os.MkdirTemp("", "fleetcom-e2e-shared-") })
	return scratch, sharedErr
}

// realCLIs installs the pinned CLIs once per test process and returns the
// directory of their commands.
func realCLIs(t *testing.T) string {
	t.Helper()
	gate(t)
	installOnce.Do(func() {
		start := time.Now()
		var dir, cache string
		if dir, installErr = scratchDir(); installErr != nil {
			return
		}
		if cache, installErr = CacheDir(); installErr != nil {
			return
		}
		prefix := filepath.Join(dir, "npm")
		if installErr = os.MkdirAll(prefix, 0o755); installErr != nil {
			return
		}
		realBin, installErr = Install(prefix, cache)
		fmt.Fprintf(os.Stderr, "e2e: installed claude %s and codex %s in %v (npm cache %s)\n",
			ClaudeVersion, CodexVersion, time.Since(start).Round(time.Second), cache)
	})
	if installErr != nil {
		// Without the registry there is nothing to test against; say so
		// rather than fail, unless the caller insists on the real CLIs.
		if os.Getenv("FLEETCOM_E2E_REQUIRE") == "1" {
			t.Fatalf("install the real CLIs: %v", installErr)
		}
		t.Skipf("could not install the pinned CLIs with npm (set FLEETCOM_E2E_REQUIRE=1 to make this an error): %v", installErr)
	}
	return realBin
}

// fleetcom builds ./cmd/fleetcom once per test process, and skips the test
// while it does not build.
func fleetcom(t *testing.T) string {
	t.Helper()
	gate(t)
	buildOnce.Do(func() {
		var dir string
		if dir, buildErr = scratchDir(); buildErr == nil {
			fleetBin = filepath.Join(dir, "bin", "fleetcom")
			buildErr = BuildFleetcom(fleetBin)
		}
	})
	if buildErr != nil {
		t.Skipf("./cmd/fleetcom does not build yet, so the shim tests cannot run: %v", buildErr)
	}
	return fleetBin
}
