package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Claude Code in the suite: its package, its World (the fake API's key,
// the switches that keep it offline, ~/.claude.json with onboarding done,
// the key approved and each project trusted) and its screen cues.
func init() {
	registerAgent(Agent{
		CLI: CLI{Name: "claude", Package: "@anthropic-ai/claude-code", Pinned: "2.1.197", Postinstall: "install.cjs"},
		Env: func(w *World) map[string]string {
			return map[string]string{
				// Talk to the fake, skip what would phone home.
				"ANTHROPIC_BASE_URL": w.API.URL(), "ANTHROPIC_API_KEY": anthropicKey,
				"DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
				"DISABLE_TELEMETRY": "1", "DISABLE_ERROR_REPORTING": "1",
				"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
				"CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY":                  "1",
				"CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL":                    "1",
			}
		},
		VersionEnv: func(string) []string {
			return []string{"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"}
		},
		Setup: func(w *World) {
			w.writeJSON(filepath.Join(w.Home, ".claude.json"), map[string]any{
				"hasCompletedOnboarding": true,
				"customApiKeyResponses": map[string]any{
					"approved": []string{anthropicKey[len(anthropicKey)-20:]}, "rejected": []string{},
				},
				"projects": map[string]any{},
			})
		},
		Trust:    trustClaude,
		Ready:    WaitClaude,
		Reply:    ReplyClaude,
		Exit:     "/exit",
		Store:    func(w *World) string { return filepath.Join(w.ClaudeHome(), "projects") },
		Suspends: true,
		Quit:     ExitClaude,
		Hint:     claudeHintRE,
		// Measured on 2.1.197 and 2.1.332.
		Rename:     func(p *Pane, name string) { p.Submit("/rename "+name, typeWait) },
		HintByName: func(r Real) bool { return !r.Has("hint-id-when-named") },
		Behaviours: []Behaviour{
			{Name: "resume-any-dir", Since: "2.1.332",
				What: "claude --resume <id> from another directory continues the conversation; before, No conversation found, exit 1"},
			{Name: "hint-echoes-flags", Since: "2.1.332",
				What: "the exit hint repeats the launch options that pass its filter: claude <options> --resume <id>; before, claude --resume <id>"},
			{Name: "hint-id-when-named", Since: "2.1.332",
				What: "a named conversation's exit hint names its ID: claude --resume <id>; before, its name: claude --resume \"<name>\""},
			{Name: "agents-json", Since: "2.1.332",
				What: "claude agents --json lists the running sessions, each with its status: busy, idle or waiting; before, no such command"},
			{Name: "auto-mode", Since: "2.1.332",
				What: "auto is the default permission mode; with defaultMode \"default\" in settings.json a dialog asks at start whether to make auto the default"},
			{Name: "hint-env", Since: "2.1.332",
				What: "CLAUDE_CODE_RELAUNCH_RESUME_HINT_FLAGS replaces the echoed options and CLAUDE_CODE_RESUME_HINT_COMMAND the program in the exit hint; before, both ignored"},
			{Name: "trust-default-no", Since: "2.1.332",
				What: "the folder-trust prompt has \"No, exit\" selected: Enter declines, prints \"Claude Code didn't start because this folder isn't trusted.\" and exits 1 (Esc prints the same and exits 0 or, seldom, 1); before, \"1. Yes, I trust this folder\" selected, and Esc exits 1 without a word"},
		},
	})
}

// ClaudeHome is the World's ~/.claude: CLAUDE_CONFIG_DIR stays unset, as for
// most users.
func (w *World) ClaudeHome() string { return filepath.Join(w.Home, ".claude") }

// trustClaude marks dir trusted in the file Claude itself keeps up to date,
// merging into what is there.
func trustClaude(w *World, dir string) { setClaudeTrust(w, dir, true) }

// setClaudeTrust records in Claude's own ~/.claude.json whether the user
// accepted its folder-trust dialog for dir; without it Claude asks first.
func setClaudeTrust(w *World, dir string, trusted bool) {
	w.t.Helper()
	p := filepath.Join(w.Home, ".claude.json")
	var cfg map[string]any
	b, err := os.ReadFile(p)
	if err == nil {
		err = json.Unmarshal(b, &cfg)
	}
	if err != nil {
		w.t.Fatalf("read %s: %v", p, err)
	}
	projects, _ := cfg["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	entry, _ := projects[dir].(map[string]any)
	if entry == nil {
		entry = map[string]any{}
	}
	entry["hasTrustDialogAccepted"] = trusted
	projects[dir], cfg["projects"] = entry, projects
	w.writeJSON(p, cfg)
}

var (
	// claudeHintRE is Claude's exit hint after a conversation with a
	// prompt: the command line, then the ID. From 2.1.332 on the line may
	// repeat launch options between "claude" and "--resume"
	// (hint-echoes-flags). The screen is read with wrapped lines joined, so
	// a long hint is one line here.
	claudeHintRE = regexp.MustCompile(`Resume this session with:\s*\n\s*(claude[^\n]*? --resume ([0-9a-f-]{36}))`)
)

// WaitClaude waits until Claude takes input: its input box is on screen and
// empty.
func WaitClaude(p *Pane) string {
	p.t.Helper()
	return p.WaitUntil("Claude's empty input line (❯ between two rules)", startWait, claudeInputEmpty)
}

// ClaudeHint returns the command line of Claude's last exit hint on screen
// and the ID it resumes, or two empty strings.
func ClaudeHint(screen string) (line, id string) {
	all := claudeHintRE.FindAllStringSubmatch(screen, -1)
	if len(all) == 0 {
		return "", ""
	}
	m := all[len(all)-1]
	return m[1], m[2]
}

// ExitClaude quits a Claude TUI with /exit and returns its exit status and
// last screen.
func ExitClaude(p *Pane) (int, string) {
	p.t.Helper()
	p.WaitUntil("Claude idle", replyWait, claudeIdle)
	p.Submit("/exit", typeWait)
	return p.WaitExit(exitWait)
}

// ClearClaude runs /clear and waits until it has taken effect: the screen
// no longer shows gone (a text of the old conversation) and the input box is
// empty again. Typing on before then can land in the old input line.
func ClearClaude(p *Pane, gone string) {
	p.t.Helper()
	p.WaitUntil("Claude idle", replyWait, claudeIdle)
	p.Submit("/clear", typeWait)
	p.WaitUntil("/clear to take effect", replyWait, func(s string) bool {
		return !strings.Contains(s, gone) && claudeInputEmpty(s)
	})
}

// claudeBusy is in Claude's footer while a turn runs, on both versions.
const claudeBusy = "esc to interrupt"

// claudeIdle reports whether Claude takes input and runs no turn.
func claudeIdle(screen string) bool {
	return claudeInputEmpty(screen) && !strings.Contains(bottom(screen, busyLines), claudeBusy)
}

// ReplyClaude waits until text is on screen and Claude's turn is over.
func ReplyClaude(p *Pane, text string) string { return replyOf(p, "Claude", text, claudeIdle) }

// claudeInputEmpty reports whether Claude's input box is on screen and
// empty: a line holding the prompt sign alone (the terminal shows a
// no-break space after it) between two horizontal rules. Dialogs also use
// the sign, to mark a choice, but not alone and not between rules.
func claudeInputEmpty(screen string) bool {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 2; i >= 1; i-- {
		if strings.TrimSpace(lines[i]) == "❯" {
			return isNamedRule(lines[i-1]) && isRule(lines[i+1])
		}
	}
	return false
}

// isRule reports whether a line is a horizontal rule of box-drawing dashes.
func isRule(line string) bool {
	l := strings.TrimSpace(line)
	return strings.Count(l, "─") >= 10 && strings.Trim(l, "─") == ""
}

// isNamedRule is isRule for the input box's top rule, which carries the
// conversation's name near its right end once it has one (`──── wren work ─`,
// measured on 2.1.197 and 2.1.332).
func isNamedRule(line string) bool {
	l := strings.TrimSpace(line)
	if isRule(l) {
		return true
	}
	left, name, ok := strings.Cut(l, "─ ")
	name, right, ok2 := strings.Cut(name, " ─")
	return ok && ok2 && name != "" && isRule(left+"──────────") && strings.Trim(right, "─") == ""
}

// The fake credentials. Claude approves a key by its last 20 characters.
const anthropicKey = "sk-ant-api03-fleetcom-e2e-0123456789abcdefghij"
