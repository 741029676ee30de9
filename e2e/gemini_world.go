package e2e

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Google's Gemini CLI in the suite: its package, its World (GEMINI_CLI_HOME,
// the fake API's key and base URL, settings.json choosing the API key,
// each project trusted in trustedFolders.json) and its screen cues.
func init() {
	registerAgent(Agent{
		CLI: CLI{Name: "gemini", Package: "@google/gemini-cli", Pinned: "0.61.0"},
		Env: func(w *World) map[string]string {
			return map[string]string{
				// GEMINI_CLI_HOME stands for $HOME: the home is
				// $GEMINI_CLI_HOME/.gemini, which fleetcom follows.
				"GEMINI_CLI_HOME":        filepath.Join(w.Home, "gemini home"),
				"GEMINI_API_KEY":         geminiKey,
				"GOOGLE_GEMINI_BASE_URL": w.API.URL(),
			}
		},
		VersionEnv: func(home string) []string { return []string{"GEMINI_CLI_HOME=" + home} },
		Setup:      (*World).SetupGemini,
		Trust:      trustGemini,
		Ready:      WaitGemini,
		Reply:      ReplyGemini,
		Exit:       "/quit",
		Quit:       QuitGemini,
		Hint:       geminiHintRE,
		Store:      func(w *World) string { return filepath.Join(w.GeminiHome(), "tmp") },
		// Measured on 0.61.0: a first Ctrl-Z undoes the last edit of the
		// input line (after a turn it brings the prompt just sent back)
		// and a second one, pressed quickly, suspends.
		Suspends:    true,
		SuspendKeys: []string{"C-z", "C-z"},
		AfterFg:     afterFgGemini,
		NoNames: "Gemini CLI 0.61.0 keeps no name for a conversation: it has no /rename (typed, it goes to the model as " +
			"a prompt), and /resume save <tag> saves a checkpoint, not a name",
		Behaviours: []Behaviour{
			{Name: "stub-on-later-resume", Since: "0.61.0",
				What: "gemini --resume <id> in a later minute than the session began leaves a second, two-line file named by its short ID, which the session cleanup at the next start of another session deletes with the conversation"},
		},
	})
}

// The fake credentials.
const geminiKey = "fleetcom-e2e-gemini-key"

var (
	// geminiHintRE is the hint of Gemini's exit box, printed after /quit
	// (also before any prompt) and a double Ctrl-C, never after SIGTERM or
	// SIGHUP. A narrow pane wraps it between the box's borders.
	geminiHintRE = regexp.MustCompile(`To resume this session:[\s│]*gemini[\s│]+--resume[\s│]+([0-9a-f-]{36})`)
	// geminiSessionRE is the Session ID line of the box.
	geminiSessionRE = regexp.MustCompile(`Session ID:\s+([0-9a-f-]{36})`)
)

// GeminiHome is the World's Gemini home, $GEMINI_CLI_HOME/.gemini.
func (w *World) GeminiHome() string { return filepath.Join(w.Getenv("GEMINI_CLI_HOME"), ".gemini") }

// SetupGemini makes Gemini run offline against the fake API: settings.json
// chooses the API key, and turns off the update check and the usage
// statistics, which would only be refused by the fake's proxy.
func (w *World) SetupGemini() {
	w.t.Helper()
	w.writeJSON(filepath.Join(w.GeminiHome(), "settings.json"), map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"general":  map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
	})
}

// trustGemini trusts dir in the file Gemini's own folder-trust dialog
// writes, merging into what is there; without it Gemini asks first.
func trustGemini(w *World, dir string) {
	w.t.Helper()
	p := filepath.Join(w.GeminiHome(), "trustedFolders.json")
	m := map[string]any{}
	if b, err := os.ReadFile(p); err == nil {
		json.Unmarshal(b, &m)
	}
	m[dir] = "TRUST_FOLDER"
	w.writeJSON(p, m)
}

// geminiInput is the placeholder of Gemini's empty input line.
const geminiInput = ">   Type your message"

// geminiBanner heads Gemini's screen once it has started. Its input line
// shows a few seconds earlier, and an Enter pressed before the banner
// (measured on 0.61.0) is lost.
const geminiBanner = "Gemini CLI v"

// geminiLines is how far from the bottom Gemini's input line and its
// spinner show: its footer is taller than busyLines allows for.
const geminiLines = 12

// geminiReady reports whether Gemini takes input: its banner and its empty
// input line on screen.
func geminiReady(screen string) bool {
	return strings.Contains(screen, geminiBanner) && strings.Contains(bottom(screen, geminiLines), geminiInput)
}

// WaitGemini waits until Gemini takes input. A resumed Gemini (measured
// on 0.61.0) first shows its banner and an empty input line, then takes
// the input line away while it loads the conversation ("Resuming
// session..."), and keys typed meanwhile are lost: a Gemini started with
// --resume is ready once the conversation's replies (✦) are on screen
// above its input line again.
func WaitGemini(p *Pane) string {
	p.t.Helper()
	root := p.PID()
	return p.WaitUntil("Gemini's banner and its empty input line (and a resumed conversation's replies)", startWait,
		func(s string) bool {
			if !geminiReady(s) {
				return false
			}
			return !geminiResuming(root) || strings.Contains(s, "✦") && !strings.Contains(s, "Resuming session")
		})
}

// geminiResuming reports whether a gemini below pid was started with
// --resume.
func geminiResuming(pid int) bool {
	for _, d := range descendants(pid) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(d) + "/cmdline")
		args := strings.Split(string(b), "\x00")
		if len(args) > 1 && strings.Contains(strings.Join(args, " "), "gemini") && slices.Contains(args, "--resume") {
			return true
		}
	}
	return false
}

// geminiBusy is on Gemini's spinner line while a turn runs:
// "⠸ Thinking... (esc to cancel, 3s)".
const geminiBusy = "esc to cancel"

// geminiIdle reports whether Gemini takes input and runs no turn.
func geminiIdle(screen string) bool {
	return geminiReady(screen) && !strings.Contains(bottom(screen, geminiLines), geminiBusy)
}

// ReplyGemini waits until text is on screen and Gemini's turn is over.
func ReplyGemini(p *Pane, text string) string { return replyOf(p, "Gemini", text, geminiIdle) }

// afterFgGemini brings Gemini back after fg as a user would: it redraws
// nothing until a key is pressed (measured on 0.61.0), so Ctrl-L redraws it
// and Ctrl-U clears what the suspend keys' undo put in the input line. Keys
// that reach its terminal before it has made it raw again are the line
// discipline's (Ctrl-U erases the pending line): until it shows its empty
// input line, they are pressed again, a few seconds apart.
func afterFgGemini(p *Pane) {
	p.t.Helper()
	for range 20 {
		p.Keys("C-l", "C-u")
		if eventually(5*time.Second, func() bool { return geminiReady(p.Screen()) }) {
			return
		}
	}
	p.t.Fatalf("Gemini shows no empty input line after fg and Ctrl-L; screen:\n%s", p.Screen())
}

// QuitGemini quits a Gemini TUI with /quit and returns its exit status and
// last screen.
func QuitGemini(p *Pane) (int, string) {
	p.t.Helper()
	p.WaitUntil("Gemini idle", replyWait, geminiIdle)
	typeQuitGemini(p)
	time.Sleep(enterSettle)
	p.Keys("Enter")
	// CI saw 0.61.0, loaded, show "> /quit" with its command menu open a
	// minute after the Enter: the key went to the menu, not the command.
	// As a person would, this presses Enter again while it runs on.
	for range 4 {
		if eventually(10*time.Second, func() bool { dead, _ := p.Dead(); return dead }) {
			break
		}
		p.t.Logf("gemini still running 10s after /quit: Enter again")
		p.Keys("Enter")
	}
	return p.WaitExit(exitWait)
}

// geminiQuitEntry is how Gemini's command menu describes /quit.
const geminiQuitEntry = "Exit the cli"

// typeQuitGemini types /quit and waits until Gemini's command menu offers
// it. Gemini loads its slash commands after it has drawn its input line,
// and a line submitted before they are loaded goes to the model as a
// prompt: CI saw 0.61.0 answer "ACK /quit" and run on, with a prompt in
// the session. The menu lists /quit only once the commands are there. If
// it has not shown after a while, the line is cleared and typed again.
func typeQuitGemini(p *Pane) {
	p.t.Helper()
	for range 6 {
		p.Type("/quit")
		if eventually(10*time.Second, func() bool { return strings.Contains(p.Screen(), geminiQuitEntry) }) {
			return
		}
		p.t.Logf("Gemini's menu does not offer /quit 10s after it was typed: typing it again")
		p.Keys("C-u")
	}
	p.t.Fatalf("Gemini's command menu never offered /quit; screen:\n%s", p.Screen())
}

// SettleGemini dates Gemini's session files ten minutes back. fleetcom
// does not move a Gemini conversation written in the last two minutes (a
// Gemini it cannot see may still be writing it); a test that has just quit
// the CLI would otherwise wait that out.
func (w *World) SettleGemini() {
	old := time.Now().Add(-10 * time.Minute)
	filepath.WalkDir(filepath.Join(w.GeminiHome(), "tmp"), func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			os.Chtimes(p, old, old)
		}
		return nil
	})
}
