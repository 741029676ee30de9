package e2e

import (
	"testing"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

// TestLiveGemini runs the real gemini through the shim in a tmux pane.
// Gemini takes no hooks for one run (its hooks live in settings files
// fleetcom does not edit), so its state follows the terminal: the prompt
// sent starts a turn, its spinner keeps it working while the fake API holds
// the reply, and the silence after the reply ends it. The pinned ID names
// the run from its start.
func TestLiveGemini(t *testing.T) {
	t.Parallel()
	eachVersion(t, "gemini", liveGemini)
}

func liveGemini(t *testing.T, r Real) {
	w, fc := shimWorld(t, r)
	proj := w.Project("my project")
	x := w.Tmux()
	p := x.Start(t, proj, "gemini")
	WaitGemini(p)

	p.Submit("please "+fakeapi.HoldWord, typeWait)
	WaitHeld(t, w)
	s := WaitState(t, w, fc, "gemini", "working")
	wantPane(t, w, fc, s, p)
	if !uuidRE.MatchString(s.ID) || s.CWD != proj {
		t.Errorf("status while it runs: %+v", s)
	}
	w.API.Release()
	ReplyGemini(p, "ACK "+fakeapi.HoldWord)
	WaitState(t, w, fc, "gemini", "waiting")
	if status, screen := QuitGemini(p); status != 0 {
		t.Errorf("exit %d; screen:\n%s", status, screen)
	}
	if got := w.Statuses(t, fc); len(got) != 0 {
		t.Errorf("running after exit: %+v", got)
	}
}
