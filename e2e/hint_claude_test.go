package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// anyHintRE is Claude's exit hint with whatever program it names: from
// 2.1.332 on, CLAUDE_CODE_RESUME_HINT_COMMAND replaces "claude".
var anyHintRE = regexp.MustCompile(`Resume this session with:\s*\n\s*(\S[^\n]*? --resume ([0-9a-f-]{36}))`)

// hintCase is one launch of claude and the exit hint it leads to.
type hintCase struct {
	name string
	args []string // after "claude"
	env  []string // set for this run only (through env(1))
	// echo is what a version that repeats options puts between the
	// program and --resume; "" means the plain hint.
	echo string
	// prog replaces "claude" in the hint on versions that honour
	// CLAUDE_CODE_RESUME_HINT_COMMAND.
	prog string
}

// want is the hint line version r prints for the conversation id.
func (c hintCase) want(r Real, id string) string {
	behaviour := "hint-echoes-flags"
	if len(c.env) > 0 {
		behaviour = "hint-env"
	}
	prog, opts := "claude", ""
	if r.Has(behaviour) {
		if c.prog != "" {
			prog = c.prog
		}
		opts = c.echo
	}
	if opts != "" {
		prog += " " + opts
	}
	return prog + " --resume " + id
}

// TestClaudeHint pins Claude's exit hint exactly, per version: which launch
// options it repeats and when it repeats none, and what happens to a hint
// that names a --settings file (fleetcom passes one).
//
// The rule, read from 2.1.332's code and confirmed here: the options are
// taken from argv up to "--", leaving out the ones about which conversation
// to open (--resume, --continue, --session-id, --fork-session, --name, …)
// and positional words. Every option and value must match a plain-word
// pattern (letters, digits, _ . / : + - @ =): one value holding a space, a
// quote, $, a comma, braces or a non-ASCII letter drops ALL options, never
// quoted. Options holding '/' or '.' are repeated only when the whole line
// fits the terminal's width; others are repeated even when the line
// wraps. Nothing in the home (its age, numStartups, caches) enters into it.
func TestClaudeHint(t *testing.T) {
	t.Parallel()
	eachVersion(t, "claude", claudeHint)
}

func claudeHint(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	proj := w.Project("proj")
	const extra = "{extra}" // each case's own trusted directory
	x := w.Tmux()
	short := filepath.Join(w.Root, "s.json")
	w.writeFile(short, "{}\n", 0o600)
	mcp := filepath.Join(w.Root, "mcp.json")
	w.writeFile(mcp, `{"mcpServers":{}}`+"\n", 0o600)
	// A path long enough that the line no longer fits 200 columns.
	long := filepath.Join(w.Root, strings.Repeat("d", 150), "s.json")
	w.writeFile(long, "{}\n", 0o600)
	word := strings.Repeat("w", 180)
	const pinned = "0e2e0000-1111-4222-8333-0123456789ab"

	cases := []hintCase{
		{name: "model", args: []string{"--model", "opus"}, echo: "--model opus"},
		{name: "order-kept", args: []string{"--permission-mode", "default", "--model", "opus"}, echo: "--permission-mode default --model opus"},
		{name: "equals-form", args: []string{"--model=opus"}, echo: "--model=opus"},
		{name: "session-id-left-out", args: []string{"--session-id", pinned, "--model", "opus"}, echo: "--model opus"},
		{name: "allowed-tools", args: []string{"--allowedTools", "Read"}, echo: "--allowedTools Read"},
		{name: "comma-drops-all", args: []string{"--model", "opus", "--allowedTools", "Read,Write"}},
		{name: "space-drops-all", args: []string{"--model", "opus", "--append-system-prompt", "be brief"}},
		{name: "single-quote", args: []string{"--append-system-prompt", "it's"}},
		{name: "double-quote", args: []string{"--append-system-prompt", `say"x`}},
		{name: "dollar", args: []string{"--append-system-prompt", "cost$5"}},
		{name: "non-ascii", args: []string{"--append-system-prompt", "café"}},
		{name: "wider-than-pane-no-path", args: []string{"--append-system-prompt", word}, echo: "--append-system-prompt " + word},
		{name: "settings-file", args: []string{"--settings", short}, echo: "--settings " + short},
		{name: "add-dir", args: []string{"--add-dir", extra}, echo: "--add-dir " + extra},
		{name: "mcp-config", args: []string{"--mcp-config", mcp}, echo: "--mcp-config " + mcp},
		{name: "path-too-wide-drops-all", args: []string{"--model", "opus", "--settings", long}},
		{name: "env-no-flags", args: []string{"--model", "opus"}, env: []string{"CLAUDE_CODE_RELAUNCH_RESUME_HINT_FLAGS="}},
		{name: "env-flags", args: []string{"--model", "opus"}, env: []string{"CLAUDE_CODE_RELAUNCH_RESUME_HINT_FLAGS=--model sonnet"}, echo: "--model sonnet"},
		{name: "env-command", args: []string{"--model", "opus"}, env: []string{"CLAUDE_CODE_RESUME_HINT_COMMAND=fleetcom"}, prog: "fleetcom"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A world of each case's own, so the cases run side by side
			// without two Claude processes sharing one home; the files the
			// options name stay in the first world, readable by all.
			t.Parallel()
			w := NewWorld(t, r.Bin)
			proj := w.Project("proj")
			dir := w.Project("extra")
			x := w.Tmux()
			for i := range c.args {
				c.args[i] = strings.ReplaceAll(c.args[i], extra, dir)
			}
			c.echo = strings.ReplaceAll(c.echo, extra, dir)
			argv := append([]string{"claude"}, c.args...)
			if len(c.env) > 0 {
				argv = append(append([]string{"env"}, c.env...), argv...)
			}
			line, id := converse(t, x, w.ClaudeHome(), proj, argv, "ZEBRA-42")
			if want := c.want(r, id); line != want {
				t.Errorf("%s: hint %q, want %q", r, line, want)
			}
			if c.name == "session-id-left-out" && id != pinned {
				t.Errorf("hint names %s, want the pinned %s", id, pinned)
			}
			if trs := ClaudeTranscripts(w.ClaudeHome(), proj); trs[id].Messages == 0 {
				t.Errorf("the hint's %s has no conversation on disk", id)
			}
		})
	}

	// Print mode prints the reply and no hint.
	t.Run("print-mode", func(t *testing.T) {
		p := x.Start(t, proj, "claude", "--model", "opus", "-p", "hello PIPE-11")
		status, screen := p.WaitExit(replyWait)
		if status != 0 || !strings.Contains(screen, "ACK PIPE-11") || strings.Contains(screen, "Resume this session") {
			t.Errorf("exit %d, screen:\n%s", status, screen)
		}
	})

	// Inline JSON as --settings, the same on every run, with the capture
	// file named by the environment: works on every version, its
	// SessionStart hook fires at startup and follows /clear, and as the
	// JSON can never pass the hint's plain-word pattern the hint repeats no
	// option at all (not even --model): copied into a shell, it resumes.
	t.Run("inline-settings", func(t *testing.T) {
		record := filepath.Join(w.Root, "inline-capture.jsonl")
		inline, err := json.Marshal(map[string]any{"hooks": map[string]any{"SessionStart": []any{map[string]any{
			"hooks": []any{map[string]any{"type": "command", "command": gatedCapture}},
		}}}})
		if err != nil {
			t.Fatal(err)
		}
		const id = "0e2e0000-1111-4222-8333-0123456789ac"
		p := x.Start(t, proj, "env", "FLEETCOM_CAPTURE_FILE="+record,
			"claude", "--session-id", id, "--model", "opus", "--settings", string(inline))
		WaitClaude(p)
		p.Submit("remember HERON-17", typeWait)
		ReplyClaude(p, "ACK HERON-17 CODES HERON-17")
		ClearClaude(p, "HERON-17")
		p.Submit("second HERON-18", typeWait)
		ReplyClaude(p, "ACK HERON-18 CODES HERON-18\n")
		WaitClaudeRecorded(t, w.ClaudeHome(), proj, "ACK HERON-18 CODES HERON-18")
		status, screen := ExitClaude(p)
		h := HookPayloads(record)
		if len(h) != 2 || h[0].SessionID != id || h[0].Source != "startup" || h[1].Source != "clear" {
			t.Fatalf("hook payloads %+v, want startup for %s, then clear", h, id)
		}
		if line, _ := ClaudeHint(screen); status != 0 || line != "claude --resume "+h[1].SessionID {
			t.Errorf("exit %d, hint %q, want claude --resume %s", status, line, h[1].SessionID)
		}
		resumeLine(t, x, w.ClaudeHome(), proj, "claude --resume "+h[1].SessionID, "HERON-18")
		if h := HookPayloads(record); len(h) != 2 {
			t.Errorf("the printed line ran the inline hook again: %+v", h)
		}
	})

	// A hint that repeats --settings <file> no longer works once the file
	// is gone: that is what a per-run settings file does to it.
	t.Run("settings-file-gone", func(t *testing.T) {
		tmp := filepath.Join(w.Root, "run-1", "claude-settings.json")
		w.writeFile(tmp, "{}\n", 0o600)
		line, id := converse(t, x, w.ClaudeHome(), proj, []string{"claude", "--settings", tmp}, "OSPREY-31")
		if err := os.RemoveAll(filepath.Dir(tmp)); err != nil {
			t.Fatal(err)
		}
		if !r.Has("hint-echoes-flags") {
			resumeLine(t, x, w.ClaudeHome(), proj, line, "OSPREY-31")
			return
		}
		if want := "claude --settings " + tmp + " --resume " + id; line != want {
			t.Fatalf("hint %q, want %q", line, want)
		}
		p := x.Start(t, proj, "sh", "-c", line)
		status, screen := p.WaitExit(exitWait)
		if status != 1 || !strings.Contains(screen, "Error: Settings file not found: "+tmp) {
			t.Errorf("the printed line with its settings file gone: exit %d, screen:\n%s", status, screen)
		}
	})

	// A settings file at a stable path whose hook does nothing unless
	// FLEETCOM_CAPTURE_FILE is set: the hint may repeat it, and the line
	// still resumes later, with the hook quiet.
	t.Run("stable-settings", func(t *testing.T) {
		stable := filepath.Join(w.Home, ".local", "share", "fleetcom", "claude-settings.json")
		w.writeJSON(stable, map[string]any{"hooks": map[string]any{"SessionStart": []any{map[string]any{
			"hooks": []any{map[string]any{"type": "command", "command": gatedCapture}},
		}}}})
		capture := filepath.Join(w.Root, "capture.jsonl")
		line, id := converse(t, x, w.ClaudeHome(), proj, []string{"env", "FLEETCOM_CAPTURE_FILE=" + capture, "claude", "--settings", stable}, "GANNET-92")
		if h := HookPayloads(capture); len(h) != 1 || h[0].SessionID != id {
			t.Errorf("captured %+v, want %s", h, id)
		}
		if want := (hintCase{echo: "--settings " + stable}).want(r, id); line != want {
			t.Errorf("hint %q, want %q", line, want)
		}
		resumeLine(t, x, w.ClaudeHome(), proj, line, "GANNET-92")
		if h := HookPayloads(capture); len(h) != 1 {
			t.Errorf("the gated hook wrote without FLEETCOM_CAPTURE_FILE: %+v", h)
		}
	})
}

// gatedCapture is a SessionStart hook command that appends its payload to
// $FLEETCOM_CAPTURE_FILE and does nothing when that is unset, so the same
// settings serve every run.
const gatedCapture = `if [ -n "$FLEETCOM_CAPTURE_FILE" ]; then cat >> "$FLEETCOM_CAPTURE_FILE"; echo >> "$FLEETCOM_CAPTURE_FILE"; else cat > /dev/null; fi`

// converse runs argv in dir, has one exchange planting code, quits and
// returns the exit hint's line and ID. It quits once the reply is in the
// transcript, not only on screen: a /exit typed while Claude still writes
// the turn out can leave a file whose last entries no longer chain to it,
// and the resumed conversation then starts at /exit (seen once on 2.1.197
// on a loaded machine).
func converse(t *testing.T, x *Tmux, claudeHome, dir string, argv []string, code string) (line, id string) {
	t.Helper()
	p := x.Start(t, dir, argv...)
	WaitClaude(p)
	p.Submit("remember "+code, typeWait)
	reply := "ACK " + code + " CODES " + code
	ReplyClaude(p, reply)
	WaitClaudeRecorded(t, claudeHome, dir, reply)
	status, screen := ExitClaude(p)
	if m := anyHintRE.FindAllStringSubmatch(screen, -1); len(m) > 0 {
		line, id = m[len(m)-1][1], m[len(m)-1][2]
	}
	if status != 0 || id == "" {
		t.Fatalf("exit %d, no hint; screen:\n%s", status, screen)
	}
	return line, id
}

// resumeLine runs a printed resume line through a shell in dir, as a person
// pasting it would, and checks that the conversation goes on with code in
// its context.
func resumeLine(t *testing.T, x *Tmux, claudeHome, dir, line, code string) {
	t.Helper()
	id := line[strings.LastIndexByte(line, ' ')+1:]
	if !strings.Contains(ClaudeTranscripts(claudeHome, dir)[id].Text, code) {
		t.Fatalf("%s: the transcript of %s does not hold %s before resuming:\n%s", line, id, code, ClaudeChain(claudeHome, dir, id))
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the transcript of %s after resuming:\n%s", id, ClaudeChain(claudeHome, dir, id))
		}
	})
	p := x.Start(t, dir, "sh", "-c", line)
	WaitClaude(p)
	p.Submit("which codes now", typeWait)
	ReplyClaude(p, "ACK now CODES "+code)
	if status, _ := ExitClaude(p); status != 0 {
		t.Errorf("%s: exit status %d", line, status)
	}
}
