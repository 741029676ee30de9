package e2e

import (
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

// TestLiveOpencode runs the real opencode through the shim in a tmux pane:
// fleetcom's plugin reports the session's status, so `fleetcom status`
// shows it working while the fake API holds the reply, with the session's
// ID already known (session.created at the prompt: no ID was pinned), and
// waiting once the turn is over; nothing once opencode has exited.
func TestLiveOpencode(t *testing.T) {
	t.Parallel()
	eachVersion(t, "opencode", liveOpencode)
}

func liveOpencode(t *testing.T, r Real) {
	w, fc := shimWorld(t, r)
	proj := w.Project("my project")
	x := w.Tmux()
	p := x.Start(t, proj, "opencode")
	WaitOpencode(p)

	p.Submit("please "+fakeapi.HoldWord, typeWait)
	WaitHeld(t, w)
	s := WaitState(t, w, fc, "opencode", "working")
	wantPane(t, w, fc, s, p)
	if !opencodeIDRE.MatchString(s.ID) {
		t.Errorf("no session ID while it runs: %+v", s)
	}
	// opencode asks for the session's title first, with the prompt in it:
	// the fake holds that request, then the answer's. Each is let go.
	if !eventually(opencodeReplyWait, func() bool {
		if w.API.Held() > 0 {
			w.API.Release()
		}
		s := p.Screen()
		return strings.Contains(s, "ACK "+fakeapi.HoldWord) && opencodeIdle(s)
	}) {
		t.Fatalf("no answer after the held requests were let go; screen:\n%s", p.Screen())
	}
	if got := WaitState(t, w, fc, "opencode", "waiting"); got.ID != s.ID {
		t.Errorf("waiting: %+v, want session %s", got, s.ID)
	}
	status, screen := QuitOpencode(p)
	if status != 0 || Hint(opencodeHintRE, screen) != s.ID {
		t.Errorf("exit %d, hint %q, want %s; screen:\n%s", status, Hint(opencodeHintRE, screen), s.ID, screen)
	}
	if got := w.Statuses(t, fc); len(got) != 0 {
		t.Errorf("running after exit: %+v", got)
	}
}
