package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// opencode in the suite: its package, its World (a provider on the fake
// API in $XDG_CONFIG_HOME/opencode/opencode.json, and the plugin packages
// opencode would otherwise install into that folder at start) and its
// screen cues.
func init() {
	registerAgent(Agent{
		// The package's postinstall links bin/opencode.exe to the native
		// binary of the platform's package.
		CLI: CLI{Name: "opencode", Package: "opencode-ai", Pinned: "1.18.33",
			Postinstall: "postinstall.mjs", Native: true},
		Env: func(w *World) map[string]string {
			return map[string]string{
				// models.dev is fetched at start, and waited for until it
				// fails; the World has the one model it needs.
				"OPENCODE_DISABLE_MODELS_FETCH": "1",
				"OPENCODE_DISABLE_AUTOUPDATE":   "1",
				"OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
			}
		},
		Setup: (*World).SetupOpencode,
		Trust: func(*World, string) {}, // opencode asks nothing in a new directory
		Ready: WaitOpencode,
		Reply: ReplyOpencode,
		Exit:  "/exit",
		Quit:  QuitOpencode,
		Hint:  opencodeHintRE,
		Store: func(w *World) string { return filepath.Join(w.Getenv("XDG_DATA_HOME"), "opencode") },
		// Measured on 1.18.33: its terminal.suspend key.
		Suspends: true,
		// /rename replaces the title opencode generated and keeps no mark
		// that a user chose it: opencode has titles, no names apart.
		NoNames: "opencode's /rename replaces the title it generated and keeps no mark that a user chose it: its conversations have titles, no names",
		// Its conversations are rows of one SQLite database, which
		// fleetcom does not write: export, import and move are refused.
		Unmovable: "its conversations are rows of one SQLite database, which fleetcom does not write",
	})
}

var (
	// opencodeHintRE is opencode's exit text after a session with a
	// prompt: "Session <title>", then "Continue opencode -s <id>".
	opencodeHintRE = regexp.MustCompile(`Continue\s+opencode -s (ses_[0-9a-f]{12}[0-9A-Za-z]{14})`)
)

// The model of the World's config: its provider and model ID, and the
// name opencode shows for it under the input box ("Build · Fake Model").
const (
	opencodeProvider  = "fake"
	opencodeModel     = "fake-model"
	opencodeModelName = "Fake Model"
)

// opencodeReady reports whether opencode's input box is on screen: the
// agent and the configured model's name under it.
func opencodeReady(screen string) bool {
	return strings.Contains(screen, "Build · "+opencodeModelName)
}

// opencode (a Bun program that starts a server of its own and loads its
// providers) is the slowest of the CLIs on a loaded machine: measured on
// 2 cores at a load of 20 to 40, 58 s to its input box and 90 s from a
// prompt to its first request, where the others take a fraction of that.
// Its waits are twice the suite's; like them, each only bounds a wait for
// an event.
const (
	opencodeStartWait = 2 * startWait
	opencodeReplyWait = 2 * replyWait
)

// WaitOpencode waits until opencode's input box is on screen.
func WaitOpencode(p *Pane) string {
	p.t.Helper()
	return p.WaitUntil("opencode's input box (Build · "+opencodeModelName+")", opencodeStartWait, opencodeReady)
}

// opencodeBusy is in opencode's footer while a turn runs (measured on
// 1.18.33, with the fake API holding a reply: "esc interrupt").
const opencodeBusy = "esc interrupt"

// opencodeIdle reports whether opencode takes input and runs no turn.
func opencodeIdle(screen string) bool {
	return opencodeReady(screen) && !strings.Contains(bottom(screen, busyLines), opencodeBusy)
}

// ReplyOpencode waits until text is on screen and opencode's turn is over.
// The text may show before the turn's answer: opencode titles the session
// first, and the fake API answers the title request as it answers the
// prompt; idle tells the two apart.
func ReplyOpencode(p *Pane, text string) string {
	p.t.Helper()
	return p.WaitUntil(strconv.Quote(text)+" and opencode idle", opencodeReplyWait, func(s string) bool {
		return strings.Contains(s, text) && opencodeIdle(s)
	})
}

// QuitOpencode quits the TUI with /exit and returns its exit status and
// last screen.
func QuitOpencode(p *Pane) (int, string) {
	p.t.Helper()
	p.WaitUntil("opencode idle", opencodeReplyWait, opencodeIdle)
	p.Submit("/exit", typeWait)
	return p.WaitExit(exitWait)
}

// OpencodeConfig is the World's opencode config folder.
func (w *World) OpencodeConfig() string {
	return filepath.Join(w.Getenv("XDG_CONFIG_HOME"), "opencode")
}

// SetupOpencode makes opencode run offline against the fake API: a
// provider of the OpenAI-compatible kind, its one model the default, no
// sharing, no update. opencode installs its plugin package
// (@opencode-ai/plugin of its own version, about 23 MB) into the config
// folder at every start that finds it missing, from the npm registry,
// which the World's proxy refuses: it then waits out npm's retries. So the
// folder gets the packages of the opencode on the World's PATH, installed
// once per version and test process from the suite's npm cache, as hard
// links.
func (w *World) SetupOpencode() {
	w.t.Helper()
	dir := w.OpencodeConfig()
	w.writeFile(filepath.Join(dir, "opencode.json"), fmt.Sprintf(`{
  "$schema": "https://opencode.ai/config.json",
  "autoupdate": false,
  "share": "disabled",
  "model": %q,
  "provider": {
    %q: {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Fake",
      "options": {"baseURL": %q, "apiKey": "sk-fleetcom-e2e-opencode"},
      "models": {%q: {"name": %q}}
    }
  }
}
`, opencodeProvider+"/"+opencodeModel, opencodeProvider, w.API.URL()+"/v1", opencodeModel, opencodeModelName), 0o600)
	version := w.realVersion("opencode")
	if version == "" {
		return // no opencode on this World's PATH: nothing will start it
	}
	if opencodePluginModules == nil {
		return
	}
	modules, err := opencodePluginModules(version)
	if err != nil {
		if required() {
			w.t.Fatalf("opencode %s: its plugin packages: %v", version, err)
		}
		w.t.Skipf("opencode %s: its plugin packages cannot be installed: %v", version, err)
	}
	if err := linkTree(modules, filepath.Join(dir, "node_modules")); err != nil {
		w.t.Fatal(err)
	}
	w.writeFile(filepath.Join(dir, "package.json"),
		fmt.Sprintf("{\n  \"dependencies\": {\n    \"@opencode-ai/plugin\": %q\n  }\n}", version), 0o644)
}

// realVersion is the version of the npm package the World's PATH holds
// command from, "" when it holds none.
func (w *World) realVersion(command string) string {
	for _, dir := range w.path {
		p := filepath.Join(dir, command)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		// <prefix>/node_modules/.bin/<command>, installed by Install.
		if filepath.Base(dir) != ".bin" {
			return ""
		}
		prefix := filepath.Dir(filepath.Dir(dir))
		if _, v, ok := strings.Cut(filepath.Base(prefix), "@"); ok {
			return v
		}
		return ""
	}
	return ""
}

// opencodePluginModules returns the node_modules folder that holds
// @opencode-ai/plugin of an opencode version and its dependencies. The
// suite's test files set it (opencode_plugins_test.go): they own its
// scratch directory and npm cache.
var opencodePluginModules func(version string) (string, error)

// linkTree makes to a copy of the tree from of hard links (symlinks as
// symlinks), so that every World gets its own folder at no cost.
func linkTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		default:
			if err := os.Link(p, dst); err != nil {
				data, rerr := os.ReadFile(p)
				if rerr != nil {
					return err
				}
				fi, _ := d.Info()
				return os.WriteFile(dst, data, fi.Mode().Perm())
			}
			return nil
		}
	})
}
