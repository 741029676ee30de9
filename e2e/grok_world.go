package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// The xAI Grok CLI in the suite: its package, its World (config.toml with a
// custom model on the fake API, no auto-update) and its screen cues.
func init() {
	// Grok's postinstall unpacks the native binary into $GROK_HOME/bin,
	// writes $GROK_HOME/config.toml and, under npm, points the command at
	// the binary unpacked beside the node launcher.
	registerAgent(Agent{
		CLI: CLI{Name: "grok", Package: "@xai-official/grok", Pinned: "1.0.41",
			Postinstall: "bin/postinstall.js", HomeVar: "GROK_HOME", Native: true},
		Env: func(w *World) map[string]string {
			return map[string]string{"GROK_HOME": filepath.Join(w.Home, ".grok")}
		},
		VersionEnv: func(home string) []string { return []string{"GROK_HOME=" + filepath.Join(home, ".grok")} },
		Setup:      (*World).SetupGrok,
		Trust:      func(*World, string) {}, // Grok asks nothing in a new directory
		Ready:      WaitGrok,
		Reply:      ReplyGrok,
		Exit:       "/quit",
		Store:      func(w *World) string { return filepath.Join(w.GrokHome(), "sessions") },
		Quit:       QuitGrok,
		Hint:       grokHintRE,
		Rename:     func(p *Pane, name string) { p.Submit("/rename "+name, typeWait) }, // measured on 1.0.41
	})
}

var (
	// grokHintRE is Grok's exit hint. It is printed after /quit, a double
	// Ctrl-C or Ctrl-D, or SIGTERM once a prompt was sent, and after /quit
	// even before any prompt.
	grokHintRE = regexp.MustCompile(`Resume this session with:\s*\n\s*grok --resume ([0-9A-Fa-f-]{36})`)
)

// grokInputMarker starts the input line of Grok's prompt box. The model
// name of the World's config is drawn on the box's border.
const grokInputMarker = "❯"

// grokReady reports whether Grok's prompt box is on screen: the input
// marker and the configured model's name. Both are the World's own or
// the prompt's essence, not footer wording.
func grokReady(screen string) bool {
	return strings.Contains(screen, grokInputMarker) && strings.Contains(screen, grokModel)
}

// WaitGrok waits until Grok's prompt box is on screen.
func WaitGrok(p *Pane) string {
	p.t.Helper()
	return p.WaitUntil("grok's prompt box", startWait, grokReady)
}

// grokBusy is in Grok's footer's list of keys while a turn runs, which
// goes on for a while after the reply shows (Grok asks the model again to
// wrap the turn up).
const grokBusy = "Ctrl+c:cancel"

// grokIdle reports whether Grok takes input and runs no turn.
func grokIdle(screen string) bool {
	return grokReady(screen) && !strings.Contains(bottom(screen, busyLines), grokBusy)
}

// ReplyGrok waits until text is on screen and Grok's turn is over.
func ReplyGrok(p *Pane, text string) string { return replyOf(p, "Grok", text, grokIdle) }

// QuitGrok quits a Grok TUI with /quit and returns its exit status and last
// screen.
func QuitGrok(p *Pane) (int, string) {
	p.t.Helper()
	p.WaitUntil("Grok idle", replyWait, grokIdle)
	p.Submit("/quit", typeWait)
	return p.WaitExit(exitWait)
}

// The custom model the World's Grok config points at the fake API. Its key
// name ("fake") is what summary.json records as current_model_id; its model
// ID is sent to the API and drawn on the prompt box's border.
const (
	grokModel = "fake-model"
	grokKey   = "sk-fleetcom-e2e-grok"
)

// GrokHome is the World's $GROK_HOME.
func (w *World) GrokHome() string { return w.Getenv("GROK_HOME") }

// SetupGrok makes Grok run offline against the fake API: config.toml selects
// a custom model on the Chat Completions backend, and the auto-updater is
// off. Prompt suggestions are off too: they put model-written ghost text,
// code words included, in the input line, where a wait for the reply would
// find them. Grok shows no trust or onboarding screen with this.
func (w *World) SetupGrok() {
	w.t.Helper()
	w.Setenv("GROK_DISABLE_AUTOUPDATER", "1")
	w.writeFile(filepath.Join(w.GrokHome(), "config.toml"), fmt.Sprintf(`[models]
default = "fake"

[model.fake]
model = %q
base_url = %q
api_key = %q
api_backend = "chat_completions"

[cli]
auto_update = false

[ui]
prompt_suggestions = false
`, grokModel, w.API.URL()+"/v1", grokKey), 0o600)
}
