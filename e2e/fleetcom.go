package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ModuleRoot finds the directory holding fleetcom's go.mod, starting from the
// test's working directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil &&
			bytes.Contains(b, []byte("module github.com/fleetcom/fleetcom\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod of github.com/fleetcom/fleetcom not found above the working directory")
		}
		dir = parent
	}
}

// BuildFleetcom builds ./cmd/fleetcom as a static binary at out, and
// ./cmd/fleetcom-shim beside it, as an install has them: the shims
// `fleetcom shims install` makes then link to fleetcom-shim.
func BuildFleetcom(out string) error {
	root, err := ModuleRoot()
	if err != nil {
		return err
	}
	for pkg, bin := range map[string]string{"./cmd/fleetcom": out, "./cmd/fleetcom-shim": ShimBinary(out)} {
		cmd := exec.Command("go", "build", "-o", bin, pkg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	return nil
}

// ShimBinary is the fleetcom-shim BuildFleetcom puts beside the fleetcom
// at fc.
func ShimBinary(fc string) string {
	return filepath.Join(filepath.Dir(fc), "fleetcom-shim")
}

// Record is one entry of "fleetcom list --json" (docs/reference.md, "JSON output").
type Record struct {
	Tool      string  `json:"tool"`
	ID        string  `json:"id"`
	CWD       string  `json:"cwd"`
	Command   string  `json:"command"`
	Resume    string  `json:"resume"`
	Source    string  `json:"source"`
	Started   string  `json:"started"`
	Ended     *string `json:"ended"`
	Exit      *int    `json:"exit"`
	Resumable bool    `json:"resumable"`
	Home      string  `json:"home"`
	Title     string  `json:"title"`
	Name      string  `json:"name"`
	// Evidence names the channels that named the ID; Discovered marks a
	// conversation found in the CLI's store, not recorded.
	Evidence   []string `json:"evidence"`
	Discovered bool     `json:"discovered"`
}

// Result is what one fleetcom command did.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Fleetcom runs the fleetcom command in the test environment with dir as its
// working directory. It runs it by path, not through a shim, with stdin
// empty: the commands it is used for are not interactive.
func (w *World) Fleetcom(t testing.TB, bin, dir string, args ...string) Result {
	t.Helper()
	return w.FleetcomEnv(t, w.Env(), bin, dir, args...)
}

// FleetcomEnv runs the fleetcom command as Fleetcom does, in environment env.
func (w *World) FleetcomEnv(t testing.TB, env []string, bin, dir string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := Result{Stdout: out.String(), Stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.Code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run fleetcom %s: %v", strings.Join(args, " "), err)
	}
	t.Logf("fleetcom %s (in %s): exit %d\nstdout: %sstderr: %s", strings.Join(args, " "), dir, r.Code, r.Stdout, r.Stderr)
	return r
}

// List runs "fleetcom list --json" in dir and decodes the records.
func (w *World) List(t testing.TB, bin, dir string) []Record {
	t.Helper()
	r := w.Fleetcom(t, bin, dir, "list", "--json")
	if r.Code != 0 {
		t.Fatalf("fleetcom list --json: exit %d: %s", r.Code, r.Stderr)
	}
	var recs []Record
	if err := json.Unmarshal([]byte(r.Stdout), &recs); err != nil {
		t.Fatalf("fleetcom list --json: %v\n%s", err, r.Stdout)
	}
	return recs
}

// Newest returns the first (newest) record of tool in recs.
func Newest(t testing.TB, recs []Record, tool string) Record {
	t.Helper()
	for _, r := range recs {
		if r.Tool == tool {
			return r
		}
	}
	t.Fatalf("no %s record in %+v", tool, recs)
	return Record{}
}
