package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Codex in the suite: its package, its World (config.toml pointing a
// provider at the fake API, each project trusted) and its screen cues.
func init() {
	registerAgent(Agent{
		CLI: CLI{Name: "codex", Package: "@openai/codex", Pinned: "0.171.0"},
		Env: func(w *World) map[string]string {
			return map[string]string{
				"CODEX_HOME": w.CodexHome(),
				// Codex reads its key from the variable its provider names.
				openaiKeyVar: "sk-fleetcom-e2e",
			}
		},
		VersionEnv: func(home string) []string { return []string{"CODEX_HOME=" + filepath.Join(home, ".codex")} },
		Setup:      func(w *World) { w.writeCodexConfig(nil) },
		Trust: func(w *World, dir string) {
			w.appendFile(filepath.Join(w.CodexHome(), "config.toml"),
				fmt.Sprintf("\n[projects.%s]\ntrust_level = \"trusted\"\n", tomlString(dir)))
		},
		Ready:     WaitCodex,
		Reply:     ReplyCodex,
		Exit:      "/quit",
		Store:     func(w *World) string { return filepath.Join(w.CodexHome(), "sessions") },
		Suspends:  true,
		Quit:      QuitCodex,
		Hint:      codexHintRE,
		MovedAsks: true,
		// Codex opens a dialog holding a suggested name: clear it, type
		// ours (measured on 0.171.0).
		Rename: func(p *Pane, name string) {
			p.Submit("/rename", typeWait)
			p.WaitFor("Rename thread", typeWait)
			p.Keys("C-u")
			p.Submit(name, typeWait)
			// Keys that arrive in a burst read as a paste to Codex, and an
			// Enter inside one is text; CI saw the dialog stay open holding
			// the name. Press Enter again, slower, until it closes.
			for i := 0; i < 5 && strings.Contains(p.Visible(), "Rename thread"); i++ {
				time.Sleep(time.Second)
				if strings.Contains(p.Visible(), "Rename thread") {
					p.Keys("Enter")
				}
			}
		},
	})
}

// CodexHome is the World's $CODEX_HOME.
func (w *World) CodexHome() string { return filepath.Join(w.Home, ".codex") }

var (
	// codexHintRE is Codex's exit hint after a turn (daemon off).
	codexHintRE = regexp.MustCompile(`To continue this session, run:\s*\n\s*codex resume ([0-9a-f-]{36})\s*\n\s*Or run codex resume and select `)
	// codexNoTurnRE is all Codex prints when quit before a prompt.
	codexNoTurnRE = regexp.MustCompile(`Session ID: ([0-9a-f-]{36})`)
	// codexMenuRE is a numbered choice of a Codex dialog, which also
	// starts with the prompt sign.
	codexMenuRE = regexp.MustCompile(`^› [0-9]+\. `)
)

// WaitCodex waits until Codex takes input: its input line (›) is the last
// thing on screen above its status line.
func WaitCodex(p *Pane) string {
	p.t.Helper()
	return p.WaitUntil("Codex's input line (›) above its status line ("+codexModel+" …)", startWait, codexReady)
}

// codexBusy is above Codex's input line while a turn runs:
// "Working (3s • esc to interrupt)".
const codexBusy = "esc to interrupt"

// codexIdle reports whether Codex takes input and runs no turn.
func codexIdle(screen string) bool {
	return codexReady(screen) && !strings.Contains(bottom(screen, busyLines), codexBusy)
}

// ReplyCodex waits until text is on screen and Codex's turn is over.
func ReplyCodex(p *Pane, text string) string { return replyOf(p, "Codex", text, codexIdle) }

// codexReady reports whether Codex's input line is the last prompt-sign
// line on screen, with its status line, which names the model, below it.
// Before the session is set up a splash screen already shows the input
// line and a footer, but no status line: quitting then leaves no session.
// Earlier turns shown on resume also start with the sign, but are followed
// by the reply (•); dialog choices are numbered.
func codexReady(screen string) bool {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	status := false
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-6; i-- {
		l := lines[i]
		if strings.HasPrefix(l, "›") {
			return status && !codexMenuRE.MatchString(l)
		}
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "  ") {
			return false
		}
		status = status || strings.HasPrefix(strings.TrimSpace(l), codexModel+" ")
	}
	return false
}

// QuitCodex quits a Codex TUI with /quit and returns its exit status and
// last screen.
func QuitCodex(p *Pane) (int, string) {
	p.t.Helper()
	p.WaitUntil("Codex idle", replyWait, codexIdle)
	p.Submit("/quit", typeWait)
	return p.WaitExit(exitWait)
}

// Codex's fake credentials and model.
const (
	openaiKeyVar = "FLEETCOM_E2E_OPENAI_KEY"
	codexModel   = "fake-model"
)

// SetCodexNotify makes argv the user's own Codex notifier in config.toml.
// Call it before the first Project.
func (w *World) SetCodexNotify(argv ...string) { w.writeCodexConfig(argv) }

// writeCodexConfig writes config.toml for the fake provider. Projects are
// appended later, so the notify line (top level) must come first.
func (w *World) writeCodexConfig(notify []string) {
	var b strings.Builder
	if len(notify) > 0 {
		q := make([]string, len(notify))
		for i, a := range notify {
			q[i] = tomlString(a)
		}
		fmt.Fprintf(&b, "notify = [%s]\n", strings.Join(q, ", "))
	}
	fmt.Fprintf(&b, `model_provider = "fake"
model = %q
check_for_update_on_startup = false

[model_providers.fake]
name = "fake"
base_url = %q
wire_api = "responses"
env_key = %q

[analytics]
enabled = false

[features]
daemon_auto_start = false
plugins = false
remote_plugin = false
apps = false
`, codexModel, w.API.URL()+"/v1", openaiKeyVar)
	w.writeFile(filepath.Join(w.CodexHome(), "config.toml"), b.String(), 0o600)
}
