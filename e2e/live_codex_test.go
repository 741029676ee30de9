package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

// TestLiveCodex runs the real codex through the shim in a tmux pane with
// fleetcom's hooks: asked for once ([codex] hooks = true), Codex has the
// user review them and records the trust in its own config.toml; from then
// on fleetcom gives them by itself. `fleetcom status` follows the run
// (working while a reply is held, waiting after, needs-you at an approval
// prompt), the thread's ID is known from the first prompt on, `fr` in a
// second pane starts nothing, and notify-send gets one notice for the one
// change to needs-you.
func TestLiveCodex(t *testing.T) {
	t.Parallel()
	eachVersion(t, "codex", liveCodex)
}

func liveCodex(t *testing.T, r Real) {
	w, fc := shimWorld(t, r)
	notices := w.NotifySend()
	w.FleetcomConfig("[notify]\ndesktop = true\nafter = 3600\n\n[codex]\nhooks = true\n")
	proj := w.Project("my project")
	x := w.Tmux()
	p := x.Start(t, proj, "codex")
	p.WaitFor("Hooks need review", startWait)
	p.PressUntil("Down", "choice of trusting the hooks", func(s string) bool {
		return strings.Contains(s, "› 2. Trust all and continue")
	})
	p.Keys("Enter")
	WaitCodex(p)
	if b, _ := os.ReadFile(filepath.Join(w.CodexHome(), "config.toml")); !strings.Contains(string(b),
		`[hooks.state."/<session-flags>/config.toml:user_prompt_submit:0:0"]`) {
		t.Errorf("codex recorded no trust of fleetcom's hooks in config.toml:\n%s", b)
	}
	s := WaitState(t, w, fc, "codex", "waiting")
	wantPane(t, w, fc, s, p)

	p.Submit("please "+fakeapi.HoldWord, typeWait)
	WaitHeld(t, w)
	s = WaitState(t, w, fc, "codex", "working")
	// SessionStart names the thread at its first prompt: it is recorded
	// before the turn ends.
	if s.ID == "" || Newest(t, w.List(t, fc, proj), "codex").ID != s.ID {
		t.Errorf("thread not known while its first turn runs: status %+v", s)
	}
	w.API.Release()
	p.WaitFor("ACK "+fakeapi.HoldWord, replyWait)
	s = WaitState(t, w, fc, "codex", "waiting")
	if rollouts := CodexRollouts(w.CodexHome()); len(rollouts) != 1 || keys(rollouts)[0] != s.ID {
		t.Errorf("status ID %s, rollouts %v", s.ID, keys(rollouts))
	}

	t.Run("no-second-copy", func(t *testing.T) { wantNoSecondCopy(t, w, x, fc, proj, s, p) })

	p.Submit("now "+fakeapi.PermitWord, typeWait)
	p.WaitFor("Would you like to run the following command?", replyWait)
	WaitState(t, w, fc, "codex", "needs-you")
	if !eventually(replyWait, func() bool { return len(Notices(notices)) > 0 }) {
		t.Fatal("no notice of needs-you")
	}
	p.Keys("Enter") // 1. Yes, proceed
	p.WaitFor("ACK "+fakeapi.PermitWord, replyWait)
	WaitState(t, w, fc, "codex", "waiting")
	if _, err := os.Stat(filepath.Join(proj, fakeapi.PermitFile)); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
	if status, screen := QuitCodex(p); status != 0 {
		t.Errorf("exit %d; screen:\n%s", status, screen)
	}
	got := Notices(notices)
	if len(got) != 1 || !strings.Contains(got[0], "Codex needs you") || !strings.Contains(got[0], "approval request") {
		t.Errorf("notices %q, want one for the change to needs-you", got)
	}

	// Trusted once, the hooks are given without being asked for, and Codex
	// asks nothing.
	t.Run("trusted", func(t *testing.T) {
		w.FleetcomConfig("")
		p := x.Start(t, proj, "codex")
		screen := WaitCodex(p)
		if strings.Contains(screen, "Hooks need review") {
			t.Errorf("codex asked to review fleetcom's hooks again:\n%s", screen)
		}
		p.Submit("again "+fakeapi.HoldWord, typeWait)
		WaitHeld(t, w)
		WaitState(t, w, fc, "codex", "working")
		w.API.Release()
		p.WaitFor("ACK "+fakeapi.HoldWord, replyWait)
		WaitState(t, w, fc, "codex", "waiting")
		QuitCodex(p)
	})

	// Opened and quit before any prompt, three times, with fleetcom's
	// hooks: Codex may still leave a session and print its resume line.
	// A conversation with no turn is never the newest, and list leaves it
	// out (issue 29, item 2).
	t.Run("quit-before-prompt", func(t *testing.T) {
		w.FleetcomConfig("[codex]\nhooks = true\n")
		rows := func() int {
			r := w.Fleetcom(t, fc, proj, "list")
			return strings.Count("\n"+r.Stdout, "\ncodex\t")
		}
		before, newest := rows(), Newest(t, w.List(t, fc, proj), "codex")
		for range 3 {
			p := x.Start(t, proj, "codex")
			WaitCodex(p)
			if status, screen := QuitCodex(p); status != 0 {
				t.Fatalf("exit %d; screen:\n%s", status, screen)
			}
		}
		wantResume(t, w, fc, proj, "codex resume '"+newest.ID+"'")
		// Nothing was said, so the capture owed nothing: no drift.
		if got := lastDrift(t, w, "codex"); strings.Contains(got, "silent") || strings.Contains(got, "disagreed") {
			t.Errorf("drift tally after an empty run: %q", got)
			for id, r := range CodexRollouts(w.CodexHome()) {
				t.Logf("rollout %s (%d lines):\n%.3000s", id, r.Lines, r.Text)
			}
		}
		if after := rows(); after != before {
			t.Errorf("list shows %d codex rows after three empty runs, %d before", after, before)
		}
	})
	logRequests(t, w)
}
