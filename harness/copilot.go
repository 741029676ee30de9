package harness

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// GitHub's Copilot CLI (measured on 1.0.102, e2e/README.md). A bare command
// gets a pinned ID (--session-id, which creates the session when the ID is
// new and resumes it when it exists, so only a fresh ID is ever pinned),
// and both accepted forms get fleetcom's plugin (--plugin-dir, a stable
// folder of the capture root) whose hooks copy the session's ID into the
// capture file and note each change of state there (copilothooks.go).
var copilotSpec = &Spec{
	Name:    "copilot",
	Display: "Copilot",
	HomeVar: "COPILOT_HOME",
	HomeDir: ".copilot",
	ID:      &UUID,
	// --resume=<id>, joined: the form Copilot prints and documents. The
	// other spellings (--resume <id>, -r) stay opaque.
	Resume: Spelling{Words: []string{"--resume"}, Joined: true},
	Dropped: []string{"--resume", "-r", "--continue", "--session-id", "-p", "--prompt", "-i", "--interactive",
		"--name", "-n", "--connect", "-C"},
	// Stable: the folder's path is where Copilot keeps the plugin's data
	// (~/.copilot/plugin-data/_direct/<hash of it>), so it stays the same
	// from run to run.
	Assets: []Asset{
		{Name: copilotPluginAsset, Mode: 0o600, Data: copilotPlugin, Stable: true},
		{Name: copilotCaptureAsset, Mode: 0o600, Data: copilotCapturePlugin, Stable: true},
	},
	Proven:  []string{"1.0.102"},
	Banners: []string{"Resume copilot"},
	Naming:  "Copilot's /rename or --name",
}

// Copilot is the agent.
var Copilot = Agent{Spec: copilotSpec, Behaviour: copilot{}}

type copilot struct{}

// The capabilities copilot has: a method that drifts from its interface
// fails the build here instead of quietly dropping the capability.
var _ interface {
	Behaviour
	Capturer
	Stater
	Correlator
	Titler
	Excerpter
	Finder
	Holder
	Mover
	Namer
	Activer
} = copilot{}

// Instrument implements Behaviour. fleetcom's plugin goes in with every
// run: Copilot loads hooks from a plugin folder for that run only, asks no
// trust for them, and never repeats --plugin-dir in its exit hint
// (measured). Its SessionStart fires at the first prompt (in the TUI) with
// the session's ID, so a run quit before a prompt captures nothing, and
// needs nothing: no conversation is there to resume.
func (copilot) Instrument(f Form, run Run) (Instrumentation, error) {
	in := Instrumentation{Pinned: f.Resume}
	if f.Resume != "" {
		if err := copilotSpec.ValidateID(f.Resume); err != nil {
			return Instrumentation{}, err
		}
	} else {
		id, err := copilotFreshID(run)
		if err != nil {
			return Instrumentation{}, err
		}
		if id != "" {
			in.Args, in.Pinned = []string{"--session-id", id}, id
		}
	}
	asset := copilotPluginAsset
	if run.Hooks == HooksOff {
		asset = copilotCaptureAsset
	}
	if p := run.Assets[asset]; p != "" {
		in.Args = append([]string{"--plugin-dir", filepath.Dir(p)}, in.Args...)
		in.Env = run.CaptureEnv()
		in.States = run.Hooks != HooksOff
	}
	return in, nil
}

// copilotFreshID returns an ID no session of the home has: --session-id
// resumes a session that exists. A generator that gives only IDs in use
// gets none pinned; the capture and the hint still name the session.
func copilotFreshID(run Run) (string, error) {
	for range 3 {
		id, err := run.PinID(copilotSpec.ID)
		if err != nil {
			return "", err
		}
		if _, err := os.Lstat(filepath.Join(copilotSessions(run.Home), id)); os.IsNotExist(err) {
			return id, nil
		}
	}
	return "", nil
}

// copilotCapture is the part of a capture line ParseCapture reads.
type copilotCapture struct {
	Event     string `json:"hook_event_name"`
	SessionID string `json:"session_id"`
}

// ParseCapture implements Capturer: the latest SessionStart, which fires at
// the first prompt of each session the run has (after /clear, the new one).
func (copilot) ParseCapture(data []byte, _ Capture) string {
	id := ""
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if !bytes.Contains(line, []byte(`"SessionStart"`)) {
			continue
		}
		var p copilotCapture
		if json.Unmarshal(line, &p) == nil && p.Event == "SessionStart" && copilotSpec.ID.Valid(p.SessionID) {
			id = p.SessionID
		}
	}
	return id
}

// copilotHint is the Resume line of Copilot's exit summary:
// `Resume     copilot --resume=<id>`, on stderr after -p, beside the logo
// in the TUI; none when no prompt was sent in a new session.
var copilotHint = Hint{Spec: copilotSpec, Words: [][]string{{"--resume"}}, Joined: true}

// ScrapeExit implements Behaviour.
func (copilot) ScrapeExit(tail []byte) string {
	return ScrapeTail(tail, copilotHint.Last)
}

// Exists implements Behaviour: a session folder whose log holds a prompt,
// belonging to cwd.
func (copilot) Exists(home, cwd, id string) bool {
	_, ok := copilotOf(home, cwd, id)
	return ok
}

// Title implements Titler: the first prompt.
func (copilot) Title(home, cwd, id string) string {
	if s, ok := copilotOf(home, cwd, id); ok {
		return CleanTitle(s.head.prompt)
	}
	return ""
}

// Excerpt implements Excerpter: the prompts and Copilot's answers.
func (copilot) Excerpt(home, cwd, id string, n, m int) Excerpt {
	x := NewExcerptBuilder(n, m)
	s, ok := copilotOf(home, cwd, id)
	if !ok {
		return x.Excerpt()
	}
	EachLine(filepath.Join(s.dir, "events.jsonl"), func(line []byte) bool {
		if !copilotMessage(line) {
			return true
		}
		var e copilotEvent
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
	entries, err := os.ReadDir(copilotSessions(home))
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range entries {
		if !e.IsDir() || !copilotSpec.ID.Valid(e.Name()) {
			continue
		}
		dir := filepath.Join(copilotSessions(home), e.Name())
		if copilotModified(dir).Before(spawn.Add(-SpawnSlack)) {
			continue
		}
		s, ok := readCopilotSession(dir, e.Name())
		if !ok || !s.head.ok || !s.belongs(cwd) || s.head.started.Before(spawn.Add(-SpawnSlack)) {
			continue
		}
		if found != "" {
			return ""
		}
		found = e.Name()
	}
	return found
}
