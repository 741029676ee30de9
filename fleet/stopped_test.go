package fleet

import (
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// TestTrackerStopped: a run suspended by job control is Stopped, whatever
// its evidence says meanwhile, and goes back to the state it was stopped in
// when it is continued, with what came meanwhile applied.
func TestTrackerStopped(t *testing.T) {
	tr := NewTracker(t0, ByHooks)
	tr.Quiet(t0.Add(2 * time.Second)) // waiting
	c, ok := tr.Stop(t0.Add(10 * time.Second))
	if !ok || c.From != harness.Waiting || c.To != Stopped || tr.State != Stopped || !tr.Since.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("stop: %+v %v; tracker %+v", c, ok, tr)
	}
	if _, ok := tr.Stop(t0.Add(11 * time.Second)); ok {
		t.Error("a stopped run stopped again")
	}
	if _, ok := tr.Quiet(t0.Add(20 * time.Second)); ok || tr.State != Stopped {
		t.Errorf("quiet changed a stopped run: %s", tr.State)
	}
	c, ok = tr.Continue(t0.Add(30 * time.Second))
	if !ok || c.From != Stopped || c.To != harness.Waiting || tr.State != harness.Waiting || !tr.Since.Equal(t0.Add(2*time.Second)) {
		t.Errorf("continue: %+v %v; tracker %+v", c, ok, tr)
	}
	if _, ok := tr.Continue(t0.Add(31 * time.Second)); ok {
		t.Error("a running run continued")
	}

	// A hook event read while stopped (written just before the stop)
	// counts for the state it goes back to.
	tr.Hook(harness.StateEvent{State: harness.Working}, t0.Add(40*time.Second))
	tr.Stop(t0.Add(50 * time.Second))
	if _, ok := tr.Hook(harness.StateEvent{State: harness.NeedsYou, Why: "permission request"}, t0.Add(51*time.Second)); ok || tr.State != Stopped {
		t.Errorf("a hook event changed a stopped run: %s", tr.State)
	}
	c, _ = tr.Continue(t0.Add(60 * time.Second))
	if c.To != harness.NeedsYou || tr.Why != "permission request" || !tr.Since.Equal(t0.Add(51*time.Second)) {
		t.Errorf("continued into %+v; tracker %+v", c, tr)
	}
}

// TestStoppedIsAState: a live file and a host's answer may say stopped;
// the agent's own view of the process does not undo it.
func TestStoppedIsAState(t *testing.T) {
	r := Run{Tool: tool, ID: uid, Cwd: "/p", State: Stopped, Proc: Proc{PID: 3}}
	if err := r.check(); err != nil {
		t.Errorf("a stopped run's file: %v", err)
	}
	s := Status{Tool: tool, ID: uid, Cwd: "/p", State: Stopped, PID: 3}
	if err := s.check(); err != nil {
		t.Errorf("a stopped run from another host: %v", err)
	}
	r.State = "paused"
	if r.check() == nil {
		t.Error("an unknown state passed")
	}
	r.State = Stopped
	if got := Fresh(r); got.State != Stopped {
		t.Errorf("Fresh turned a stopped run %s", got.State)
	}
}
