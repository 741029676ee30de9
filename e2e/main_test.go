package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// scratch holds what the tests share and TestMain removes: the npm prefixes
// and the fleetcom build.
var scratch string

func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if n := os.Getenv("FLEETCOM_E2E_PARALLEL"); n != "" || !given {
		// Every test here has a world of its own (home, fake API, tmux
		// server) and spends its time waiting for a CLI, which computes
		// in bursts (its start-up most): a few at once keep two cores
		// busy. FLEETCOM_E2E_PARALLEL=1 runs them one by one.
		if n == "" {
			n = "3"
		}
		flag.Set("test.parallel", n)
	}
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
		t.Skip("end-to-end suite against the real agent CLIs: run with FLEETCOM_E2E=1 (needs node, npm, tmux)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmux is needed: %v", err)
	}
}

// unavailable ends a test that has nothing to run against: a skip, or a
// failure in CI and under FLEETCOM_E2E_REQUIRE=1.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if required() {
		t.Fatalf("%s (CI=true or FLEETCOM_E2E_REQUIRE=1: this is an error)", msg)
	}
	t.Skipf("%s (set FLEETCOM_E2E_REQUIRE=1 to make this an error)", msg)
}

var (
	sharedOnce sync.Once
	sharedErr  error

	buildOnce sync.Once
	fleetBin  string
	buildErr  error

	matrixMu sync.Mutex
	picked   = map[string][]pick{}        // by CLI name
	installs = map[string]*installState{} // by name@version
)

func scratchDir() (string, error) {
	sharedOnce.Do(func() { scratch, sharedErr = os.MkdirTemp("", "fleetcom-e2e-shared-") })
	return scratch, sharedErr
}

// pick is one version a run drives, or why it cannot.
type pick struct {
	version, label string
	err            error
}

// name is the subtest's name: the version, or the label when there is none.
func (p pick) name() string {
	if p.version == "" {
		return p.label
	}
	return p.version
}

// versionsOf works out, once per CLI, which versions FLEETCOM_E2E_VERSIONS
// selects. The same version is never picked twice.
func versionsOf(t *testing.T, c CLI) []pick {
	t.Helper()
	matrixMu.Lock()
	defer matrixMu.Unlock()
	if p, ok := picked[c.Name]; ok {
		return p
	}
	mode, err := versionMode()
	if err != nil {
		t.Fatal(err)
	}
	var out []pick
	if mode != versionsLatest {
		out = append(out, pick{version: c.Pinned, label: "pinned"})
	}
	if mode != versionsPinned {
		latest := pick{label: "latest"}
		if cache, err := CacheDir(); err != nil {
			latest.err = err
		} else {
			latest.version, latest.err = Latest(c, cache)
		}
		switch {
		case latest.err == nil && mode == versionsBoth && latest.version == c.Pinned:
			out[0].label = "pinned=latest"
			fmt.Fprintf(os.Stderr, "e2e: %s: the registry's latest is the pinned %s: it runs once\n", c.Name, c.Pinned)
		default:
			out = append(out, latest)
		}
	}
	picked[c.Name] = out
	return out
}

// eachVersion runs fn once per selected version of the named CLI, as a
// subtest named by the version, with that version installed.
func eachVersion(t *testing.T, name string, fn func(t *testing.T, r Real)) {
	t.Helper()
	gate(t)
	c := cliNamed(name)
	for _, p := range versionsOf(t, c) {
		t.Run(p.name(), func(t *testing.T) {
			if p.err != nil {
				unavailable(t, "%s: cannot resolve the %s version: %v", c.Name, p.label, p.err)
			}
			if p.label == "pinned=latest" {
				t.Logf("%s %s is both the pinned and the latest version: it runs once", c.Name, p.version)
			}
			fn(t, installed(t, c, p))
		})
	}
}

// installState is one version's install, done once per test process.
type installState struct {
	once sync.Once
	bin  string
	err  error
}

// installed installs one version of a CLI into a prefix of its own, once
// per test process; the npm cache is shared.
func installed(t *testing.T, c CLI, p pick) Real {
	t.Helper()
	key := c.Name + "@" + p.version
	matrixMu.Lock()
	st := installs[key]
	if st == nil {
		st = &installState{}
		installs[key] = st
	}
	matrixMu.Unlock()
	st.once.Do(func() {
		start := time.Now()
		var dir, cache string
		if dir, st.err = scratchDir(); st.err != nil {
			return
		}
		if cache, st.err = CacheDir(); st.err != nil {
			return
		}
		st.bin, st.err = Install(c, p.version, filepath.Join(dir, "npm", key), cache)
		if st.err == nil {
			fmt.Fprintf(os.Stderr, "e2e: installed %s %s (%s) in %v (npm cache %s)\n",
				c.Name, p.version, p.label, time.Since(start).Round(time.Second), cache)
		}
	})
	if st.err != nil {
		unavailable(t, "could not install %s with npm: %v", key, st.err)
	}
	return Real{CLI: c, Version: p.version, Label: p.label, Bin: st.bin}
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
		unavailable(t, "./cmd/fleetcom does not build, so the shim tests cannot run: %v", buildErr)
	}
	return fleetBin
}

// pinnedVersion runs fn once, at the named CLI's pinned version, whatever
// versions the run selected: for checks the rest of the suite already makes
// at the newest.
func pinnedVersion(t *testing.T, name string, fn func(t *testing.T, r Real)) {
	t.Helper()
	gate(t)
	c := cliNamed(name)
	p := pick{version: c.Pinned, label: "pinned"}
	t.Run(p.name(), func(t *testing.T) { fn(t, installed(t, c, p)) })
}
