package shim

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// TestLiveEnd: a run its user quit leaves nothing; one that ended
// otherwise keeps its file, saying how and when, for restore, unless it
// never knew its conversation; and the next run of that conversation
// removes it once it is past its start-up.
func TestLiveEnd(t *testing.T) {
	if _, ok := fleet.Identify(os.Getpid()); !ok {
		t.Skip("process identity is not read on this system")
	}
	var tool string
	for _, a := range agents.All() {
		if a.ID.Valid(liveID) {
			tool = a.Name
			break
		}
	}
	d := fleet.OpenDir(filepath.Join(t.TempDir(), "live"))
	// Each run is a process of its own; the test's children stand in for
	// the CLIs, and exit before the file is read as restore reads it.
	run := func(id, end string) fleet.Run {
		t.Helper()
		cli := exec.Command("sleep", "600")
		if err := cli.Start(); err != nil {
			t.Fatal(err)
		}
		l := newLive(d, fleet.Run{Tool: tool, Cwd: "/p", Started: time.Now()}, nil, nil, func(err error) { t.Error(err) })
		l.start(cli.Process.Pid, id)
		cli.Process.Kill()
		cli.Wait()
		before := time.Now()
		l.finish(end)
		runs, _ := d.Read()
		for _, r := range runs {
			if r.PID == cli.Process.Pid {
				if r.End != end || r.EndAt.Before(before) {
					t.Errorf("kept %+v, want end %s after %v", r, end, before)
				}
				return r
			}
		}
		return fleet.Run{}
	}
	if r := run(liveID, fleet.EndQuit); r.PID != 0 {
		t.Errorf("a quit run left its file: %+v", r)
	}
	if r := run("", fleet.EndHangup); r.PID != 0 {
		t.Errorf("a run with no conversation left its file: %+v", r)
	}
	hung := run(liveID, fleet.EndHangup)
	if hung.PID == 0 {
		t.Fatal("a hung-up run left no file")
	}
	lost := d.Lost(time.Time{})
	if len(lost) != 1 || lost[0].PID != hung.PID || lost[0].Why != fleet.EndHangup || !lost[0].At.Equal(hung.EndAt) {
		t.Errorf("lost %+v", lost)
	}
	// The conversation is resumed: the new run's file replaces the old.
	// Its CLI is this process's child, as a run's is its shim's.
	cli := exec.Command("sleep", "600")
	if err := cli.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Process.Kill(); cli.Wait() })
	again := newLive(d, fleet.Run{Tool: tool, Cwd: "/p", Started: time.Now()}, nil, nil, func(err error) { t.Error(err) })
	again.start(cli.Process.Pid, liveID)
	t.Cleanup(func() { again.finish(fleet.EndQuit) })
	// While it starts, the loss stays: a resume that fails as it starts
	// is no resume. Once past its start-up, it is.
	if runs, _ := d.Read(); len(runs) != 2 {
		t.Errorf("while the resume starts: %+v", runs)
	}
	again.mu.Lock()
	if c, ok := again.tracker.Quiet(time.Now()); ok {
		again.changed(c)
	}
	again.mu.Unlock()
	if runs, _ := d.Read(); len(runs) != 1 || runs[0].PID != cli.Process.Pid {
		t.Errorf("after the resume: %+v", runs)
	}
	if lost := d.Lost(time.Time{}); len(lost) != 0 {
		t.Errorf("lost while it runs again: %+v", lost)
	}
}
