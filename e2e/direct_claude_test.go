package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestDirectClaude drives the real claude with no fleetcom in the way and
// pins the facts the shim relies on: the transcript store, the exit hint,
// --session-id, the SessionStart hook (startup, clear, resume), quitting
// before a prompt, and --resume continuing the same file. It runs once per
// selected version; what differs between versions is asserted through
// Behaviours.
func TestDirectClaude(t *testing.T) {
	t.Parallel()
	eachVersion(t, "claude", directClaude)
}

func directClaude(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	proj := w.Project("my project")
	other := w.Project("other project")
	settings, hooks := w.ClaudeHookSettings()
	x := w.Tmux()
	nHooks := 0
	// hintLine is the exit hint this version prints for a run started
	// with --settings <file> (and maybe --session-id or --resume, which
	// are never repeated): the option is echoed from 2.1.332 on, as the
	// path is short enough for the 200-column pane.
	hintLine := func(id string) string {
		if r.Has("hint-echoes-flags") {
			return "claude --settings " + settings + " --resume " + id
		}
		return "claude --resume " + id
	}

	// A fresh conversation: the hook fires before any prompt, the
	// transcript appears with the first prompt, the hint names it.
	var first string
	t.Run("new", func(t *testing.T) {
		p := x.Start(t, proj, "claude", "--settings", settings)
		WaitClaude(p)
		nHooks++
		h := WaitHooks(t, hooks, nHooks)[nHooks-1]
		if h.Source != "startup" || h.Event != "SessionStart" || h.CWD != proj {
			t.Errorf("startup hook payload: %+v", h)
		}
		first = h.SessionID
		want := filepath.Join(w.ClaudeHome(), "projects", ClaudeSlug(proj), first+".jsonl")
		if h.TranscriptPath != want {
			t.Errorf("transcript_path = %q, want %q", h.TranscriptPath, want)
		}
		if trs := ClaudeTranscripts(w.ClaudeHome(), proj); len(trs) != 0 {
			t.Errorf("transcript written before the first prompt: %v", keys(trs))
		}
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyClaude(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		status, screen := ExitClaude(p)
		if status != 0 {
			t.Errorf("exit status %d", status)
		}
		if line, _ := ClaudeHint(screen); line != hintLine(first) {
			t.Errorf("exit hint %q, want %q (hook said %s); screen:\n%s", line, hintLine(first), first, screen)
		}
		tr := ClaudeTranscripts(w.ClaudeHome(), proj)[first]
		if tr.Messages < 2 || !strings.Contains(tr.Text, "PELICAN-4821") {
			t.Errorf("transcript %s: %d messages, want the prompt and the reply", tr.Path, tr.Messages)
		}
	})
	if first == "" {
		t.FailNow()
	}

	// Quitting before a prompt: no hint, and nothing resumable on disk.
	// Whether a metadata-only file is left varies from run to run, pinned
	// or not (measured), so either is accepted.
	t.Run("quit-before-prompt", func(t *testing.T) {
		for _, argv := range [][]string{{"claude"}, {"claude", "--session-id", "0e2e0000-1111-4222-8333-444455556666"}} {
			before := ClaudeTranscripts(w.ClaudeHome(), proj)
			p := x.Start(t, proj, argv...)
			WaitClaude(p)
			status, screen := ExitClaude(p)
			if status != 0 || strings.Contains(screen, "Resume this session with:") {
				t.Errorf("%v: exit status %d, screen:\n%s", argv, status, screen)
			}
			for id, tr := range ClaudeTranscripts(w.ClaudeHome(), proj) {
				if _, old := before[id]; !old {
					t.Logf("%v left %s: %d lines, %d messages", argv, filepath.Base(tr.Path), tr.Lines, tr.Messages)
					if tr.Messages != 0 {
						t.Errorf("%v: transcript %s holds messages", argv, tr.Path)
					}
				}
			}
		}
	})

	// A pinned ID is used as given; /clear moves to a new conversation,
	// announced to the hook, and the hint follows it.
	t.Run("pinned-then-clear", func(t *testing.T) {
		const id = "0e2e0000-aaaa-4bbb-8ccc-ddddeeeeffff"
		p := x.Start(t, proj, "claude", "--session-id", id, "--settings", settings)
		WaitClaude(p)
		nHooks++
		if h := WaitHooks(t, hooks, nHooks)[nHooks-1]; h.SessionID != id || h.Source != "startup" {
			t.Errorf("pinned startup hook: %+v", h)
		}
		p.Submit("first SPARROW-77", typeWait)
		ReplyClaude(p, "ACK SPARROW-77 CODES SPARROW-77")
		ClearClaude(p, "SPARROW-77")
		nHooks++
		h := WaitHooks(t, hooks, nHooks)[nHooks-1]
		if h.Source != "clear" || h.SessionID == id || !uuidRE.MatchString(h.SessionID) {
			t.Errorf("clear hook: %+v", h)
		}
		p.Submit("second KESTREL-55", typeWait)
		// The cleared conversation starts empty: no SPARROW in the reply.
		ReplyClaude(p, "ACK KESTREL-55 CODES KESTREL-55\n")
		_, screen := ExitClaude(p)
		if line, _ := ClaudeHint(screen); line != hintLine(h.SessionID) {
			t.Errorf("exit hint after /clear %q, want %q; screen:\n%s", line, hintLine(h.SessionID), screen)
		}
		trs := ClaudeTranscripts(w.ClaudeHome(), proj)
		if trs[id].Messages < 2 || trs[h.SessionID].Messages < 2 {
			t.Errorf("transcripts: pinned %d messages, cleared %d", trs[id].Messages, trs[h.SessionID].Messages)
		}
		// A pinned ID that already has a conversation is refused.
		p = x.Start(t, proj, "claude", "--session-id", id)
		status, screen := p.WaitExit(exitWait)
		if status != 1 || !strings.Contains(screen, "Error: Session ID "+id+" is already in use.") {
			t.Errorf("reused --session-id: exit %d, screen:\n%s", status, screen)
		}
	})

	// --resume continues the same file, with the earlier turns sent to
	// the model.
	t.Run("resume", func(t *testing.T) {
		before := ClaudeTranscripts(w.ClaudeHome(), proj)
		p := x.Start(t, proj, "claude", "--settings", settings, "--resume", first)
		WaitClaude(p)
		nHooks++
		if h := WaitHooks(t, hooks, nHooks)[nHooks-1]; h.SessionID != first || h.Source != "resume" {
			t.Errorf("resume hook: %+v", h)
		}
		p.Submit("which codes now", typeWait)
		ReplyClaude(p, "ACK now CODES PELICAN-4821")
		_, screen := ExitClaude(p)
		if line, _ := ClaudeHint(screen); line != hintLine(first) {
			t.Errorf("exit hint after resume %q, want %q", line, hintLine(first))
		}
		after := ClaudeTranscripts(w.ClaudeHome(), proj)
		if len(after) != len(before) || after[first].Lines <= before[first].Lines {
			t.Errorf("resume: files %d -> %d, lines %d -> %d", len(before), len(after), before[first].Lines, after[first].Lines)
		}
	})

	// --resume from another directory: refused up to 2.1.197; from 2.1.332
	// on it continues, appending to the file under the original
	// directory's slug, its new lines naming the other directory as cwd.
	t.Run("resume-other-dir", func(t *testing.T) {
		before := ClaudeTranscripts(w.ClaudeHome(), proj)
		p := x.Start(t, other, "claude", "--resume", first)
		if !r.Has("resume-any-dir") {
			status, screen := p.WaitExit(exitWait)
			if status != 1 || !strings.Contains(screen, "No conversation found with session ID: "+first) {
				t.Errorf("%s: want the resume refused (exit 1, No conversation found); exit %d, screen:\n%s", r, status, screen)
			}
			return
		}
		WaitClaude(p)
		p.Submit("which codes elsewhere", typeWait)
		ReplyClaude(p, "ACK elsewhere CODES PELICAN-4821")
		status, screen := ExitClaude(p)
		if line, _ := ClaudeHint(screen); status != 0 || line != "claude --resume "+first {
			t.Errorf("exit %d, hint %q, want claude --resume %s", status, line, first)
		}
		after := ClaudeTranscripts(w.ClaudeHome(), proj)
		if after[first].Lines <= before[first].Lines {
			t.Errorf("the original transcript did not grow: %d -> %d lines", before[first].Lines, after[first].Lines)
		}
		if got := ClaudeTranscripts(w.ClaudeHome(), other); len(got) != 0 {
			t.Errorf("files under the other directory's slug: %v", keys(got))
		}
		if !strings.Contains(after[first].Text[len(before[first].Text):], `"cwd":`+jsonString(other)) {
			t.Errorf("the appended lines do not name %s as cwd", other)
		}
	})
	logRequests(t, w)
}

// logRequests logs what the CLIs asked the fake API, for the record.
func logRequests(t *testing.T, w *World) {
	t.Helper()
	count := map[string]int{}
	var order []string
	for _, r := range w.API.Requests() {
		k := r.Method + " " + r.Path
		if r.Model != "" {
			k += " model=" + r.Model
		}
		if r.Egress {
			k += " (egress refused)"
		}
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	var b strings.Builder
	for _, k := range order {
		fmt.Fprintf(&b, "\n  %s ×%d", k, count[k])
	}
	t.Logf("requests to the fake API:%s", b.String())
}
