package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestDirectGrok drives the real grok with no fleetcom in the way and pins
// the facts a harness relies on: the session store (a directory per session,
// made at start), the exit hint (also before a prompt), --session-id,
// the SessionStart hook (startup, /new, resume), --resume continuing the same
// session with context (from another directory too, in the session's own
// directory), moving a session to another directory's folder, and which hook
// sources a single run can add. It runs once per selected version.
func TestDirectGrok(t *testing.T) {
	t.Parallel()
	eachVersion(t, "grok", directGrok)
}

func directGrok(t *testing.T, r Real) {
	w := grokWorld(t, r)
	home := w.GrokHome()
	proj := w.Project("my project")
	other := w.Project("other project")
	hooks := w.SetGrokUserHook("user-hook")
	starts := func() int { return len(GrokHookPayloads(hooks, "session_start")) }
	x := w.Tmux()

	// A fresh session: the hook fires and the session directory exists
	// before any prompt; the prompt, the title and the hint follow.
	var first string
	t.Run("new", func(t *testing.T) {
		n := starts()
		p := x.Start(t, proj, "grok")
		WaitGrok(p)
		h := WaitGrokStarts(t, hooks, n+1)[n]
		first = h.SessionID
		if h.Event != "SessionStart" || h.Source != "new" || h.CWD != proj || !uuidRE.MatchString(first) ||
			h.SessionIDSnake != first || h.EnvSessionID != first {
			t.Errorf("startup hook payload: %+v", h)
		}
		// The hook, the session's files and active_sessions.json are
		// written one after the other: each is waited for.
		var s GrokSession
		ok := eventually(replyWait, func() bool { s = GrokSessions(home, proj)[first]; return s.ID != "" })
		if !ok || s.ID != first || s.CWD != proj || len(s.Prompts) != 0 || s.Title != "" {
			t.Errorf("session before the first prompt: %+v (present %v)", s, ok)
		}
		if !eventually(replyWait, func() bool { return grokActive(home, first, p.PID()) }) {
			t.Errorf("active_sessions.json %+v lacks %s for pid %d", GrokActiveSessions(home), first, p.PID())
		}
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyGrok(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		var s2 GrokSession
		if !eventually(replyWait, func() bool { s2 = GrokSessions(home, proj)[first]; return s2.Title != "" }) {
			t.Errorf("no generated_title: %+v", s2)
		}
		if s2.Title != "Fake session title" || !slices.Equal(s2.Prompts, []string{"remember PELICAN-4821"}) ||
			!strings.HasPrefix(s2.FirstUser, "<user_info>") ||
			!slices.Equal(s2.TypedUsers, []string{"<user_query>\nremember PELICAN-4821\n</user_query>"}) {
			t.Errorf("session after the first prompt: %+v", s2)
		}
		status, screen := QuitGrok(p)
		if got := Hint(grokHintRE, screen); status != 0 || got != first {
			t.Errorf("exit %d, hint %q, want %s; screen:\n%s", status, got, first, screen)
		}
		b, _ := os.ReadFile(filepath.Join(home, "sessions", GrokFolder(proj), "prompt_history.jsonl"))
		if !strings.Contains(string(b), `"session_id":"`+first+`","prompt":"remember PELICAN-4821"`) {
			t.Errorf("prompt_history.jsonl: %s", b)
		}
	})
	if first == "" {
		t.FailNow()
	}

	// Quitting before a prompt still prints the hint, and the session
	// directory stays: an empty session, resumable and the newest one.
	t.Run("quit-before-prompt", func(t *testing.T) {
		n := starts()
		p := x.Start(t, proj, "grok")
		WaitGrok(p)
		id := WaitGrokStarts(t, hooks, n+1)[n].SessionID
		status, screen := QuitGrok(p)
		if got := Hint(grokHintRE, screen); status != 0 || got != id {
			t.Errorf("exit %d, hint %q, want %s; screen:\n%s", status, got, id, screen)
		}
		if s, ok := GrokSessions(home, proj)[id]; !ok || len(s.Prompts) != 0 || s.Title != "" {
			t.Errorf("session %s: %+v (present %v)", id, s, ok)
		}
	})

	// A double Ctrl-C quits with the hint; SIGTERM exits 0, with the hint
	// only once a prompt was sent.
	t.Run("signals", func(t *testing.T) {
		n := starts()
		p := x.Start(t, proj, "grok")
		WaitGrok(p)
		id := WaitGrokStarts(t, hooks, n+1)[n].SessionID
		p.Submit("remember OWL-12", typeWait)
		// Ctrl-C during a turn cancels the turn ("Turn cancelled in
		// 0.4s") and Grok goes on: ReplyGrok waited for the turn to end.
		// The second press must follow the first within Grok's window,
		// so both go in one write.
		ReplyGrok(p, "ACK OWL-12 CODES OWL-12")
		p.Keys("C-c", "C-c")
		status, screen := p.WaitExit(exitWait)
		if got := Hint(grokHintRE, screen); status != 0 || got != id {
			t.Errorf("double Ctrl-C: exit %d, hint %q, want %s; screen:\n%s", status, got, id, screen)
		}
		for _, prompt := range []string{"", "remember OWL-13"} {
			n := starts()
			p := x.Start(t, proj, "grok")
			WaitGrok(p)
			id := WaitGrokStarts(t, hooks, n+1)[n].SessionID
			if prompt != "" {
				p.Submit(prompt, typeWait)
				ReplyGrok(p, "ACK OWL-13 CODES OWL-13")
			}
			syscall.Kill(p.PID(), syscall.SIGTERM)
			status, screen := p.WaitExit(exitWait)
			want := ""
			if prompt != "" {
				want = id
			}
			if got := Hint(grokHintRE, screen); status != 0 || got != want {
				t.Errorf("SIGTERM after prompt %q: exit %d, hint %q, want %q; screen:\n%s", prompt, status, got, want, screen)
			}
		}
	})

	// A pinned ID is used as given; one that already has a session in this
	// directory is refused, and so is one that is not a UUID.
	t.Run("pinned", func(t *testing.T) {
		const id = "0e2e0000-aaaa-4bbb-8ccc-ddddeeeeffff"
		n := starts()
		p := x.Start(t, proj, "grok", "--session-id", id)
		WaitGrok(p)
		if h := WaitGrokStarts(t, hooks, n+1)[n]; h.SessionID != id || h.Source != "new" {
			t.Errorf("pinned startup hook: %+v", h)
		}
		p.Submit("remember HERON-31", typeWait)
		ReplyGrok(p, "ACK HERON-31 CODES HERON-31")
		if _, screen := QuitGrok(p); Hint(grokHintRE, screen) != id {
			t.Errorf("hint after a pinned run: %q", Hint(grokHintRE, screen))
		}
		if s := GrokSessions(home, proj)[id]; !slices.Equal(s.Prompts, []string{"remember HERON-31"}) {
			t.Errorf("pinned session: %+v", s)
		}
		for _, tc := range []struct{ id, want string }{
			{id, "Error: Error: Session ID " + id + " is already in use."},
			{"not-a-uuid", "Error: Error: --session-id must be a valid UUID (got 'not-a-uuid')."},
		} {
			p := x.Start(t, proj, "grok", "--session-id", tc.id)
			status, screen := p.WaitExit(exitWait)
			if status != 1 || !strings.Contains(screen, tc.want) {
				t.Errorf("--session-id %s: exit %d, screen:\n%s", tc.id, status, screen)
			}
		}
	})

	// /new starts another session at once: a new directory, the hook with
	// the new ID, an empty context, and the hint follows it. Both sessions
	// end when Grok quits.
	var sparrow string
	t.Run("new-command", func(t *testing.T) {
		n := starts()
		p := x.Start(t, proj, "grok")
		WaitGrok(p)
		a := WaitGrokStarts(t, hooks, n+1)[n]
		sparrow = a.SessionID
		p.Submit("first SPARROW-77", typeWait)
		ReplyGrok(p, "ACK SPARROW-77 CODES SPARROW-77")
		p.Submit("/new", typeWait)
		b := WaitGrokStarts(t, hooks, n+2)[n+1]
		if b.Source != "new" || b.SessionID == a.SessionID || !uuidRE.MatchString(b.SessionID) {
			t.Errorf("hook after /new: %+v", b)
		}
		p.WaitUntil("/new to clear the screen", replyWait, func(s string) bool {
			return !strings.Contains(s, "SPARROW-77") && grokReady(s)
		})
		if !eventually(replyWait, func() bool { _, ok := GrokSessions(home, proj)[b.SessionID]; return ok }) {
			t.Errorf("no session directory for %s after /new", b.SessionID)
		}
		if !eventually(replyWait, func() bool { return grokActive(home, b.SessionID, p.PID()) }) {
			t.Errorf("active_sessions.json does not follow /new: %+v", GrokActiveSessions(home))
		}
		p.Submit("second KESTREL-55", typeWait)
		ReplyGrok(p, "ACK KESTREL-55 CODES KESTREL-55")
		if r := lastReply(w, "ACK KESTREL-55"); r != "ACK KESTREL-55 CODES KESTREL-55" {
			t.Errorf("the session after /new was sent the earlier turn: reply %q", r)
		}
		_, screen := QuitGrok(p)
		if got := Hint(grokHintRE, screen); got != b.SessionID {
			t.Errorf("hint after /new names %q, want %s", got, b.SessionID)
		}
		var ends []string
		eventually(replyWait, func() bool {
			ends = nil
			for _, e := range GrokHookPayloads(hooks, "session_end") {
				ends = append(ends, e.SessionID)
			}
			return slices.Contains(ends, a.SessionID) && slices.Contains(ends, b.SessionID)
		})
		if !slices.Contains(ends, a.SessionID) || !slices.Contains(ends, b.SessionID) {
			t.Errorf("SessionEnd for %v, want both %s and %s", ends, a.SessionID, b.SessionID)
		}
	})

	// --resume continues the same session with the earlier turn sent to the
	// model. From another directory it runs in the session's own directory.
	// An unknown ID fails.
	t.Run("resume", func(t *testing.T) {
		before := GrokSessions(home, proj)
		n := starts()
		p := x.Start(t, proj, "grok", "--resume", first)
		WaitGrok(p)
		h := WaitGrokStarts(t, hooks, n+1)[n]
		wantPath := filepath.Join(home, "sessions", GrokFolder(proj), first, "updates.jsonl")
		if h.SessionID != first || h.Source != "load" || h.TranscriptPath != wantPath {
			t.Errorf("resume hook: %+v", h)
		}
		p.Submit("which codes now", typeWait)
		ReplyGrok(p, "ACK now CODES PELICAN-4821")
		if _, screen := QuitGrok(p); Hint(grokHintRE, screen) != first {
			t.Errorf("hint after resume: %q", Hint(grokHintRE, screen))
		}
		after := GrokSessions(home, proj)
		if len(after) != len(before) || after[first].UpdateLines <= before[first].UpdateLines ||
			!slices.Equal(after[first].Prompts, []string{"remember PELICAN-4821", "which codes now"}) {
			t.Errorf("resume: sessions %d -> %d, updates %d -> %d, prompts %q",
				len(before), len(after), before[first].UpdateLines, after[first].UpdateLines, after[first].Prompts)
		}

		n = starts()
		p = x.Start(t, other, "grok", "--resume", first)
		WaitGrok(p)
		if h := WaitGrokStarts(t, hooks, n+1)[n]; h.SessionID != first || h.CWD != proj {
			t.Errorf("resume from another directory: hook %+v, want cwd %s", h, proj)
		}
		p.Submit("which codes again", typeWait)
		ReplyGrok(p, "ACK again CODES PELICAN-4821")
		QuitGrok(p)
		if s := GrokSessions(home, other); len(s) != 0 {
			t.Errorf("sessions filed under the other directory: %v", keys(s))
		}

		p = x.Start(t, proj, "grok", "--resume", "0e2e0000-9999-4999-8999-999999999999")
		status, screen := p.WaitExit(exitWait)
		if status != 1 || !strings.Contains(screen, `Session "0e2e0000-9999-4999-8999-999999999999" not found locally`) {
			t.Errorf("unknown --resume: exit %d, screen:\n%s", status, screen)
		}
	})

	// Moving a session: copy its directory into another directory's
	// folder, rewrite the three fields that name the old directory, remove
	// the old copy. --resume then runs in the new directory with context.
	t.Run("move", func(t *testing.T) {
		dest := w.Project("moved project")
		from := filepath.Join(home, "sessions", GrokFolder(proj), sparrow)
		to := filepath.Join(home, "sessions", GrokFolder(dest), sparrow)
		if got := filesNaming(t, from, proj); !slices.Equal(got, []string{"chat_history.jsonl", "prompt_context.json", "summary.json"}) {
			t.Errorf("files naming the directory: %v", got)
		}
		moveGrokSession(t, from, to, proj, dest)
		n := starts()
		p := x.Start(t, dest, "grok", "--resume", sparrow)
		WaitGrok(p)
		if h := WaitGrokStarts(t, hooks, n+1)[n]; h.SessionID != sparrow || h.CWD != dest || h.Source != "load" {
			t.Errorf("resume of the moved session: hook %+v", h)
		}
		p.Submit("which codes moved", typeWait)
		ReplyGrok(p, "ACK moved CODES SPARROW-77")
		QuitGrok(p)
		if !sentWorkspace(w, "ACK moved", dest) {
			t.Errorf("the resumed turn did not tell the model its workspace is %s", dest)
		}
		if s := GrokSessions(home, dest)[sparrow]; s.CWD != dest || len(s.Prompts) != 2 {
			t.Errorf("moved session: %+v", s)
		}
	})

	// Which hook sources a single run can add without touching the user's
	// files: the config overlays cannot carry hooks; an agent definition
	// can, but it replaces the agent. A hook installed once in
	// $GROK_HOME/hooks that acts only when a variable is set works; so does
	// ~/.claude/settings.json, which Grok reads too.
	t.Run("hook-channels", func(t *testing.T) {
		record := filepath.Join(w.Root, "channels.jsonl")
		script, _ := w.GrokHookRecorder("channel-hook")
		command := func(label string) string { return shellQuote(script) + " " + shellQuote(record) + " " + label }
		overlay, _ := json.Marshal(grokHookFile(command("overlay")))
		overlayFile := filepath.Join(w.Root, "overlay.json")
		w.writeJSON(overlayFile, grokHookFile(command("overlay-file")))
		agent := filepath.Join(w.Root, "agent.md")
		w.writeFile(agent, grokAgentFile(command("agent")), 0o600)
		w.writeJSON(filepath.Join(home, "hooks", "gated.json"), grokHookFile(
			`[ -z "${FLEETCOM_E2E_GATE:-}" ] || `+shellQuote(script)+` "${FLEETCOM_E2E_GATE:-}" gated`))
		w.writeJSON(filepath.Join(w.Home, ".claude", "settings.json"), grokHookFile(command("claude-settings")))
		runs := []struct {
			name  string
			extra []string
			args  []string
			want  []string // labels of the channel hook that fire
		}{
			{"GROK_CONFIG", []string{"GROK_CONFIG=" + string(overlay)}, nil, []string{"claude-settings"}},
			{"GROK_CONFIG_PATH", []string{"GROK_CONFIG_PATH=" + overlayFile}, nil, []string{"claude-settings"}},
			{"--agent", nil, []string{"--agent", agent}, []string{"agent", "claude-settings"}},
			{"gate variable", []string{"FLEETCOM_E2E_GATE=" + record}, nil, []string{"claude-settings", "gated"}},
			{"compat off", []string{"GROK_CLAUDE_HOOKS_ENABLED=0"}, nil, nil},
		}
		// CI once saw the first of these runs, right after the files were
		// written, fire no channel hook at all while the user's own hook
		// ran; the next four runs were as measured. A run whose hooks
		// differ is tried once more, and the second answer counts.
		for _, r := range runs {
			for try := 1; ; try++ {
				got := grokChannelRun(t, w, proj, record, hooks, starts, r.name, r.extra, r.args, len(r.want))
				if slices.Equal(got, r.want) {
					break
				}
				if try == 2 {
					t.Errorf("%s: hooks that fired %v, want %v", r.name, got, r.want)
					break
				}
				t.Logf("%s: hooks that fired %v, want %v: running it once more", r.name, got, r.want)
			}
		}
	})
	logRequests(t, w)
}

// grokChannelRun runs grok -p once for the hook-channels check and returns
// the sorted labels of the channel hooks that fired, each checked to have
// the session the user's own hook saw.
func grokChannelRun(t *testing.T, w *World, proj, record, hooks string, starts func() int, name string, extra, args []string, want int) []string {
	t.Helper()
	os.Remove(record)
	n := starts()
	out, code := GrokHeadless(t, w, proj, extra, append(args, "-p", "hello channels")...)
	if code != 0 || !strings.Contains(out, "ACK channels") {
		t.Errorf("%s: exit %d, output %q", name, code, out)
	}
	// A hook may still be writing as grok exits: each expected payload is
	// waited for.
	var user, channel []GrokHookPayload
	eventually(replyWait, func() bool {
		user, channel = GrokHookPayloads(hooks, "session_start"), GrokHookPayloads(record, "session_start")
		return len(user) >= n+1 && len(channel) >= want
	})
	var id string
	if len(user) == n+1 {
		id = user[n].SessionID
	} else {
		t.Errorf("%s: the user's own hook ran %d times", name, len(user)-n)
	}
	var got []string
	for _, h := range channel {
		got = append(got, h.Label)
		if h.SessionID != id {
			t.Errorf("%s: %s hook got session %s, want %s", name, h.Label, h.SessionID, id)
		}
	}
	slices.Sort(got)
	return got
}
