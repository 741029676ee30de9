package harness

import "time"

// What a running conversation is doing, as the agent's evidence tells it:
// its hooks (Stater), its own record of running sessions (Viewer), and,
// where an agent has neither, the activity on its terminal (package fleet).

// State is what a run is doing now.
type State string

// The states, as status shows them.
const (
	// Starting: the CLI is coming up.
	Starting State = "starting"
	// Working: a turn is running.
	Working State = "working"
	// Waiting: the turn is done; the CLI waits for the next prompt.
	Waiting State = "waiting"
	// NeedsYou: a permission request, an approval or a question blocks it.
	NeedsYou State = "needs-you"
)

// Valid reports whether s is one of the states.
func (s State) Valid() bool {
	switch s {
	case Starting, Working, Waiting, NeedsYou:
		return true
	}
	return false
}

// StateEvent is one change a capture channel reports, in arrival order.
type StateEvent struct {
	State State
	// Why says what caused it, for a notice ("permission request");
	// "" when the state says enough.
	Why string
	// Ended: the conversation itself ended (the CLI may go on with
	// another one, as after /clear).
	Ended bool
}

// Stater is implemented by agents whose instrumentation reports state
// changes into the capture file (hooks): States reads them from the file's
// lines, oldest first. Only the main conversation's events count: a
// sub-agent's are never reported. A run whose instrumentation set up a
// state channel says so in Instrumentation.States.
type Stater interface {
	States(data []byte) []StateEvent
}

// Viewer is implemented by agents that keep their own record of what each
// running process is doing (Claude Code's sessions/<pid>.json): View reads
// it for process pid, and the time the agent says it entered that state.
// ok is false when the agent keeps no view of that process.
type Viewer interface {
	View(home string, pid int) (s State, since time.Time, ok bool)
}

// PrintableWord keeps a short word of a payload (an end reason) only when
// it is lowercase letters, underscores and dashes: it is shown, never run.
func PrintableWord(s string) string {
	if len(s) == 0 || len(s) > 40 {
		return ""
	}
	for _, c := range []byte(s) {
		if (c < 'a' || c > 'z') && c != '_' && c != '-' {
			return ""
		}
	}
	return s
}

// Signaller is implemented by agents whose CLI says what it is doing on its
// own terminal, in an operating system command it writes there (Codex's
// OSC 7501 state, Gemini CLI's window title): a channel every run has, with
// no set-up and no trust step. Signal reads one such command's payload,
// what comes between ESC ] and its terminator ("0;✋  Action Required (p)");
// ok is false when it tells nothing of the state. It runs for every
// operating system command the CLI writes, on the way its output takes to
// the terminal: it must not allocate or block.
type Signaller interface {
	Signal(osc []byte) (s State, why string, ok bool)
}

// NeedsYouTeller is implemented by agents whose channel for needs-you
// depends on the user's set-up: NeedsYouFrom says, for doctor, what tells
// fleetcom that a run started now waits for the user, given the agent's
// home and the user's hooks policy; "" when nothing does.
type NeedsYouTeller interface {
	NeedsYouFrom(home string, hooks HookPolicy) string
}

// NeedsYouFrom says what tells fleetcom that a run of a waits for the user
// (a permission or approval prompt, a question): "" when nothing does, and
// the run shows only starting, working and waiting.
func NeedsYouFrom(a Agent, home string, hooks HookPolicy) string {
	if t, ok := a.Behaviour.(NeedsYouTeller); ok {
		return t.NeedsYouFrom(home, hooks)
	}
	if _, ok := a.Behaviour.(Signaller); ok {
		return "what " + a.Display + " writes on its own terminal"
	}
	return ""
}
