package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

// TestLiveClaude runs the real claude through the shim in a tmux pane and
// follows it with `fleetcom status`: waiting at its prompt, working while
// the fake API holds a reply open, needs-you at a permission prompt, in the
// pane it runs in, and in agreement with `claude agents --json` where the
// version has it. `fr` in a second pane starts nothing, and notify-send gets
// one notice for the one change to needs-you.
func TestLiveClaude(t *testing.T) {
	t.Parallel()
	eachVersion(t, "claude", liveClaude)
}

func liveClaude(t *testing.T, r Real) {
	w, fc := shimWorld(t, r)
	notices := w.NotifySend()
	w.FleetcomConfig("[notify]\ndesktop = true\nafter = 3600\n")
	// Claude asks before running a shell command only outside auto mode,
	// the default from 2.1.332.
	w.writeJSON(filepath.Join(w.ClaudeHome(), "settings.json"), map[string]any{
		"permissions": map[string]any{"defaultMode": "default"}})
	proj := w.Project("my project")
	x := w.Tmux()
	p := x.Start(t, proj, "claude")
	if r.Has("auto-mode") {
		p.WaitFor("Make auto mode your default permission mode?", startWait)
		p.PressUntil("Down", "choice of manual mode", func(s string) bool {
			return strings.Contains(s, "❯ No, keep manual mode")
		})
		p.Keys("Enter")
	}
	WaitClaude(p)

	s := WaitState(t, w, fc, "claude", "waiting")
	wantPane(t, w, fc, s, p)
	wantAgents(t, w, r, proj, s, "idle")

	p.Submit("please "+fakeapi.HoldWord, typeWait)
	WaitHeld(t, w)
	s = WaitState(t, w, fc, "claude", "working")
	wantAgents(t, w, r, proj, s, "busy")
	w.API.Release()
	p.WaitFor("ACK "+fakeapi.HoldWord, replyWait)
	s = WaitState(t, w, fc, "claude", "waiting")
	// The title is read from Claude's transcript, which it may write a
	// moment after its hooks said the turn was over.
	if !eventually(replyWait, func() bool {
		s = WaitState(t, w, fc, "claude", "waiting")
		return s.Title == "please "+fakeapi.HoldWord
	}) {
		t.Errorf("title %q", s.Title)
	}

	t.Run("no-second-copy", func(t *testing.T) { wantNoSecondCopy(t, w, x, fc, proj, s, p) })

	p.Submit("now "+fakeapi.PermitWord, typeWait)
	p.WaitFor("Do you want to proceed?", replyWait)
	s = WaitState(t, w, fc, "claude", "needs-you")
	wantAgents(t, w, r, proj, s, "waiting")
	if !eventually(replyWait, func() bool { return len(Notices(notices)) > 0 }) {
		t.Fatal("no notice of needs-you")
	}
	p.Keys("Enter") // 1. Yes
	p.WaitFor("ACK "+fakeapi.PermitWord, replyWait)
	WaitState(t, w, fc, "claude", "waiting")
	if _, err := os.Stat(filepath.Join(proj, fakeapi.PermitFile)); err != nil {
		t.Errorf("the permitted command did not run: %v", err)
	}
	if status, screen := ExitClaude(p); status != 0 {
		t.Errorf("exit %d; screen:\n%s", status, screen)
	}
	if got := w.Statuses(t, fc); len(got) != 0 {
		t.Errorf("running after exit: %+v", got)
	}
	got := Notices(notices)
	if len(got) != 1 || !strings.Contains(got[0], "Claude Code needs you") || !strings.Contains(got[0], "permission request") {
		t.Errorf("notices %q, want one for the change to needs-you", got)
	}
	logRequests(t, w)
}

// wantAgents checks that `claude agents --json`, Claude's own view of its
// running sessions, agrees with fleetcom's status of the same process.
func wantAgents(t *testing.T, w *World, r Real, dir string, s Status, want string) {
	t.Helper()
	if !r.Has("agents-json") {
		return
	}
	cmd := exec.Command(r.Path(), "agents", "--json")
	cmd.Env, cmd.Dir = w.Env(), dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("claude agents --json: %v", err)
	}
	var agents []struct {
		PID       int    `json:"pid"`
		SessionID string `json:"sessionId"`
		Status    string `json:"status"`
	}
	if err := json.Unmarshal(out, &agents); err != nil {
		t.Fatalf("claude agents --json: %v\n%s", err, out)
	}
	if len(agents) != 1 || agents[0].PID != s.PID || agents[0].SessionID != s.ID || agents[0].Status != want {
		t.Errorf("claude agents --json says %s, fleetcom says %+v (want claude's status %q)", out, s, want)
	}
}
