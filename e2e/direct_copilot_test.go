package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// TestDirectCopilot drives the real copilot with no fleetcom in the way and
// pins the facts its harness relies on: a session folder made at start-up,
// its log (events.jsonl) only at the first prompt, so a quit before one
// leaves nothing to resume and prints no Resume line (SessionEnd fires for
// it all the same); hooks given for one run by --plugin-dir, SessionStart
// at the first prompt with the session's ID (again after /clear, with the
// new one); --session-id used as given,
// and resuming when the session exists; the joined `copilot --resume=<id>`
// of the exit summary (after -p on stderr), never repeating --plugin-dir;
// --resume=<id> from another directory continuing with context in the
// session's own directory; an unknown ID refused; COPILOT_HOME moving the
// store. It runs once per selected version.
func TestDirectCopilot(t *testing.T) {
	t.Parallel()
	eachVersion(t, "copilot", directCopilot)
}

func directCopilot(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	home := w.CopilotHome()
	proj := w.Project("my project")
	other := w.Project("other place")
	plugin, record := w.CopilotHookRecorder("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")
	x := w.Tmux()

	t.Run("quit-before-prompt", func(t *testing.T) {
		p := x.Start(t, proj, "copilot", "--plugin-dir", plugin)
		WaitCopilot(p)
		var s CopilotSession
		if !eventually(replyWait, func() bool {
			all := CopilotSessions(home)
			for _, one := range all {
				s = one
			}
			return len(all) == 1 && len(s.Locks) == 1
		}) {
			t.Fatalf("no one session folder with its lock at start-up: %+v", CopilotSessions(home))
		}
		if s.HasEvents || s.Workspace["cwd"] != proj {
			t.Errorf("the folder at start-up: %+v", s)
		}
		status, screen := QuitCopilot(p)
		if status != 0 || copilotHintRE.MatchString(screen) {
			t.Errorf("exit %d, hint %q; screen:\n%s", status, Hint(copilotHintRE, screen), screen)
		}
		// SessionEnd fires for it all the same, with no SessionStart.
		s = ReadCopilotSession(s.Dir)
		hooks := CopilotHooks(record)
		if s.HasEvents || len(s.Locks) != 0 || len(hooks["SessionStart"]) != 0 || len(hooks["SessionEnd"]) != 1 ||
			hooks["SessionEnd"][0]["session_id"] != filepath.Base(s.Dir) {
			t.Errorf("after a quit before a prompt: %+v, hooks %v", s, hooks)
		}
	})

	// A conversation, pinned: the hooks follow it, /clear starts another.
	id := safe.NewUUID()
	var second string
	t.Run("pinned", func(t *testing.T) {
		p := x.Start(t, proj, "copilot", "--plugin-dir", plugin, "--session-id", id)
		WaitCopilot(p)
		ends := len(CopilotHooks(record)["SessionEnd"])
		if got := CopilotHooks(record); len(got["SessionStart"]) != 0 || len(got["UserPromptSubmit"]) != 0 {
			t.Errorf("hooks before the first prompt: %v", got)
		}
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyCopilot(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		var hooks map[string][]map[string]any
		if !eventually(replyWait, func() bool { hooks = CopilotHooks(record); return len(hooks["Stop"]) == 1 }) {
			t.Fatalf("hooks of the first turn: %v", hooks)
		}
		if h := hooks["SessionStart"]; len(h) != 1 || h[0]["session_id"] != id || h[0]["source"] != "new" || h[0]["cwd"] != proj ||
			h[0]["initial_prompt"] != "remember PELICAN-4821" || len(hooks["UserPromptSubmit"]) != 1 {
			t.Errorf("hooks of the first turn: %v", hooks)
		}
		s := CopilotSessions(home)[id]
		if s.ID != id || s.StartCWD != proj || s.Workspace["cwd"] != proj || s.Workspace["name"] != "remember PELICAN-4821" ||
			s.Workspace["user_named"] != "false" || !slices.Equal(s.Prompts, []string{"remember PELICAN-4821"}) || len(s.Locks) != 1 {
			t.Errorf("the session after its first prompt: %+v", s)
		}

		p.Submit("/clear", typeWait)
		p.WaitFor("Started a fresh session", replyWait)
		WaitCopilot(p)
		p.Submit("second EGRET-33", typeWait)
		ReplyCopilot(p, "ACK EGRET-33 CODES EGRET-33") // an empty context
		if !eventually(replyWait, func() bool { hooks = CopilotHooks(record); return len(hooks["SessionStart"]) == 2 }) {
			t.Fatalf("no SessionStart after /clear: %v", hooks)
		}
		second, _ = hooks["SessionStart"][1]["session_id"].(string)
		if end := hooks["SessionEnd"][ends:]; second == id || !uuidRE.MatchString(second) || len(end) != 1 || end[0]["session_id"] != id {
			t.Errorf("/clear: SessionStart %q, SessionEnd %v", second, end)
		}
		status, screen := QuitCopilot(p)
		if got := Hint(copilotHintRE, screen); status != 0 || got != second {
			t.Errorf("exit %d, hint %q, want %s; screen:\n%s", status, got, second, screen)
		}
		if strings.Contains(screen, "--plugin-dir") || strings.Contains(screen, "--session-id") {
			t.Errorf("the exit summary repeats a launch option; screen:\n%s", screen)
		}
		if s := CopilotSessions(home)[id]; len(s.Locks) != 0 || s.Shutdowns != 1 {
			t.Errorf("the first session after the exit: %+v", s)
		}
	})

	// From another directory: the earlier turn goes to the model, and the
	// session runs in its own directory.
	t.Run("resume-other-dir", func(t *testing.T) {
		n := len(CopilotSessions(home))
		p := x.Start(t, other, "copilot", "--resume="+id)
		WaitCopilot(p)
		p.Submit("which codes now", typeWait)
		ReplyCopilot(p, "ACK now CODES PELICAN-4821")
		status, screen := QuitCopilot(p)
		if got := Hint(copilotHintRE, screen); status != 0 || got != id {
			t.Errorf("exit %d, hint %q; screen:\n%s", status, got, screen)
		}
		s := CopilotSessions(home)[id]
		if len(CopilotSessions(home)) != n || len(s.ResumeCWDs) != 1 || s.ResumeCWDs[0] != proj || s.Workspace["cwd"] != proj {
			t.Errorf("the resumed session: %+v (%d folders, %d before)", s, len(CopilotSessions(home)), n)
		}
	})

	t.Run("headless", func(t *testing.T) {
		n := len(CopilotSessions(home))
		out, errOut, code := headless(t, w, r.Path(), proj, nil, "--session-id", id, "-p", "which codes sid")
		if code != 0 || !strings.Contains(out, "ACK sid CODES PELICAN-4821") ||
			Hint(copilotHintRE, errOut) != id || strings.Contains(out, "Resume") || len(CopilotSessions(home)) != n {
			t.Errorf("--session-id of a session that exists: exit %d, stdout %q, stderr %q", code, out, errOut)
		}
		_, errOut, code = headless(t, w, r.Path(), proj, nil, "--resume="+safe.NewUUID(), "-p", "x")
		if code != 1 || !strings.Contains(errOut, "No session, task, or name matched") || Hint(copilotHintRE, errOut) != "" {
			t.Errorf("--resume of an unknown ID: exit %d, stderr %q", code, errOut)
		}
		moved := filepath.Join(w.Root, "copilot home")
		_, errOut, code = headless(t, w, r.Path(), proj, []string{"COPILOT_HOME=" + moved}, "-p", "elsewhere")
		got := Hint(copilotHintRE, errOut)
		if s := CopilotSessions(moved)[got]; code != 0 || got == "" || s.ID != got || len(CopilotSessions(home)) != n {
			t.Errorf("COPILOT_HOME: exit %d, hint %q, session %+v", code, got, s)
		}
	})
}
