package fleet

import (
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// A CLI that says its state on its terminal is taken at its word, as
// Codex's approval prompt goes: working, blocked, the user answers (with
// y, no Enter), working, done.
func TestTrackerSignal(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	tr := NewTracker(t0, ByTerminal)
	if _, ok := tr.Signal(harness.Waiting, "", at(1)); ok || tr.State != harness.Starting {
		t.Errorf("ready before its first quiet moment: %s", tr.State)
	}
	tr.Quiet(at(3))
	if c, ok := tr.Signal(harness.Working, "", at(10)); !ok || c.To != harness.Working {
		t.Fatalf("working: %+v", c)
	}
	// Its spinner's silence never ends the approval it waits for.
	c, ok := tr.Signal(harness.NeedsYou, "approval request", at(12))
	if !ok || c.To != harness.NeedsYou || c.Why != "approval request" {
		t.Fatalf("blocked: %+v", c)
	}
	if _, ok := tr.Quiet(at(20)); ok {
		t.Error("silence ended a needs-you")
	}
	if _, ok := tr.Signal(harness.NeedsYou, "approval request", at(21)); ok {
		t.Error("the same signal twice is a change")
	}
	if c, ok := tr.Signal(harness.Working, "", at(30)); !ok || c.To != harness.Working {
		t.Fatalf("answered: %+v", c)
	}
	c, ok = tr.Signal(harness.Waiting, "", at(40))
	if !ok || c.To != harness.Waiting || c.Turn != 30*time.Second {
		t.Errorf("done: %+v", c)
	}
	if _, ok := tr.Signal(harness.Starting, "", at(41)); ok {
		t.Error("a signal moved a run back to starting")
	}
	if _, ok := tr.Signal("bogus", "", at(42)); ok {
		t.Error("an invalid state applied")
	}

	// Stopped, a signal counts for the state it goes back to.
	tr.Stop(at(50))
	if _, ok := tr.Signal(harness.Working, "", at(51)); ok || tr.State != Stopped {
		t.Errorf("a stopped run changed: %s", tr.State)
	}
	if c, ok := tr.Continue(at(60)); !ok || c.To != harness.Working {
		t.Errorf("continued: %+v", c)
	}

	// Hooks, where a run has them, decide alone.
	h := NewTracker(t0, ByHooks)
	h.Quiet(at(3))
	if _, ok := h.Signal(harness.NeedsYou, "approval request", at(5)); ok {
		t.Error("a hooked run followed its terminal")
	}
}
