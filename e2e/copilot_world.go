package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// GitHub's Copilot CLI in the suite: its package, its World (the fake API
// as its own provider, offline, no auto-update, each project trusted) and
// its screen cues. Measured on 1.0.102.
func init() {
	registerAgent(Agent{
		// The command is npm's loader (node), which starts the native
		// binary of the platform package as its child.
		CLI: CLI{Name: "copilot", Package: "@github/copilot", Pinned: "1.0.102"},
		Env: func(w *World) map[string]string {
			return map[string]string{
				"COPILOT_OFFLINE": "true", "COPILOT_AUTO_UPDATE": "false",
				"COPILOT_PROVIDER_BASE_URL": w.API.URL() + "/v1", "COPILOT_PROVIDER_API_KEY": copilotKey,
				"COPILOT_MODEL": copilotModel, "COPILOT_PKG_CACHE_HOME": copilotPkgCache(w),
			}
		},
		// home is <prefix>/version-home: the version's unpacked files go
		// where its Worlds look for them (copilotPkgCache).
		VersionEnv: func(home string) []string {
			return []string{"COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false",
				"COPILOT_PKG_CACHE_HOME=" + filepath.Join(filepath.Dir(home), "copilot-pkg")}
		},
		Setup:    func(w *World) { w.writeCopilotConfig(nil) },
		Trust:    func(w *World, dir string) { w.writeCopilotConfig(append(w.copilotTrusted(), dir)) },
		Ready:    WaitCopilot,
		Reply:    ReplyCopilot,
		Exit:     "/exit",
		Quit:     QuitCopilot,
		Hint:     copilotHintRE,
		Store:    func(w *World) string { return filepath.Join(w.CopilotHome(), "session-state") },
		Suspends: true, // "Copilot has been suspended. Use `fg` to resume."
		Rename: func(p *Pane, name string) {
			p.Submit("/rename "+name, typeWait)
			p.WaitFor("Session renamed to: "+name, replyWait)
		},
	})
}

// The fake API as Copilot's provider: a model the built-in catalog does not
// know (Copilot says so once, and goes on), drawn at the footer's right end.
const (
	copilotModel = "fake-model"
	copilotKey   = "sk-fleetcom-e2e-copilot"
)

// copilotPkgCache is where Copilot unpacks itself (about 200 MB, at the
// first start of each version): beside the version's npm install, in the
// suite's shared scratch directory (`<prefix>/copilot-pkg`), so a version
// unpacks once per test process, when the rig checks its --version, never
// in each World's home. A World whose PATH has no Copilot install gets a
// folder of its own, which nothing uses.
func copilotPkgCache(w *World) string {
	for _, dir := range w.path {
		if filepath.Base(dir) != ".bin" || filepath.Base(filepath.Dir(dir)) != "node_modules" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "copilot")); err == nil {
			return filepath.Join(filepath.Dir(filepath.Dir(dir)), "copilot-pkg")
		}
	}
	return filepath.Join(w.Root, "copilot-pkg")
}

var (
	// copilotHintRE is the Resume line of Copilot's exit summary, printed
	// after a prompt, and after any resume (measured on 1.0.102).
	copilotHintRE = regexp.MustCompile(`Resume +copilot --resume=([0-9a-f-]{36})`)
)

// CopilotHome is the World's Copilot home, ~/.copilot.
func (w *World) CopilotHome() string { return filepath.Join(w.Home, ".copilot") }

// copilotConfigHead is what Copilot writes above config.json's JSON.
const copilotConfigHead = "// User settings belong in settings.json.\n// This file is managed automatically.\n"

// writeCopilotConfig writes ~/.copilot/config.json with the trusted
// folders, so a fresh home's TUI does not ask "Confirm folder trust" (-p
// never asks). Copilot keeps the file as JSON after two comment lines.
func (w *World) writeCopilotConfig(trusted []string) {
	w.t.Helper()
	if trusted == nil {
		trusted = []string{}
	}
	b, err := json.MarshalIndent(map[string]any{"trustedFolders": trusted, "appTipShown": true}, "", "  ")
	if err != nil {
		w.t.Fatal(err)
	}
	w.writeFile(filepath.Join(w.CopilotHome(), "config.json"), copilotConfigHead+string(b)+"\n", 0o600)
}

// copilotTrusted reads the trusted folders back from config.json.
func (w *World) copilotTrusted() []string {
	b, _ := os.ReadFile(filepath.Join(w.CopilotHome(), "config.json"))
	var cfg struct {
		TrustedFolders []string `json:"trustedFolders"`
	}
	if i := strings.IndexByte(string(b), '{'); i >= 0 {
		json.Unmarshal(b[i:], &cfg)
	}
	return slices.Clone(cfg.TrustedFolders)
}

// WaitCopilot waits until Copilot takes input: its input line (❯ alone
// between two rules) with the footer under it done loading. Keys typed
// while the footer says "Loading: …" can be lost (measured).
func WaitCopilot(p *Pane) string {
	p.t.Helper()
	return p.WaitUntil("Copilot's empty input line, loaded", startWait, copilotReady)
}

// copilotReady reports whether Copilot's input box is on screen, empty,
// with nothing loading.
func copilotReady(screen string) bool {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for i := len(lines) - 2; i >= 1; i-- {
		if strings.TrimSpace(lines[i]) != "❯" {
			continue
		}
		if !isRule(lines[i-1]) || !isRule(lines[i+1]) {
			return false
		}
		return i+2 >= len(lines) || !strings.Contains(lines[i+2], "Loading")
	}
	return false
}

// copilotBusy is in Copilot's footer while a turn runs ("◉ Working · esc
// esc interrupt").
const copilotBusy = "interrupt"

// copilotIdle reports whether Copilot takes input and runs no turn.
func copilotIdle(screen string) bool {
	return copilotReady(screen) && !strings.Contains(bottom(screen, busyLines), copilotBusy)
}

// ReplyCopilot waits until text is on screen and Copilot's turn is over.
func ReplyCopilot(p *Pane, text string) string { return replyOf(p, "Copilot", text, copilotIdle) }

// QuitCopilot quits a Copilot TUI with /exit and returns its exit status
// and last screen.
func QuitCopilot(p *Pane) (int, string) {
	p.t.Helper()
	p.WaitUntil("Copilot idle", replyWait, copilotIdle)
	p.Submit("/exit", typeWait)
	return p.WaitExit(exitWait)
}
