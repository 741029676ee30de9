package e2e

import (
	"testing"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

// TestLiveGrok runs the real grok through the shim in a tmux pane. Grok
// takes no hooks for one run (e2e/README.md), so its state follows the
// terminal: the prompt sent starts a turn, Grok's spinner keeps it working
// while the fake API holds the reply, and the silence after the reply ends
// it.
func TestLiveGrok(t *testing.T) {
	t.Parallel()
	eachVersion(t, "grok", liveGrok)
}

func liveGrok(t *testing.T, r Real) {
	w, fc := shimGrokWorld(t, r)
	proj := w.Project("my project")
	x := w.Tmux()
	p := x.Start(t, proj, "grok")
	WaitGrok(p)

	p.Submit("please "+fakeapi.HoldWord, typeWait)
	WaitHeld(t, w)
	s := WaitState(t, w, fc, "grok", "working")
	wantPane(t, w, fc, s, p)
	if s.ID == "" {
		t.Errorf("no session ID while it runs: %+v", s)
	}
	w.API.Release()
	p.WaitFor("ACK "+fakeapi.HoldWord, replyWait)
	WaitState(t, w, fc, "grok", "waiting")
	if status, screen := QuitGrok(p); status != 0 {
		t.Errorf("exit %d; screen:\n%s", status, screen)
	}
	if got := w.Statuses(t, fc); len(got) != 0 {
		t.Errorf("running after exit: %+v", got)
	}
}
