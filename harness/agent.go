package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// An agent CLI is described by a Spec for what is data (names, home, ID
// grammar, resume spelling, namespace files, proven versions) and a
// Behaviour for what needs code (instrumentation, the exit hint, the
// store's word on a conversation), with the optional capabilities its CLI
// allows (capability.go). Every other package reaches agents only through
// the list (package agents).

// Spec is the part of an agent's description that is data.
type Spec struct {
	// Name is the program name: the shim's name, the agent's config table
	// and the tool of its records. Lowercase letters and digits.
	Name string
	// Display is the agent's name for people ("Claude Code").
	Display string
	// HomeVar names the environment variable that moves the agent's home;
	// HomeDir is the home under $HOME when it is unset (".claude").
	HomeVar, HomeDir string
	// HomeVarBase says that HomeVar stands for $HOME instead of naming the
	// home: the home is $HomeVar/HomeDir (Gemini's GEMINI_CLI_HOME).
	HomeVarBase bool
	// HomeDefault, when set, is the home under $HOME when HomeVar is
	// unset, for an agent whose HomeVar is a base directory of another
	// kind than $HOME (opencode: $XDG_DATA_HOME/opencode, else
	// ~/.local/share/opencode).
	HomeDefault string
	// ID is the exact grammar of the agent's conversation IDs (a pointer,
	// so that a Spec that names a shared grammar is static data).
	ID *Grammar
	// Resume is how the canonical resume line names a conversation, which
	// is also the accepted resume form.
	Resume Spelling
	// Dropped are the launch options that select a conversation or a
	// one-shot run: they never survive into a resume line.
	Dropped []string
	// Commands are the launch options whose value can make the CLI run a
	// command (hooks, a notifier, an MCP server): a run may give them, but
	// they are never remembered, and never replayed whatever a record says.
	// An entry is an option ("--settings"), or an option and the key its
	// value sets ("-c notify").
	Commands []string
	// Assets are the files a run of this agent needs in its private capture
	// namespace; nothing else is written there.
	Assets []Asset
	// Proven are the versions the real-CLI suite passed on, oldest first.
	Proven []string
	// Naming says, for the help, how a user names a conversation in the
	// CLI ("Grok's /rename"); "" when the agent keeps no names (Namer).
	Naming string
	// Banners are texts the CLI prints with its exit hint ("Resume this
	// session with:"): seeing one without reading a hint is drift.
	Banners []string
	// Widening are the launch options that widen what the agent may do
	// without asking (fleet.Widening): restore names them before it starts
	// a conversation with them again. Read from the CLI's --help at the
	// Proven versions, older spellings kept.
	Widening []Widener
	// CapturesNewOnly says that the capture channel names the conversations
	// a run creates, never one it resumes (opencode's session.created): a
	// resumed run owes it nothing, and its silence then is no drift.
	CapturesNewOnly bool
	// Live, when set, names the file where the agent itself keeps the
	// session its running processes have open: one file of its home, of the
	// run's project or of the pinned session. It is asked once, at spawn
	// (c.PID is 0 then), and "" means no such file for this run. A run whose
	// instrumentation sets up no capture file follows it instead, through
	// the agent's Capturer.
	Live func(c Capture) string
}

// Widener is one launch option that widens an agent's permissions: by
// itself, or with one of Values (compared without quotes or spaces).
type Widener struct {
	Option string
	Values []string
}

// Grammar is the exact shape of one agent's conversation IDs. Every ID that
// reaches a command line or a path passes Valid: it is the validation
// boundary, one per agent and as strict as the agent's IDs allow.
type Grammar struct {
	Name        string                       // for messages: "uuid"
	Valid       func(s string) bool          // s is a whole ID
	ValidPrefix func(s string, min int) bool // s may begin an ID and has at least min characters
}

// UUID is the grammar of lowercase 8-4-4-4-12 UUIDs.
var UUID = Grammar{Name: "lowercase hex in the 8-4-4-4-12 shape", Valid: safe.UUID, ValidPrefix: safe.UUIDPrefix}

// Spelling is how a resume names a conversation after the program word:
// Words, then the ID as its own word, or joined to the last word with '='
// when Joined (--resume=<id>).
type Spelling struct {
	Words  []string
	Joined bool
}

// Args returns the arguments that resume id.
func (s Spelling) Args(id string) []string {
	if s.Joined && len(s.Words) > 0 {
		args := slices.Clone(s.Words)
		args[len(args)-1] += "=" + id
		return args
	}
	return append(slices.Clone(s.Words), id)
}

// Match returns the ID of args when they are exactly this spelling.
func (s Spelling) Match(args []string) (string, bool) {
	n := len(s.Words)
	if s.Joined {
		if len(args) != n || n == 0 || !slices.Equal(args[:n-1], s.Words[:n-1]) {
			return "", false
		}
		return strings.CutPrefix(args[n-1], s.Words[n-1]+"=")
	}
	if len(args) != n+1 || !slices.Equal(args[:n], s.Words) {
		return "", false
	}
	return args[n], true
}

// Asset is one file a run's hook or notifier needs.
type Asset struct {
	// Name is the file's name, or folder/file for a file that goes in a
	// folder of its own, for a CLI that is handed a directory (Copilot's
	// --plugin-dir): Run.Assets then gives the file's path, in that folder.
	// One file per folder.
	Name string
	Mode os.FileMode
	Data []byte
	// Stable assets outlive the run: written once per runtime root under a
	// name carrying a hash of their content, never removed. A file the CLI
	// may still open after the shim is gone (a notifier started just as it
	// exits, a settings file its printed resume line names) must be stable.
	Stable bool
}

// Behaviour is the part of an agent's description that needs code and that
// every agent has: instrumenting an accepted command, reading the ID from
// the exit hint, and asking the agent's own store whether a conversation is
// there to resume. Everything else an agent may or may not be able to do is
// an optional interface of its own (capability.go): an agent implements the
// ones its CLI allows, and writes no stubs for the others.
type Behaviour interface {
	// Instrument returns what an accepted form gets at spawn.
	Instrument(f Form, run Run) (Instrumentation, error)
	// ScrapeExit returns the ID of the last exit hint in the raw tail of
	// terminal output; "" when there is none.
	ScrapeExit(tail []byte) string
	// Exists reports whether the store holds a resumable conversation id.
	Exists(home, cwd, id string) bool
}

// Diagnoser is implemented by agents with something of their own to say in
// `fleetcom doctor` (Codex: what happens to the user's notifier).
type Diagnoser interface {
	Diagnose(home string) []Note
}

// Note is one line an agent adds to the doctor's report.
type Note struct {
	Name   string // stable, for scripts: "codex.notify"
	OK     bool   // false: worth the user's attention, not a failure
	Detail string
}

// Agent is one agent CLI: its Spec and its Behaviour.
type Agent struct {
	*Spec
	Behaviour
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

// Run is what an agent's instrumentation may use of one run.
type Run struct {
	Assets   map[string]string // where each of the agent's Assets is, by name
	Capture  string            // this run's capture file, in its private namespace
	Home     string            // the agent's home for this run
	Binary   string            // the real binary the run starts, when known
	CacheDir string            // a directory an agent may keep what it learned about binaries in
	// NewID generates pinned IDs; nil means the agent's own generator.
	NewID func() (string, error)
	// Hooks is the user's choice ([<agent>] hooks in config.toml) for hooks
	// the agent makes people review before they run (Codex).
	Hooks HookPolicy
}

// HookPolicy says whether a run gets state hooks that its agent asks the
// user to trust first.
type HookPolicy int

const (
	// HooksAuto: only once the user has trusted them.
	HooksAuto HookPolicy = iota
	// HooksOn: always; the agent asks the user to review them until trusted.
	HooksOn
	// HooksOff: never.
	HooksOff
)

// Capture is what a capture channel's reader knows of the run.
type Capture struct {
	Home    string    // the agent's home
	Cwd     string    // the run's directory, physical
	PID     int       // the child's process ID, 0 before it started
	Started time.Time // when the run began
	Pinned  string    // the ID fixed at spawn, "" when none
}

// Instrumentation is what an accepted form gets at spawn.
type Instrumentation struct {
	Args   []string // inserted right after the program word
	Env    []string // KEY=value entries added to the child's environment
	Pinned string   // the ID fixed at spawn: generated, or the resume target
	// States: the capture file will carry the run's state changes, which
	// the agent's Stater reads.
	States bool
}

// Environment variables fleetcom sets for the child of an instrumented run.
const (
	EnvCapture     = "FLEETCOM_CAPTURE_FILE"
	EnvNotifyChain = "FLEETCOM_NOTIFY_CHAIN"
)

// ValidateID returns an error naming the value when id is not one of the
// agent's IDs.
func (a *Spec) ValidateID(id string) error {
	if !a.ID.Valid(id) {
		return fmt.Errorf("invalid session id %q: %s wants %s", id, a.Name, a.ID.Name)
	}
	return nil
}

// Home resolves the agent's home from a launch environment: its own
// variable, else $HOME plus its directory.
func (a *Spec) Home(getenv func(string) string) string {
	if v := getenv(a.HomeVar); v != "" {
		if a.HomeVarBase {
			return filepath.Join(filepath.Clean(v), a.HomeDir)
		}
		return filepath.Clean(v)
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	if a.HomeDefault != "" {
		return filepath.Join(home, a.HomeDefault)
	}
	return filepath.Join(home, a.HomeDir)
}

// HomeHelp describes HomeVar for the manual.
func (a *Spec) HomeHelp() string {
	if a.HomeVarBase && a.HomeDefault != "" {
		return "the base of " + a.Display + "'s home, read for its conversations: $" + a.HomeVar + "/" +
			a.HomeDir + " (default: ~/" + a.HomeDefault + ")"
	}
	if a.HomeVarBase {
		return "stands for $HOME for " + a.Display + ": its home, read for its conversations, is $" + a.HomeVar + "/" +
			a.HomeDir + " (default: ~/" + a.HomeDir + ")"
	}
	return a.Display + "'s home, read for its conversations (default: ~/" + a.HomeDir + ")"
}

// BinVar names the variable that points fleetcom at the agent's real binary.
func (a *Spec) BinVar() string { return "FLEETCOM_" + strings.ToUpper(a.Name) + "_BIN" }

// HopVar names the variable that carries the agent's hop record (see shim).
func (a *Spec) HopVar() string { return "FLEETCOM_" + strings.ToUpper(a.Name) + "_HOP" }

// Detect classifies the arguments after the program word: the bare command,
// or the canonical resume form with one valid ID.
func (a *Spec) Detect(args []string) (Form, bool) {
	if len(args) == 0 {
		return Form{Tool: a.Name}, true
	}
	if id, ok := a.Resume.Match(args); ok && a.ID.Valid(id) {
		return Form{Tool: a.Name, Resume: id}, true
	}
	return Form{}, false
}

// ResumeArgs returns the arguments after the program word that resume id.
func (a *Spec) ResumeArgs(id string) ([]string, error) {
	if err := a.ValidateID(id); err != nil {
		return nil, err
	}
	return a.Resume.Args(id), nil
}

// ProvenOn reports whether version is one of Proven: the real-CLI suite
// passed on it.
func (a *Spec) ProvenOn(version string) bool { return slices.Contains(a.Proven, version) }

// PinID returns an ID to pin a new conversation to: one from r.NewID,
// checked against the agent's grammar g, or a v4 UUID.
func (r Run) PinID(g *Grammar) (string, error) {
	if r.NewID == nil {
		return safe.NewUUID(), nil
	}
	id, err := r.NewID()
	if err != nil {
		return "", err
	}
	if !g.Valid(id) {
		return "", fmt.Errorf("generated session id %q is not %s", id, g.Name)
	}
	return id, nil
}

// CaptureEnv is the environment every instrumented run gets: where its
// capture file is.
func (r Run) CaptureEnv() []string {
	return []string{EnvCapture + "=" + r.Capture}
}
