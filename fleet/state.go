package fleet

import (
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// Stopped is the state of a run suspended by job control (Ctrl-Z, a stop
// signal): its CLI does nothing until it is continued. No agent reports it;
// the shim sees its child stop, and says so before it stops itself.
const Stopped harness.State = "stopped"

// ValidState reports a state a live file, or another host's answer, may
// hold: one an agent reports (harness.State.Valid), or Stopped.
func ValidState(s harness.State) bool { return s.Valid() || s == Stopped }

// QuietGap is how long a run's terminal must stay silent for the run to
// count as idle. The CLIs animate while a turn runs (Claude's and Grok's
// spinners several times a second, Codex's timer every second: measured,
// e2e/README.md), and draw nothing while they wait for a prompt, once their
// start-up screen is done.
const QuietGap = 2 * time.Second

// Tracker decides one run's state from its evidence, as it comes:
//
//   - Hook events (harness.Stater) decide, for a run whose agent reports them.
//   - Without them, the terminal does. A CLI that says its state there
//     (harness.Signaller) is taken at its word; otherwise, and between its
//     words, a prompt sent (Enter typed) starts a turn, and the turn is over
//     once the CLI has drawn nothing for QuietGap.
//   - Either way a run is starting until its first quiet moment or event.
//   - A run suspended by job control is Stopped, whatever else happens, until
//     it is continued; then it is back in the state it was stopped in (what
//     came meanwhile, a hook event read late, counts for that state).
//
// It is a plain value: no clock, no I/O; the shim feeds it, and reads the
// changes it returns. The zero Tracker is not ready: use NewTracker.
type Tracker struct {
	State  harness.State
	Since  time.Time
	Why    string
	hooked bool
	turn   time.Time // when the current turn began; zero outside one
	// under is the state a Stopped run was in, and goes back to.
	under struct {
		state harness.State
		since time.Time
		why   string
	}
}

// Change is one change of state.
type Change struct {
	From, To harness.State
	At       time.Time
	Why      string
	// Turn is how long the turn that just ended ran, on a change to
	// Waiting; zero otherwise.
	Turn time.Duration
}

// Decider says what decides a run's state.
type Decider int

const (
	// ByTerminal: the screen's text and the signals the run gets.
	ByTerminal Decider = iota
	// ByHooks: the agent reports its state changes through hooks, so the
	// terminal does not decide them.
	ByHooks
)

// NewTracker starts a run at start, its state decided by by.
func NewTracker(start time.Time, by Decider) *Tracker {
	return &Tracker{State: harness.Starting, Since: start, hooked: by == ByHooks}
}

// Hooked reports whether hooks decide the run's state.
func (t *Tracker) Hooked() bool { return t.hooked }

// set moves to s at at, and says what changed. A stopped run keeps its
// state: the change is to the state it goes back to, and told then.
func (t *Tracker) set(s harness.State, why string, at time.Time) (Change, bool) {
	if t.State == Stopped {
		if s != t.under.state || s == harness.NeedsYou && why != "" {
			t.under.state, t.under.since, t.under.why = s, at, why
		}
		return Change{}, false
	}
	if s == t.State {
		if s == harness.NeedsYou && why != "" {
			t.Why = why
		}
		return Change{}, false
	}
	c := Change{From: t.State, To: s, At: at, Why: why}
	switch {
	case s == harness.Working && t.turn.IsZero():
		t.turn = at
	case s == harness.Waiting || s == harness.Starting:
		if !t.turn.IsZero() {
			c.Turn = at.Sub(t.turn)
		}
		t.turn = time.Time{}
	}
	t.State, t.Since, t.Why = s, at, why
	return c, true
}

// Hook applies one event an agent's hook reported, seen at at.
func (t *Tracker) Hook(ev harness.StateEvent, at time.Time) (Change, bool) {
	if !ev.State.Valid() {
		return Change{}, false
	}
	why := ev.Why
	if ev.Ended {
		why = "" // an end reason says how, not why it waits
	}
	return t.set(ev.State, why, at)
}

// Submitted notes a prompt sent from the terminal (Enter typed) at at.
func (t *Tracker) Submitted(at time.Time) (Change, bool) {
	if t.hooked {
		return Change{}, false
	}
	return t.set(harness.Working, "", at)
}

// Signal applies a state the CLI itself wrote on its terminal
// (harness.Signaller), seen at at. Hooks, where a run has them, decide
// alone. A run still starting waits for its first quiet moment to be
// waiting: a CLI can say it is ready before it has drawn its screen, or
// before a resumed conversation is loaded.
func (t *Tracker) Signal(s harness.State, why string, at time.Time) (Change, bool) {
	if t.hooked || !s.Valid() || s == harness.Starting ||
		s == harness.Waiting && (t.State == harness.Starting || t.State == Stopped && t.under.state == harness.Starting) {
		return Change{}, false
	}
	return t.set(s, why, at)
}

// Quiet notes that the terminal has been silent for QuietGap, as of at.
func (t *Tracker) Quiet(at time.Time) (Change, bool) {
	switch {
	case t.State == harness.Starting:
		return t.set(harness.Waiting, "", at)
	case !t.hooked && t.State == harness.Working:
		return t.set(harness.Waiting, "", at)
	}
	return Change{}, false
}

// Stop notes that the run was suspended by job control at at.
func (t *Tracker) Stop(at time.Time) (Change, bool) {
	if t.State == Stopped {
		return Change{}, false
	}
	t.under.state, t.under.since, t.under.why = t.State, t.Since, t.Why
	c := Change{From: t.State, To: Stopped, At: at}
	t.State, t.Since, t.Why = Stopped, at, ""
	return c, true
}

// Continue notes that a stopped run was continued at at: it is back in the
// state it was stopped in, since when it entered that state (a turn that
// was running still runs).
func (t *Tracker) Continue(at time.Time) (Change, bool) {
	if t.State != Stopped {
		return Change{}, false
	}
	c := Change{From: Stopped, To: t.under.state, At: at, Why: t.under.why}
	t.State, t.Since, t.Why = t.under.state, t.under.since, t.under.why
	return c, true
}
