package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// liveRun writes the live file of a run of conversation tool/id in cwd to
// the store under state (as XDG_STATE_HOME). The run's process is a sleep
// of its own (a live file is named after its process) under a shell named
// fleetcom, which stands for its shim: a live file counts only for a CLI
// under a fleetcom (fleet.Live). Both live until the test ends.
func liveRun(t testing.TB, state, tool, id, cwd string) {
	t.Helper()
	dir := t.TempDir()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	holder := filepath.Join(dir, "fleetcom")
	if err := testexec.WriteFile(holder, data, 0o755); err != nil {
		t.Fatal(err)
	}
	shim := exec.Command(holder, "-c", "sleep 3600 & echo $!; wait")
	out, err := shim.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := shim.Start(); err != nil {
		t.Fatal(err)
	}
	var pid int
	if _, err := fmt.Fscan(out, &pid); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(pid, syscall.SIGKILL)
		shim.Process.Kill()
		shim.Wait()
	})
	p, ok := fleet.Identify(pid)
	if !ok {
		t.Skip("this system cannot tell one process from another, so no run is ever shown as running")
	}
	now := time.Now()
	r := fleet.Run{Tool: tool, ID: id, Cwd: cwd, State: harness.Waiting, Since: now, Started: now, Proc: p, Shim: shim.Process.Pid}
	if !fleet.Live(r) {
		t.Skip("this system cannot tell a CLI's shim, so no run is ever shown as running")
	}
	if err := fleet.OpenDir(filepath.Join(state, "fleetcom", "live")).Write(&r); err != nil {
		t.Fatal(err)
	}
}
