package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
)

// liveRun writes the live file of a run of conversation tool/id in cwd to
// the store under state (as XDG_STATE_HOME). The run's process is a sleep
// of its own (a live file is named after its process), alive until the
// test ends.
func liveRun(t testing.TB, state, tool, id, cwd string) {
	t.Helper()
	sleep := exec.Command("sleep", "3600")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sleep.Process.Kill()
		sleep.Wait()
	})
	p, ok := fleet.Identify(sleep.Process.Pid)
	if !ok {
		t.Skip("this system cannot tell one process from another, so no run is ever shown as running")
	}
	now := time.Now()
	r := fleet.Run{Tool: tool, ID: id, Cwd: cwd, State: harness.Waiting, Since: now, Started: now, Proc: p, Shim: os.Getpid()}
	if err := fleet.OpenDir(filepath.Join(state, "fleetcom", "live")).Write(&r); err != nil {
		t.Fatal(err)
	}
}
