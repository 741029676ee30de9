// An external test package: the package itself must keep importing nothing,
// and in-package test files would add their imports to it.
package rlimit_test

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/fleetcom/fleetcom/shim/internal/rlimit"
)

const childEnv = "FLEETCOM_RLIMIT_CHILD"

// A process started with a low soft limit sees that limit in Nofile, while
// the Go runtime has raised the limit it runs with.
func TestNofileIsTheStartingLimit(t *testing.T) {
	if os.Getenv(childEnv) == "1" {
		soft, hard, ok := rlimit.Nofile()
		var now syscall.Rlimit
		_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &now)
		fmt.Printf("start=%d/%d/%v now=%d/%d\n", soft, hard, ok, now.Cur, now.Max)
		return
	}
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skip("read only where the session leader needs it")
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Max < 300 {
		t.Skipf("hard limit %d leaves no room below it", lim.Max)
	}
	// Setrlimit tells os/exec to leave the limit alone: the child starts
	// with 200 and raises it itself.
	low := syscall.Rlimit{Cur: 200, Max: lim.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	cmd := exec.Command(os.Args[0], "-test.run=^TestNofileIsTheStartingLimit$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	want := fmt.Sprintf("start=200/%d/true now=%d/%d", lim.Max, lim.Max-1, lim.Max)
	if !strings.Contains(string(out), want) {
		t.Errorf("child printed %q, want %q", out, want)
	}
}
