package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

// TestLiveGemini runs the real gemini through the shim in a tmux pane.
// Gemini takes no hooks for one run (its hooks live in settings files
// fleetcom does not edit), so its state follows the terminal: the prompt
// sent starts a turn, its spinner keeps it working while the fake API holds
// the reply, and the silence after the reply ends it. The pinned ID names
// the run from its start, and after /clear the live file follows the new
// conversation once its first turn has ended.
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

	// After /clear Gemini goes on in a new session: once its first turn
	// has ended, status names it, and the first is no longer running.
	p.Submit("/clear", typeWait)
	p.WaitUntil("/clear to take effect", replyWait, func(s string) bool {
		return !strings.Contains(s, "ACK "+fakeapi.HoldWord) && geminiIdle(s)
	})
	p.Submit("after the clear", typeWait)
	ReplyGemini(p, "ACK clear")
	var now Status
	if !eventually(replyWait, func() bool {
		now = WaitState(t, w, fc, "gemini", "waiting")
		return now.ID != s.ID
	}) {
		t.Errorf("status still names %s after /clear and a turn", now.ID)
	}
	if got := GeminiConversations(w.GeminiHome(), proj); !slices.Contains(got, now.ID) || now.ID == s.ID {
		t.Errorf("status names %s after /clear; conversations %v", now.ID, got)
	}
	if status, screen := QuitGemini(p); status != 0 {
		t.Errorf("exit %d; screen:\n%s", status, screen)
	}
	if got := w.Statuses(t, fc); len(got) != 0 {
		t.Errorf("running after exit: %+v", got)
	}
}
