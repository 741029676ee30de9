package e2e

import (
	"strings"
	"testing"
)

// TestShimClaude drives the real claude through fleetcom's shim and checks
// what fleetcom records and resumes (docs/reference.md: records and resume lines), once per selected
// version.
func TestShimClaude(t *testing.T) {
	t.Parallel()
	eachVersion(t, "claude", shimClaude)
}

func shimClaude(t *testing.T, r Real) {
	w, fc := shimWorld(t, r)
	proj := w.Project("my project")
	x := w.Tmux()
	line := func(id string) string { return "claude --resume '" + id + "'" }

	// The ID fleetcom records is the one Claude filed the transcript under,
	// read from the exit hint Claude printed. fleetcom's hook goes inline,
	// which Claude never repeats, so the hint is the plain resume line.
	var first, printed string
	t.Run("capture", func(t *testing.T) {
		p := x.Start(t, proj, "claude")
		WaitClaude(p)
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyClaude(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		status, screen := ExitClaude(p)
		trs := conversations(ClaudeTranscripts(w.ClaudeHome(), proj))
		if status != 0 || len(trs) != 1 {
			t.Fatalf("exit status %d, transcripts with messages %v; screen:\n%s", status, trs, screen)
		}
		first = trs[0]
		hint, _ := ClaudeHint(screen)
		if hint != "claude --resume "+first {
			t.Errorf("exit hint %q, want %q", hint, "claude --resume "+first)
		}
		printed = hint
		wantRecord(t, w, fc, proj, "claude", first, line(first))
		if got, want := lastDrift(t, w, "claude"), r.Version+" hint=ok capture=ok"; got != want {
			t.Errorf("drift tally: %q, want %q (the version read from the install's files)", got, want)
		}
		wantHintSource(t, r, Newest(t, w.List(t, fc, proj), "claude"), hint)
		wantResume(t, w, fc, proj, line(first))
		wantResume(t, w, fc, proj, line(first), "claude")
	})
	if first == "" {
		t.FailNow()
	}

	// The resume line Claude itself printed at exit still works once the
	// run is over: people copy it. From 2.1.332 on, Claude repeats launch
	// options in it, so nothing fleetcom adds for one run may show there.
	t.Run("printed-line", func(t *testing.T) {
		if printed == "" {
			t.Skip("no printed line to run")
		}
		before := ClaudeTranscripts(w.ClaudeHome(), proj)
		p := x.Start(t, proj, "sh", "-c", printed)
		if dead, status := waitClaudeOrExit(p); dead {
			t.Fatalf("%s: the printed line %q does not resume: exit %d; screen:\n%s",
				r, printed, status, p.Screen())
		}
		p.Submit("which codes printed", typeWait)
		ReplyClaude(p, "ACK printed CODES PELICAN-4821")
		if status, _ := ExitClaude(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		if after := ClaudeTranscripts(w.ClaudeHome(), proj); after[first].Lines <= before[first].Lines {
			t.Errorf("lines of %s %d -> %d", first, before[first].Lines, after[first].Lines)
		}
	})

	// A run quit before its first prompt does not displace it.
	t.Run("quit-before-prompt", func(t *testing.T) {
		p := x.Start(t, proj, "claude")
		WaitClaude(p)
		if status, screen := ExitClaude(p); status != 0 || strings.Contains(screen, "Resume this session with:") {
			t.Errorf("exit status %d, screen:\n%s", status, screen)
		}
		wantResume(t, w, fc, proj, line(first))
	})

	// resume --exec continues the same transcript, with the earlier turn
	// sent to the model.
	t.Run("resume-exec", func(t *testing.T) {
		before := ClaudeTranscripts(w.ClaudeHome(), proj)
		p := x.Start(t, proj, fleetcomExec(fc)...)
		WaitClaude(p)
		p.Submit("which codes now", typeWait)
		ReplyClaude(p, "ACK now CODES PELICAN-4821")
		if status, _ := ExitClaude(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		after := ClaudeTranscripts(w.ClaudeHome(), proj)
		if got := conversations(after); len(got) != 1 || after[first].Lines <= before[first].Lines {
			t.Errorf("transcripts with messages %v; lines of %s %d -> %d", got, first, before[first].Lines, after[first].Lines)
			for _, id := range got {
				if id != first {
					_, seen := before[id]
					t.Logf("%s (there before this run: %v):\n%s", id, seen, head(after[id].Text, 6, 400))
				}
			}
		}
		wantResume(t, w, fc, proj, line(first))
	})

	// /clear inside the TUI starts another conversation: fleetcom follows
	// it, and it becomes the one to resume.
	t.Run("clear", func(t *testing.T) {
		p := x.Start(t, proj, "claude")
		WaitClaude(p)
		p.Submit("first SPARROW-77", typeWait)
		ReplyClaude(p, "ACK SPARROW-77 CODES SPARROW-77")
		ClearClaude(p, "SPARROW-77")
		p.Submit("second KESTREL-55", typeWait)
		ReplyClaude(p, "ACK KESTREL-55 CODES KESTREL-55\n")
		_, screen := ExitClaude(p)
		hint, _ := ClaudeHint(screen)
		var cleared string
		for id, tr := range ClaudeTranscripts(w.ClaudeHome(), proj) {
			if strings.Contains(tr.Text, "KESTREL-55") {
				cleared = id
			}
		}
		if cleared == "" || hint != "claude --resume "+cleared {
			t.Fatalf("cleared conversation %q, exit hint %q, want the plain resume line of it", cleared, hint)
		}
		wantRecord(t, w, fc, proj, "claude", cleared, line(cleared))
		wantHintSource(t, r, Newest(t, w.List(t, fc, proj), "claude"), hint)
		wantResume(t, w, fc, proj, line(cleared))
	})

	// A conversation started with the real binary itself, not through the
	// shim, is found in Claude's store, adopted and continued in place.
	t.Run("adopt", func(t *testing.T) {
		other := w.Project("outside project")
		p := x.Start(t, other, r.Path())
		WaitClaude(p)
		p.Submit("remember HERON-31", typeWait)
		ReplyClaude(p, "ACK HERON-31 CODES HERON-31")
		_, screen := ExitClaude(p)
		id := Hint(claudeHintRE, screen)
		before := ClaudeTranscripts(w.ClaudeHome(), other)
		if id == "" || before[id].Messages == 0 {
			t.Fatalf("no conversation %q on disk; screen:\n%s", id, screen)
		}
		// Claude may still be closing its files as its process ends.
		var recs []Record
		if !eventually(replyWait, func() bool {
			recs = w.List(t, fc, other)
			return len(recs) == 1 && recs[0].ID == id && recs[0].Source == "fs"
		}) {
			t.Fatalf("fleetcom list shows %+v, want the found conversation %s", recs, id)
		}
		r := w.Fleetcom(t, fc, other, "resume")
		if r.Code != 0 || r.Stdout != line(id)+"\n" || !strings.Contains(r.Stderr, "fleetcom: hint: ") {
			t.Fatalf("fleetcom resume: exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
		}
		if rec := Newest(t, w.List(t, fc, other), "claude"); rec.Source != "adopted" || rec.ID != id {
			t.Errorf("after resume: %+v, want an adopted record of %s", rec, id)
		}
		p = x.Start(t, other, fleetcomExec(fc)...)
		WaitClaude(p)
		p.Submit("which codes now", typeWait)
		ReplyClaude(p, "ACK now CODES HERON-31")
		if status, _ := ExitClaude(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		after := ClaudeTranscripts(w.ClaudeHome(), other)
		if got := conversations(after); len(got) != 1 || after[id].Lines <= before[id].Lines {
			t.Errorf("transcripts with messages %v; lines of %s %d -> %d", got, id, before[id].Lines, after[id].Lines)
		}
		wantResume(t, w, fc, other, line(id))
	})

	// Declining Claude's folder-trust prompt ends the run before any hook
	// and leaves the transcript as it was: a run without a turn owed the
	// capture nothing, so it is no drift (issue 22).
	t.Run("trust-declined", func(t *testing.T) {
		setClaudeTrust(w, proj, false)
		defer setClaudeTrust(w, proj, true)
		before := ClaudeTranscripts(w.ClaudeHome(), proj)[first]
		p := x.Start(t, proj, "claude", "--resume", first)
		p.WaitFor("Yes, I trust this folder", startWait)
		// Each version's one way to decline with a known status: Esc's
		// status on newer versions varies from run to run. Their Enter is
		// ignored for a moment after the prompt is drawn, so it may take
		// a second press.
		key := "Escape"
		if r.Has("trust-default-no") {
			key = "Enter"
		}
		p.PressUntil(key, "exit", func(string) bool { dead, _ := p.Dead(); return dead })
		status, screen := p.WaitExit(exitWait)
		if status != 1 {
			t.Errorf("%s: trust declined with %s: exit %d, want 1; screen:\n%s", r, key, status, screen)
		}
		if says := strings.Contains(screen, "didn't start because this folder isn't trusted"); says != r.Has("trust-default-no") {
			t.Errorf("%s: trust declined: the reason on screen %v, want %v; screen:\n%s", r, says, !says, screen)
		}
		if after := ClaudeTranscripts(w.ClaudeHome(), proj)[first]; after.Text != before.Text {
			t.Errorf("the transcript changed although the trust prompt was declined")
		}
		if got, want := lastDrift(t, w, "claude"), r.Version+" hint=- capture=-"; got != want {
			t.Errorf("drift tally: %q, want %q", got, want)
		}
	})
	logRequests(t, w)
}

// wantHintSource checks that a run which ended with Claude's exit hint on
// screen was recorded from that hint: it names the conversation the person
// saw last, and is what fleetcom trusts first (shim/record.go).
func wantHintSource(t *testing.T, r Real, rec Record, hint string) {
	t.Helper()
	if rec.Source != "hint" {
		t.Errorf("%s: record of %s has source %q, want \"hint\" from the printed %q", r, rec.ID, rec.Source, hint)
	}
}

// waitClaudeOrExit waits until Claude takes input or the program ends, and
// reports which, with the exit status.
func waitClaudeOrExit(p *Pane) (dead bool, status int) {
	p.t.Helper()
	ok := eventually(startWait, func() bool {
		if dead, status = p.Dead(); dead {
			return true
		}
		return claudeInputEmpty(p.Screen())
	})
	if !ok {
		p.t.Fatalf("%s: neither ready nor ended after %v; screen:\n%s", p.Name(), startWait, p.Screen())
	}
	return dead, status
}

// conversations lists the transcripts the model answered in. On a loaded
// machine 2.1.197 once left a second file with user lines but no reply
// beside a resumed conversation (its content was not kept); a second
// conversation, which the tests rule out, would hold the model's answer.
func conversations(trs map[string]Transcript) []string {
	var out []string
	for id, tr := range trs {
		if tr.Replies > 0 {
			out = append(out, id)
		}
	}
	return out
}

// head is the first n lines of text, each cut to width bytes, for a log.
func head(text string, n, width int) string {
	lines := strings.SplitN(text, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	for i, l := range lines {
		if len(l) > width {
			lines[i] = l[:width] + "…"
		}
	}
	return strings.Join(lines, "\n")
}
