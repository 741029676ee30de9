package e2e

import (
	"regexp"
	"slices"
)

// Agent is what the suite knows of one real CLI: how to install it, how a
// World is set up for it and how a test drives its TUI. Each CLI registers
// its own from its world file (<cli>_world.go); everything else in the
// suite reaches the CLIs through this table and names none of them.
type Agent struct {
	CLI CLI
	// Env is the CLI's part of a World's environment: its home, the key
	// and base URL that point it at w.API, and the switches that keep it
	// from phoning home.
	Env func(w *World) map[string]string
	// VersionEnv is what `<cli> --version` needs besides HOME, under the
	// throwaway home it runs in (it writes state even then).
	VersionEnv func(home string) []string
	// Setup writes the CLI's config files into a new World, once its
	// environment is set.
	Setup func(w *World)
	// Trust marks the project directory dir as trusted, so the CLI asks
	// nothing on its first start there.
	Trust func(w *World, dir string)
	// Ready waits until the TUI takes input and returns the screen.
	Ready func(p *Pane) string
	// Reply waits until text is on screen and the turn is over, and
	// returns the screen.
	Reply func(p *Pane, text string) string
	// Exit is what a user types to quit the TUI.
	Exit string
	// Quit quits the TUI and returns its exit status and last screen.
	Quit func(p *Pane) (int, string)
	// Hint is the exit hint printed after a turn; its last group is the ID.
	Hint *regexp.Regexp
	// Rename names the conversation the TUI is in, as its user would.
	Rename func(p *Pane, name string)
	// HintByName, when set, reports whether version r's exit hint names a
	// named conversation by its name instead of its ID.
	HintByName func(r Real) bool
	// MovedAsks: resumed in its new directory on the same machine after a
	// move, the CLI asks which directory to use, because it keeps the old
	// one where fleetcom does not write (Codex's state database).
	MovedAsks bool
	// Store is the directory the CLI keeps its conversations under.
	Store func(w *World) string
	// NoNames, when set, is why the CLI's conversations carry no name
	// apart from their title (measured): TestShimNames skips it, saying so.
	NoNames string
	// Unmovable, when set, is why fleetcom refuses to export, import or
	// move the CLI's conversations (measured): the carry and move tests
	// check that refusal instead.
	Unmovable string
	// Suspends: Ctrl-Z at the prompt stops the CLI when no fleetcom is
	// there. When it does not, the key is the CLI's own (Grok 1.0.41:
	// the prompt editor's undo).
	Suspends bool
	// SuspendKeys are the keys that stop it, when not a single Ctrl-Z
	// (Gemini 0.61.0: two, the first its input line's undo).
	SuspendKeys []string
	// AfterFg, when set, does what a user does once fg brought the CLI
	// back and it does not redraw on SIGCONT alone (Gemini 0.61.0).
	AfterFg func(p *Pane)
	// Behaviours are the version-dependent facts its tests assert.
	Behaviours []Behaviour
}

// agents are the registered CLIs, by command.
var agents = map[string]Agent{}

// registerAgent adds a CLI to the suite; each world file calls it from init.
func registerAgent(a Agent) {
	if _, dup := agents[a.CLI.Name]; dup || a.Env == nil || a.Setup == nil || a.Trust == nil ||
		a.Ready == nil || a.Reply == nil || a.Exit == "" || a.Quit == nil || a.Store == nil || a.Hint == nil {
		panic("e2e: bad or duplicate registration of " + a.CLI.Name)
	}
	for i := range a.Behaviours {
		a.Behaviours[i].CLI = a.CLI.Name
	}
	agents[a.CLI.Name] = a
}

// AgentNames are the registered CLIs' commands, ordered.
func AgentNames() []string {
	var out []string
	for name := range agents {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// agentNamed returns the registration of a command; an unknown name is a
// bug in the suite.
func agentNamed(name string) Agent {
	a, ok := agents[name]
	if !ok {
		panic("e2e: no CLI named " + name + " is registered")
	}
	return a
}

// CLIs are the real CLIs, ordered by command. A version bump of a Pinned
// means re-measuring the facts in README.md.
func CLIs() []CLI {
	var out []CLI
	for _, name := range AgentNames() {
		out = append(out, agents[name].CLI)
	}
	return out
}

// cliNamed returns the CLI of a command.
func cliNamed(name string) CLI { return agentNamed(name).CLI }
