// Package copilot is fleetcom's knowledge of GitHub's Copilot CLI: its
// Spec and Behaviour, the plugin whose hooks report a run's session and
// state (hooks.go), its session folders (store.go, find.go, and the few
// lines of YAML fleetcom reads and edits, yaml.go) and moves (move.go). It
// exports one value, Agent, which the list (harness/agents) names.
package copilot

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// spec describes GitHub's Copilot CLI (measured on 1.0.102, e2e/README.md). A
// bare command gets a pinned ID (--session-id, which creates the session when
// the ID is new and resumes it when it exists, so only a fresh ID is ever
// pinned), and both accepted forms get fleetcom's plugin (--plugin-dir, a
// stable folder of the capture root) whose hooks copy the session's ID into
// the capture file and note each change of state there (hooks.go).
var spec = harness.Spec{
	Name:    "copilot",
	Display: "Copilot",
	HomeVar: "COPILOT_HOME",
	HomeDir: ".copilot",
	ID:      &harness.UUID,
	// --resume=<id>, joined: the form Copilot prints and documents. The
	// other spellings (--resume <id>, -r) stay opaque.
	Resume: harness.Spelling{Words: []string{"--resume"}, Joined: true},
	Dropped: []string{"--resume", "-r", "--continue", "--session-id", "-p", "--prompt", "-i", "--interactive",
		"--name", "-n", "--connect", "-C"},
	// An MCP config names its servers' commands; a plugin directory brings
	// its hooks.
	Commands: []string{"--additional-mcp-config", "--plugin-dir"},
	// Stable: the folder's path is where Copilot keeps the plugin's data
	// (~/.copilot/plugin-data/_direct/<hash of it>), so it stays the same
	// from run to run.
	Assets: []harness.Asset{
		{Name: pluginAsset, Mode: 0o600, Data: []byte(plugin), Stable: true},
		{Name: captureAsset, Mode: 0o600, Data: []byte(capturePlugin), Stable: true},
	},
	Proven:  []string{"1.0.102"},
	Banners: []string{"Resume copilot"},
	Widening: []harness.Widener{
		{Option: "--allow-all"}, {Option: "--yolo"},
		{Option: "--allow-all-tools"}, {Option: "--allow-all-paths"}, {Option: "--allow-all-urls"},
		{Option: "--allow-tool"}, {Option: "--allow-url"},
	},
	Naming: "Copilot's /rename or --name",
}

// Agent is GitHub's Copilot CLI.
var Agent = harness.Agent{Spec: &spec, Behaviour: copilot{}}

type copilot struct{}

// The capabilities copilot has: a method that drifts from its interface
// fails the build here instead of quietly dropping the capability.
var _ interface {
	harness.Behaviour
	harness.Capturer
	harness.Stater
	harness.Correlator
	harness.Titler
	harness.Excerpter
	harness.Finder
	harness.Holder
	harness.Mover
	harness.Namer
	harness.Activer
	harness.Brancher
} = copilot{}

// Instrument implements Behaviour. fleetcom's plugin goes in with every
// run: Copilot loads hooks from a plugin folder for that run only, asks no
// trust for them, and never repeats --plugin-dir in its exit hint
// (measured). Its SessionStart fires at the first prompt (in the TUI) with
// the session's ID, so a run quit before a prompt captures nothing, and
// needs nothing: no conversation is there to resume.
func (copilot) Instrument(f harness.Form, run harness.Run) (harness.Instrumentation, error) {
	in := harness.Instrumentation{Pinned: f.Resume}
	if f.Resume != "" {
		if err := spec.ValidateID(f.Resume); err != nil {
			return harness.Instrumentation{}, err
		}
	} else {
		id, err := freshID(run)
		if err != nil {
			return harness.Instrumentation{}, err
		}
		if id != "" {
			in.Args, in.Pinned = []string{"--session-id", id}, id
		}
	}
	asset := pluginAsset
	if run.Hooks == harness.HooksOff {
		asset = captureAsset
	}
	if p := run.Assets[asset]; p != "" {
		in.Args = append([]string{"--plugin-dir", filepath.Dir(p)}, in.Args...)
		in.Env = run.CaptureEnv()
		in.States = run.Hooks != harness.HooksOff
	}
	return in, nil
}

// freshID returns an ID no session of the home has: --session-id
// resumes a session that exists. A generator that gives only IDs in use
// gets none pinned; the capture and the hint still name the session.
func freshID(run harness.Run) (string, error) {
	for range 3 {
		id, err := run.PinID(spec.ID)
		if err != nil {
			return "", err
		}
		if _, err := os.Lstat(filepath.Join(sessionsDir(run.Home), id)); os.IsNotExist(err) {
			return id, nil
		}
	}
	return "", nil
}

// captureLine is the part of a capture line ParseCapture reads.
type captureLine struct {
	Event     string `json:"hook_event_name"`
	SessionID string `json:"session_id"`
}

// ParseCapture implements Capturer: the latest SessionStart, which fires at
// the first prompt of each session the run has (after /clear, the new one).
func (copilot) ParseCapture(data []byte, _ harness.Capture) string {
	id := ""
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if !bytes.Contains(line, []byte(`"SessionStart"`)) {
			continue
		}
		var p captureLine
		if json.Unmarshal(line, &p) == nil && p.Event == "SessionStart" && spec.ID.Valid(p.SessionID) {
			id = p.SessionID
		}
	}
	return id
}

// hint is the Resume line of Copilot's exit summary:
// `Resume     copilot --resume=<id>`, on stderr after -p, beside the logo
// in the TUI; none when no prompt was sent in a new session.
var hint = harness.Hint{Spec: &spec, Words: [][]string{{"--resume"}}, Joined: true}

// ScrapeExit implements Behaviour.
func (copilot) ScrapeExit(tail []byte) string {
	return harness.ScrapeTail(tail, hint.Last)
}

// Exists implements Behaviour: a session folder whose log holds a prompt,
// belonging to cwd.
func (copilot) Exists(home, cwd, id string) bool {
	_, ok := sessionOf(home, cwd, id)
	return ok
}

// Title implements Titler: the first prompt.
func (copilot) Title(home, cwd, id string) string {
	if s, ok := sessionOf(home, cwd, id); ok {
		return harness.CleanTitle(s.head.prompt)
	}
	return ""
}

// Excerpt implements Excerpter: the prompts and Copilot's answers.
func (copilot) Excerpt(home, cwd, id string, n, m int) harness.Excerpt {
	x := harness.NewExcerptBuilder(n, m)
	s, ok := sessionOf(home, cwd, id)
	if !ok {
		return x.Excerpt()
	}
	harness.EachLine(filepath.Join(s.dir, "events.jsonl"), func(line []byte) bool {
		if !isMessage(line) {
			return true
		}
		var e event
		if json.Unmarshal(line, &e) == nil {
			switch e.Type {
			case "user.message":
				x.Add("user", e.Data.Content)
			case "assistant.message":
				x.Add("assistant", e.Data.Content)
			}
		}
		return true
	})
	return x.Excerpt()
}

// Correlate implements Correlator: the single session of cwd whose log was
// written since the spawn and began then.
func (copilot) Correlate(home, cwd string, spawn time.Time) string {
	entries, err := os.ReadDir(sessionsDir(home))
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range entries {
		if !e.IsDir() || !spec.ID.Valid(e.Name()) {
			continue
		}
		dir := filepath.Join(sessionsDir(home), e.Name())
		if lastModified(dir).Before(spawn.Add(-harness.SpawnSlack)) {
			continue
		}
		s, ok := readSession(dir, e.Name())
		if !ok || !s.head.ok || !s.belongs(cwd) || s.head.started.Before(spawn.Add(-harness.SpawnSlack)) {
			continue
		}
		if found != "" {
			return ""
		}
		found = e.Name()
	}
	return found
}
