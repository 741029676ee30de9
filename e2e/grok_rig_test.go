package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	grokOnce    sync.Once
	grokBin     string
	grokVersion string
	grokErr     error
)

// realGrok installs the Grok CLI once per test process and returns the
// directory of its command: the pinned version, or the one
// $FLEETCOM_E2E_GROK_VERSION names ("latest" for the newest).
func realGrok(t *testing.T) string {
	t.Helper()
	gate(t)
	grokOnce.Do(func() {
		start := time.Now()
		grokVersion = GrokVersion
		if v := os.Getenv("FLEETCOM_E2E_GROK_VERSION"); v != "" {
			grokVersion = v
		}
		var dir, cache string
		if dir, grokErr = scratchDir(); grokErr != nil {
			return
		}
		if cache, grokErr = CacheDir(); grokErr != nil {
			return
		}
		prefix := filepath.Join(dir, "npm-grok")
		if grokErr = os.MkdirAll(prefix, 0o755); grokErr != nil {
			return
		}
		var installed string
		if grokBin, installed, grokErr = InstallGrok(prefix, cache, grokVersion); grokErr != nil {
			return
		}
		grokVersion = installed
		fmt.Fprintf(os.Stderr, "e2e: installed grok %s in %v (npm cache %s)\n",
			grokVersion, time.Since(start).Round(time.Second), cache)
	})
	if grokErr != nil {
		if os.Getenv("FLEETCOM_E2E_REQUIRE") == "1" {
			t.Fatalf("install the Grok CLI: %v", grokErr)
		}
		t.Skipf("could not install %s@%s with npm (set FLEETCOM_E2E_REQUIRE=1 to make this an error): %v",
			GrokPackage, grokVersion, grokErr)
	}
	return grokBin
}

// grokWorld is a scratch user with the real Grok CLI on PATH, set up for the
// fake API.
func grokWorld(t *testing.T) *World {
	t.Helper()
	w := NewWorld(t, realGrok(t))
	w.SetupGrok()
	return w
}

// GrokHeadless runs "grok args..." without a terminal in dir, as a script
// would, with extra KEY=VALUE entries added to the test environment, and
// returns its output and exit status.
func GrokHeadless(t testing.TB, w *World, dir string, extra []string, args ...string) (string, int) {
	t.Helper()
	bin := lookPath(w, "grok")
	if bin == "" {
		t.Fatalf("no grok on the test's PATH %s", w.Getenv("PATH"))
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = w.Env(extra...)
	out, err := cmd.CombinedOutput()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run grok %s: %v", strings.Join(args, " "), err)
	}
	t.Logf("grok %s (in %s, %v): exit %d\n%s", strings.Join(args, " "), dir, extra, code, out)
	return string(out), code
}
