//go:build linux

package main

import (
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// TestJobStoppedState: a run suspended with ^Z in an interactive bash is
// `stopped` in status --json while it is, and back in the state it was in
// (waiting: its turn was over) once fg continues it. Each agent, through
// the built shim, in tmux (jobs_test.go has the rig).
func TestJobStoppedState(t *testing.T) {
	needShell(t, "tmux")
	bash := needShell(t, "bash")
	fc := buildFleetcom(t)
	for _, name := range agents.Names() {
		t.Run(name, func(t *testing.T) {
			w := newJobWorld(t, fc)
			p := startPane(t, w.dir, w.env, bash, "--norc", "--noprofile", "-i")
			p.waitFor("READY$") // the screen as read has no trailing blanks
			p.typeLine(name)
			p.typeLine("first STOPPED-1")
			p.waitFor("ACK first STOPPED-1")
			w.waitState(t, p, "waiting")
			p.waitIdle()
			p.Keys("C-z")
			p.waitFor("Stopped")
			w.waitState(t, p, "stopped")
			p.typeLine("fg")
			w.waitState(t, p, "waiting")
			p.typeLine("second STOPPED-2")
			p.waitFor("ACK second STOPPED-2")
			p.typeLine("/exit")
			p.waitUntil("bash in the foreground again", func(string) bool { return p.foreground() == "bash" })
			p.typeLine("exit")
			p.WaitExit(ptyWait)
		})
	}
}

// waitState waits until status --json shows the one run in state.
func (w *jobWorld) waitState(t *testing.T, p *pane, state string) {
	t.Helper()
	p.waitUntil("status showing the run "+state, func(string) bool {
		cmd := exec.Command(w.fc, "status", "--json")
		cmd.Dir, cmd.Env = w.dir, w.env
		out, err := cmd.Output()
		var runs []struct{ State string }
		return err == nil && json.Unmarshal(out, &runs) == nil && len(runs) == 1 && runs[0].State == state
	})
}
