package e2e

import (
	"strings"
	"testing"
)

// TestDirectCodex drives the real codex with no fleetcom in the way and pins
// the facts the shim relies on: the rollout store, the exit hints, the notify
// payload (twice on a first turn), -c notify beating config.toml, quitting
// before a prompt, and resume continuing the same rollout. It runs once per
// selected version.
func TestDirectCodex(t *testing.T) {
	t.Parallel()
	eachVersion(t, "codex", directCodex)
}

func directCodex(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	userNotify, userCalls := w.NotifyRecorder("user-notify")
	w.SetCodexNotify(userNotify, "from-config")
	proj := w.Project("my project")
	override, overrideCalls := w.NotifyRecorder("override-notify")
	x := w.Tmux()

	// A first turn under -c notify: the override gets the real thread and
	// a title side thread with no rollout, in either order (the title
	// thread can finish first on a busy machine); config.toml's notifier
	// gets nothing.
	var thread string
	t.Run("new", func(t *testing.T) {
		p := x.Start(t, proj, "codex", "-c", "notify=["+tomlString(override)+"]")
		WaitCodex(p)
		if n := len(CodexRollouts(w.CodexHome())); n != 0 {
			t.Errorf("%d rollouts before the first prompt", n)
		}
		p.Submit("remember HERON-3141", typeWait)
		ReplyCodex(p, "ACK HERON-3141 CODES HERON-3141")
		calls := WaitNotifies(t, overrideCalls, 2)
		// The real thread is the one the rollout was filed under.
		var rollout []string
		eventually(replyWait, func() bool { rollout = keys(CodexRollouts(w.CodexHome())); return len(rollout) > 0 })
		if len(rollout) != 1 {
			t.Fatalf("rollouts after the first turn: %v", rollout)
		}
		thread = rollout[0]
		var realCall, sideCall NotifyCall
		switch thread {
		case calls[0].Payload.ThreadID:
			realCall, sideCall = calls[0], calls[1]
		case calls[1].Payload.ThreadID:
			realCall, sideCall = calls[1], calls[0]
			t.Logf("the title thread notified first")
		default:
			t.Fatalf("no notify names the rollout's thread %s: %+v", thread, calls)
		}
		real, side := realCall.Payload, sideCall.Payload
		if real.Type != "agent-turn-complete" || real.CWD != proj || len(realCall.Args) != 1 ||
			len(real.InputMessages) != 1 || real.InputMessages[0] != "remember HERON-3141" {
			t.Errorf("the real thread's notify: %+v", realCall)
		}
		if side.ThreadID == thread || !uuidRE.MatchString(side.ThreadID) || side.Type != "agent-turn-complete" {
			t.Errorf("the other notify is not a side thread: %+v", sideCall)
		}
		status, screen := QuitCodex(p)
		if status != 0 {
			t.Errorf("exit status %d", status)
		}
		if got := Hint(codexHintRE, screen); got != thread {
			t.Errorf("exit hint names %q, notify said %q; screen:\n%s", got, thread, screen)
		}
		rollouts := CodexRollouts(w.CodexHome())
		if r, ok := rollouts[thread]; !ok || r.CWD != proj || !strings.Contains(r.Text, "HERON-3141") {
			t.Errorf("rollout of %s: %+v (all: %v)", thread, r.Path, keys(rollouts))
		}
		if _, ok := rollouts[side.ThreadID]; ok {
			t.Errorf("the side thread %s has a rollout", side.ThreadID)
		}
		if got := NotifyCalls(userCalls); len(got) != 0 {
			t.Errorf("config.toml notifier ran despite -c notify: %+v", got)
		}
	})

	// Quitting before a prompt: only "Session ID: <uuid>", no rollout.
	t.Run("quit-before-prompt", func(t *testing.T) {
		before := CodexRollouts(w.CodexHome())
		p := x.Start(t, proj, "codex")
		WaitCodex(p)
		status, screen := QuitCodex(p)
		id := Hint(codexNoTurnRE, screen)
		if status != 0 || id == "" || strings.Contains(screen, "codex resume") {
			t.Errorf("exit status %d, screen:\n%s", status, screen)
		}
		after := CodexRollouts(w.CodexHome())
		if _, ok := after[id]; ok || len(after) != len(before) {
			t.Errorf("rollouts before %v, after %v", keys(before), keys(after))
		}
	})

	// resume continues the same rollout with the earlier turn sent to the
	// model; the notifier of config.toml gets its own argument, then the
	// payload; Ctrl-C quits.
	if thread == "" {
		t.FailNow()
	}
	t.Run("resume", func(t *testing.T) {
		before := CodexRollouts(w.CodexHome())
		p := x.Start(t, proj, "codex", "resume", thread)
		WaitCodex(p)
		p.Submit("which codes now", typeWait)
		ReplyCodex(p, "ACK now CODES HERON-3141")
		c := WaitNotifyOf(t, userCalls, thread, 0)
		if len(c.Args) != 2 || c.Args[0] != "from-config" {
			t.Errorf("config.toml notifier call: %+v", c)
		}
		// Ctrl-C quits an idle Codex; during a turn it interrupts the turn.
		p.WaitUntil("Codex idle", replyWait, codexIdle)
		p.Keys("C-c")
		status, screen := p.WaitExit(exitWait)
		if got := Hint(codexHintRE, screen); status != 0 || got != thread {
			t.Errorf("after Ctrl-C: exit %d, hint %q, want %q", status, got, thread)
		}
		after := CodexRollouts(w.CodexHome())
		if len(after) != len(before) || after[thread].Lines <= before[thread].Lines {
			t.Errorf("resume: rollouts %d -> %d, lines %d -> %d", len(before), len(after), before[thread].Lines, after[thread].Lines)
		}
	})
	logRequests(t, w)
}
