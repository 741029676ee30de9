package harness

import (
	"os"
	"path/filepath"
	"time"
)

// Harness is everything fleetcom knows about one agent CLI. The methods keep
// the six concerns of session capture apart: detecting accepted commands,
// instrumenting them, reading an ID from capture payloads, from the exit hint
// and from the tool's own store, and building the resume line. Exists and
// Title read the tool's store for a known ID.
type Harness interface {
	// Name is the tool's program name, which is also its shim's name.
	Name() string
	// Home resolves the tool's home directory from a launch environment.
	Home(getenv func(string) string) string
	// Detect classifies the arguments after the program word: an accepted form
	// (bare, or the canonical resume form) or opaque.
	Detect(args []string) (Form, bool)
	// Instrument returns what an accepted form gets at spawn.
	Instrument(f Form, ns Namespace) (Instrumentation, error)
	// ParseCapture picks the conversation ID from a capture file's payloads,
	// one per line in arrival order; "" when none qualifies.
	ParseCapture(data []byte, home string) string
	// ScrapeExit returns the ID of the last exit hint of this tool in the raw
	// tail of terminal output; "" when there is none.
	ScrapeExit(tail []byte) string
	// Correlate finds the single conversation in the tool's store that a run
	// started at spawn in cwd created; "" unless exactly one matches.
	Correlate(home, cwd string, spawn time.Time) string
	// Exists reports whether the tool's store holds a conversation for id
	// that can be resumed.
	Exists(home, cwd, id string) bool
	// Title returns a short, printable title for the conversation taken from
	// its first user prompt; "" when unknown.
	Title(home, cwd, id string) string
	// ResumeArgs returns the arguments after the program word that resume id.
	ResumeArgs(id string) ([]string, error)
}

// Form is an accepted command: the tool, the program word as the user typed
// it, and the targeted ID for the resume form ("" for a bare command).
type Form struct {
	Tool    string
	Program string
	Resume  string

	// Options are the user's own launch options of a bare command captured
	// with `[capture] options = true`; they follow the instrumentation.
	Options []string

	// end is, for the command-string form, the byte offset just past the
	// program word, where instrumentation is inserted.
	end int
}

// Namespace describes the private capture namespace of one run.
type Namespace struct {
	Dir     string     // the namespace directory holding the assets
	Capture string     // this run's capture file
	Notify  NotifyPlan // the Codex notify decision for this run

	// NoSessionFlag is set when the binary is known to reject --session-id
	// (the community grok build): the run then gets no pinned ID.
	NoSessionFlag bool

	// NewID generates pinned IDs; nil means NewID.
	NewID func() (string, error)
}

// Instrumentation is what an accepted form gets at spawn.
type Instrumentation struct {
	Args   []string // inserted right after the program word
	Env    []string // KEY=value entries added to the child's environment
	Pinned string   // the ID fixed at spawn: generated, or the resume target
}

// Environment variables fleetcom sets for the child of an instrumented run.
const (
	EnvCapture     = "FLEETCOM_CAPTURE_FILE"
	EnvNotifyChain = "FLEETCOM_NOTIFY_CHAIN"
)

// Asset names inside a capture namespace.
const (
	ClaudeSettingsAsset = "claude-settings.json"
	CodexNotifyAsset    = "codex-notify.sh"
)

// Tools returns every harness in a fixed order.
func Tools() []Harness {
	return []Harness{Claude{}, Codex{}, Grok{}}
}

// ByName returns the harness for a tool name.
func ByName(name string) (Harness, bool) {
	switch name {
	case "claude":
		return Claude{}, true
	case "codex":
		return Codex{}, true
	case "grok":
		return Grok{}, true
	}
	return nil, false
}

// homeFrom resolves a tool home: the tool's own variable, else $HOME/dot.
func homeFrom(getenv func(string) string, variable, dot string) string {
	if v := getenv(variable); v != "" {
		return filepath.Clean(v)
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, dot)
}

// newID returns ns.NewID or the default generator.
func (ns Namespace) newID() (string, error) {
	if ns.NewID != nil {
		id, err := ns.NewID()
		if err != nil {
			return "", err
		}
		return id, CheckID(id)
	}
	return NewID()
}

// captureEnv is the environment every instrumented run gets.
func (ns Namespace) captureEnv() []string {
	return []string{EnvCapture + "=" + ns.Capture}
}
