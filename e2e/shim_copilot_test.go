package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

// TestShimCopilot drives the real copilot through fleetcom's shim and checks
// what fleetcom records and resumes: the ID Copilot filed the conversation
// under (the pinned one, named by the plugin's hook and the exit summary
// alike), the states `fleetcom status` follows through the hooks, a run
// quit before a prompt that displaces nothing, resume --exec continuing it
// with the first turn's context, and a conversation started outside the
// shim found and adopted on resume. It runs once per selected version.
func TestShimCopilot(t *testing.T) {
	t.Parallel()
	eachVersion(t, "copilot", shimCopilot)
}

func shimCopilot(t *testing.T, r Real) {
	w, fc := shimWorld(t, r)
	home := w.CopilotHome()
	proj := w.Project("my project")
	x := w.Tmux()
	line := func(id string) string { return "copilot --resume='" + id + "'" }

	// The ID, and the states the hooks report on the way: waiting at the
	// prompt, working while a reply is held, needs-you at a permission
	// prompt, waiting once the turn is over.
	var first string
	t.Run("capture-and-states", func(t *testing.T) {
		p := x.Start(t, proj, "copilot")
		WaitCopilot(p)
		s := WaitState(t, w, fc, "copilot", "waiting")
		wantPane(t, w, fc, s, p)
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyCopilot(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		s = WaitState(t, w, fc, "copilot", "waiting")
		first = s.ID

		p.Submit("please "+fakeapi.HoldWord, typeWait)
		WaitHeld(t, w)
		if s = WaitState(t, w, fc, "copilot", "working"); s.ID != first || s.Title != "remember PELICAN-4821" {
			t.Errorf("working: %+v", s)
		}
		w.API.Release()
		ReplyCopilot(p, "ACK "+fakeapi.HoldWord+" CODES PELICAN-4821")
		WaitState(t, w, fc, "copilot", "waiting")

		p.Submit("now "+fakeapi.PermitWord, typeWait)
		p.WaitFor("Do you want to run this command?", replyWait)
		WaitState(t, w, fc, "copilot", "needs-you")
		p.Keys("Enter") // 1. Yes
		ReplyCopilot(p, "ACK "+fakeapi.PermitWord+" CODES PELICAN-4821")
		WaitState(t, w, fc, "copilot", "waiting")
		if _, err := os.Stat(filepath.Join(proj, fakeapi.PermitFile)); err != nil {
			t.Errorf("the permitted command did not run: %v", err)
		}

		status, screen := QuitCopilot(p)
		convs := copilotConversations(CopilotSessions(home))
		if status != 0 || len(convs) != 1 || convs[0] != first {
			t.Fatalf("exit %d, sessions with prompts %v, status named %q; screen:\n%s", status, convs, first, screen)
		}
		if hint := Hint(copilotHintRE, screen); hint != first {
			t.Errorf("exit hint %q, session %q", hint, first)
		}
		wantRecord(t, w, fc, proj, "copilot", first, line(first))
		rec := Newest(t, w.List(t, fc, proj), "copilot")
		if rec.Source != "hint" || rec.Title != "remember PELICAN-4821" {
			t.Errorf("record %+v", rec)
		}
		if got, want := lastDrift(t, w, "copilot"), r.Version+" hint=ok capture=ok"; got != want {
			t.Errorf("drift tally %q, want %q", got, want)
		}
		wantResume(t, w, fc, proj, line(first))
		wantResume(t, w, fc, proj, line(first), "copilot")
		if got := w.Statuses(t, fc); len(got) != 0 {
			t.Errorf("running after exit: %+v", got)
		}
	})
	if first == "" {
		t.FailNow()
	}

	// A run quit before its first prompt leaves a folder without a log,
	// which Copilot cannot resume: it displaces nothing.
	t.Run("quit-before-prompt", func(t *testing.T) {
		p := x.Start(t, proj, "copilot")
		WaitCopilot(p)
		status, screen := QuitCopilot(p)
		if status != 0 || copilotHintRE.MatchString(screen) {
			t.Errorf("exit %d, hint %q", status, Hint(copilotHintRE, screen))
		}
		wantResume(t, w, fc, proj, line(first))
		if got, want := lastDrift(t, w, "copilot"), r.Version+" hint=- capture=-"; got != want {
			t.Errorf("drift tally %q, want %q", got, want)
		}
	})

	// resume --exec continues the same session with the earlier turns.
	t.Run("resume-exec", func(t *testing.T) {
		p := x.Start(t, proj, fleetcomExec(fc)...)
		WaitCopilot(p)
		p.Submit("which codes now", typeWait)
		ReplyCopilot(p, "ACK now CODES PELICAN-4821")
		if status, _ := QuitCopilot(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		s := CopilotSessions(home)[first]
		if got := copilotConversations(CopilotSessions(home)); len(got) != 1 || len(s.Prompts) != 4 {
			t.Errorf("sessions with prompts %v; prompts of %s: %q", got, first, s.Prompts)
		}
		wantResume(t, w, fc, proj, line(first))
	})

	// A conversation made with the real binary, not through the shim, is
	// found on disk, adopted on resume, and continued.
	t.Run("adopt", func(t *testing.T) {
		outside := w.Project("outside")
		_, errOut, code := headless(t, w, r.Path(), outside, nil, "-p", "remember HERON-22")
		id := Hint(copilotHintRE, errOut)
		if code != 0 || id == "" {
			t.Fatalf("copilot -p: exit %d, stderr %q", code, errOut)
		}
		res := w.Fleetcom(t, fc, outside, "resume")
		if res.Code != 0 || res.Stdout != line(id)+"\n" || !strings.Contains(res.Stderr, "resuming the newest copilot conversation found on disk") {
			t.Fatalf("fleetcom resume: exit %d, stdout %q, stderr %q", res.Code, res.Stdout, res.Stderr)
		}
		if rec := Newest(t, w.List(t, fc, outside), "copilot"); rec.ID != id || rec.Source != "adopted" || rec.Title != "remember HERON-22" {
			t.Errorf("adopted record %+v", rec)
		}
		p := x.Start(t, outside, fleetcomExec(fc)...)
		WaitCopilot(p)
		p.Submit("which codes there", typeWait)
		ReplyCopilot(p, "ACK there CODES HERON-22")
		if status, screen := QuitCopilot(p); status != 0 || Hint(copilotHintRE, screen) != id {
			t.Errorf("exit %d, hint %q, want %s", status, Hint(copilotHintRE, screen), id)
		}
	})
	logRequests(t, w)
}
