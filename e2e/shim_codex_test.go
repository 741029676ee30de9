package e2e

import (
	"strings"
	"testing"
)

// TestShimCodex drives the real codex through fleetcom's shim and checks what
// fleetcom records and resumes, with the user's own notifier kept working.
func TestShimCodex(t *testing.T) {
	t.Parallel()
	eachVersion(t, "codex", shimCodex)
}

func shimCodex(t *testing.T, r Real) {
	w, fc := shimWorld(t, r)
	userNotify, userCalls := w.NotifyRecorder("user-notify")
	w.SetCodexNotify(userNotify, "from-config")
	proj := w.Project("my project")
	x := w.Tmux()
	line := func(id string) string { return "codex resume '" + id + "'" }

	// The ID fleetcom records is the rollout's; the user's notifier still
	// gets both payloads of the first turn, with its own argument first.
	var first string
	t.Run("capture", func(t *testing.T) {
		p := x.Start(t, proj, "codex")
		WaitCodex(p)
		p.Submit("remember HERON-3141", typeWait)
		ReplyCodex(p, "ACK HERON-3141 CODES HERON-3141")
		calls := WaitNotifies(t, userCalls, 2)
		status, screen := QuitCodex(p)
		rollouts := CodexRollouts(w.CodexHome())
		if status != 0 || len(rollouts) != 1 {
			t.Fatalf("exit status %d, rollouts %v; screen:\n%s", status, keys(rollouts), screen)
		}
		first = keys(rollouts)[0]
		if hint := Hint(codexHintRE, screen); hint != first {
			t.Errorf("exit hint %q, rollout %q", hint, first)
		}
		threads := map[string]bool{}
		for _, c := range calls {
			if len(c.Args) != 2 || c.Args[0] != "from-config" || c.Payload.Type != "agent-turn-complete" {
				t.Errorf("user notifier call: %+v", c)
			}
			threads[c.Payload.ThreadID] = true
		}
		if !threads[first] || len(threads) != 2 {
			t.Errorf("user notifier saw threads %v, want %s and a side thread", keys(threads), first)
		}
		wantRecord(t, w, fc, proj, "codex", first, line(first))
		wantResume(t, w, fc, proj, line(first))
		wantResume(t, w, fc, proj, line(first), "codex")
		// Both channels agreed, and the version came from the install's
		// files (nothing but codex was started to learn it).
		if got, want := lastDrift(t, w, "codex"), r.Version+" hint=ok capture=ok"; got != want {
			t.Errorf("drift tally: %q, want %q", got, want)
		}
	})
	if first == "" {
		t.FailNow()
	}

	// A run quit before its first prompt does not displace it.
	t.Run("quit-before-prompt", func(t *testing.T) {
		p := x.Start(t, proj, "codex")
		WaitCodex(p)
		if status, screen := QuitCodex(p); status != 0 || Hint(codexHintRE, screen) != "" {
			t.Errorf("exit status %d, screen:\n%s", status, screen)
		}
		wantResume(t, w, fc, proj, line(first))
	})

	// Resumed and quit before a prompt: Codex notifies nobody and leaves
	// the rollout alone. That is no drift (issue 22): nothing was owed.
	t.Run("resume-without-a-turn", func(t *testing.T) {
		p := x.Start(t, proj, "codex", "resume", first)
		WaitCodex(p)
		if status, screen := QuitCodex(p); status != 0 || Hint(codexHintRE, screen) != first {
			t.Errorf("exit status %d, screen:\n%s", status, screen)
		}
		if got, want := lastDrift(t, w, "codex"), r.Version+" hint=ok capture=-"; got != want {
			t.Errorf("drift tally: %q, want %q", got, want)
		}
	})

	// resume --exec continues the same rollout, with the earlier turn sent
	// to the model, and the user's notifier hears of it.
	t.Run("resume-exec", func(t *testing.T) {
		before := CodexRollouts(w.CodexHome())
		n := len(NotifyCalls(userCalls))
		p := x.Start(t, proj, fleetcomExec(fc)...)
		WaitCodex(p)
		p.Submit("which codes now", typeWait)
		ReplyCodex(p, "ACK now CODES HERON-3141")
		if c := WaitNotifyOf(t, userCalls, first, n); len(c.Args) != 2 || c.Args[0] != "from-config" {
			t.Errorf("user notifier call after resume: %+v", c)
		}
		if status, _ := QuitCodex(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		after := CodexRollouts(w.CodexHome())
		if len(after) != len(before) || after[first].Lines <= before[first].Lines {
			t.Errorf("rollouts %v -> %v; lines of %s %d -> %d", keys(before), keys(after), first, before[first].Lines, after[first].Lines)
		}
		wantResume(t, w, fc, proj, line(first))
	})

	// /new inside the TUI starts another thread: fleetcom follows it
	// through the notifier, and it becomes the one to resume.
	t.Run("new", func(t *testing.T) {
		p := x.Start(t, proj, "codex")
		WaitCodex(p)
		p.Submit("first OSPREY-81", typeWait)
		ReplyCodex(p, "ACK OSPREY-81 CODES OSPREY-81")
		// Codex may still count the turn as running a moment after its
		// footer went idle, and then refuses /new: try again once idle.
		const busy = "'/new' is disabled while a task is in progress"
		for refused := 0; ; refused++ {
			p.Submit("/new", typeWait)
			s := p.WaitUntil("/new to take effect", replyWait, func(s string) bool {
				return !strings.Contains(s, "OSPREY-81") || strings.Count(s, busy) > refused
			})
			if !strings.Contains(s, "OSPREY-81") {
				break
			}
			if refused == 5 {
				t.Fatalf("/new refused %d times; screen:\n%s", refused+1, s)
			}
			p.WaitUntil("Codex idle", replyWait, codexIdle)
		}
		p.Submit("second GANNET-92", typeWait)
		ReplyCodex(p, "ACK GANNET-92 CODES GANNET-92")
		_, screen := QuitCodex(p)
		var second string
		for id, r := range CodexRollouts(w.CodexHome()) {
			if strings.Contains(r.Text, "GANNET-92") {
				second = id
			}
		}
		if second == "" || Hint(codexHintRE, screen) != second {
			t.Fatalf("no rollout for the new thread, or hint %q differs", Hint(codexHintRE, screen))
		}
		wantRecord(t, w, fc, proj, "codex", second, line(second))
		wantResume(t, w, fc, proj, line(second))
	})
	logRequests(t, w)
}
