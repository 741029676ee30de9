package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/e2e/fakeapi"
)

// The agents whose CLI says its state on its own terminal show needs-you
// with fleetcom's default configuration, no hooks and no trust step: Codex
// by its OSC 7501 state, Gemini CLI and Grok by their window titles. The notice
// command gets the conversation's title in its JSON.

func TestLiveCodexScreen(t *testing.T) {
	t.Parallel()
	eachVersion(t, "codex", func(t *testing.T, r Real) {
		liveScreen(t, r, "codex", "Would you like to run the following command?", "approval request",
			[]string{"Enter"}, WaitCodex, func(p *Pane) { p.WaitFor("ACK "+fakeapi.PermitWord, replyWait) }, QuitCodex)
	})
}

func TestLiveGeminiScreen(t *testing.T) {
	t.Parallel()
	eachVersion(t, "gemini", func(t *testing.T, r Real) {
		liveScreen(t, r, "gemini", "Allow execution of", "action required",
			[]string{"Enter"}, WaitGemini, func(p *Pane) { ReplyGemini(p, "ACK "+fakeapi.PermitWord) }, QuitGemini)
	})
}

// Grok asks only before a command outside what it deems safe (the fake
// asks it to run rm and touch), and its first choice is its always-approve
// mode: the test takes the second, "Yes, proceed".
func TestLiveGrokScreen(t *testing.T) {
	t.Parallel()
	eachVersion(t, "grok", func(t *testing.T, r Real) {
		liveScreen(t, r, "grok", "Yes, proceed", "approval request",
			[]string{"Down", "Enter"}, WaitGrok, func(p *Pane) { ReplyGrok(p, "ACK "+fakeapi.PermitWord) }, QuitGrok)
	})
}

// notice is the part of a notice's JSON the tests read.
type notice struct {
	Tool  string `json:"tool"`
	State string `json:"state"`
	Why   string `json:"why"`
	Title string `json:"title"`
	ID    string `json:"id"`
}

func liveScreen(t *testing.T, r Real, tool, prompt, why string, answer []string, ready func(*Pane) string,
	replied func(*Pane), quit func(*Pane) (int, string)) {
	w, fc := shimWorld(t, r)
	notices := filepath.Join(w.Root, "notices.jsonl")
	cmd := w.Script("record-notice", "cat >> '"+notices+"'\necho >> '"+notices+"'\n")
	w.FleetcomConfig("[notify]\ncommand = [\"" + cmd + "\"]\nafter = 3600\n")
	proj := w.Project("my project")
	x := w.Tmux()
	p := x.Start(t, proj, tool)
	ready(p)
	WaitState(t, w, fc, tool, "waiting")

	// A first turn, so the conversation has its title.
	p.Submit("hello there", typeWait)
	p.WaitFor("ACK there", replyWait)
	WaitState(t, w, fc, tool, "waiting")

	p.Submit("now "+fakeapi.PermitWord, typeWait)
	p.WaitFor(prompt, replyWait)
	shown := time.Now()
	s := WaitState(t, w, fc, tool, "needs-you")
	t.Logf("%s: needs-you in status %v after the prompt was on screen", tool, time.Since(shown).Round(10*time.Millisecond))
	if s.ID == "" {
		t.Errorf("status at the prompt: %+v", s)
	}
	var got []notice
	if !eventually(replyWait, func() bool {
		got = readNotices(t, notices)
		return len(got) > 0
	}) {
		t.Fatal("no notice of needs-you")
	}
	if n := got[0]; n.Tool != tool || n.State != "needs-you" || n.Why != why || n.ID != s.ID || n.Title == "" {
		t.Errorf("notice %+v, want %s needs-you (%s) naming %s and its title", n, tool, why, s.ID)
	}
	p.Keys(answer...) // allow it, once
	replied(p)
	WaitState(t, w, fc, tool, "waiting")
	if _, err := os.Stat(filepath.Join(proj, fakeapi.PermitFile)); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	if status, screen := quit(p); status != 0 {
		t.Errorf("exit %d; screen:\n%s", status, screen)
	}
	if got := readNotices(t, notices); len(got) != 1 {
		t.Errorf("notices %+v, want one for the change to needs-you", got)
	}
}

func readNotices(t *testing.T, path string) []notice {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []notice
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var n notice
		if err := json.Unmarshal([]byte(line), &n); err != nil {
			t.Errorf("notice %q: %v", line, err)
			continue
		}
		out = append(out, n)
	}
	return out
}
