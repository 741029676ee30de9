package shim

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// A run's live state (package fleet): its live file, written once the
// child has run a moment and at each change of state, and removed at exit;
// the Tracker that decides the state; and the notices its changes deserve.
//
// None of it is on the way to the child's start or on the copy loop. The
// copy loop only stores the time of the last output (an atomic store per
// chunk) and, for a typed Enter, nudges the watcher without blocking; every
// decision, file write and notice happens on the watcher, the capture
// follower or the provisional timer's goroutine.

// live is one run's live state.
type live struct {
	dir    fleet.Dir
	clock  clock
	warn   func(error)
	stater harness.Stater // nil: the terminal decides the state
	notice *notifier      // nil: notices are off

	lastOut   atomic.Int64 // UnixNano of the child's last output; 0 before any
	lastEnter atomic.Int64 // UnixNano of the last Enter typed
	kick      chan struct{}
	said      chan struct{} // the CLI said a new state (osc.go); nil when it says none
	osc       *oscScan      // nil when the terminal's words are not read
	pending   pendingSaid
	follower  harness.Follower // nil: the capture channel says which conversation (follow.go)
	followc   chan struct{}
	wake      chan struct{} // the state changed outside the watcher (livestop.go)
	stop      chan struct{}
	stopped   chan struct{}

	// drawn: the child's output passes through the shim (the PTY path), so
	// its start-up is over only after it has drawn something. A CLI that
	// has shown nothing yet is still loading, however long that takes on a
	// loaded machine; on the pipe path nothing is seen, and silence alone
	// ends the start.
	drawn bool

	mu       sync.Mutex
	run      fleet.Run
	tracker  *fleet.Tracker
	noticer  fleet.Noticer
	applied  int           // state events of the capture already applied
	tidied   string        // the conversation whose obsolete files went (tidy)
	started  bool          // the file was written and the watcher runs
	early    *fleet.Change // the last change before start, told then (start)
	finished bool
	failed   bool // a write failed and was reported
}

// newLive prepares a run's live state; nothing is written until start.
func newLive(dir fleet.Dir, base fleet.Run, stater harness.Stater, n *notifier, warn func(error)) *live {
	l := &live{dir: dir, clock: systemClock{}, warn: warn, stater: stater, notice: n, run: base,
		kick: make(chan struct{}, 1), wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	by := fleet.ByTerminal
	if stater != nil {
		by = fleet.ByHooks
	}
	l.tracker = fleet.NewTracker(base.Started, by)
	l.run.State, l.run.Since, l.run.Hooked = l.tracker.State, l.tracker.Since, l.tracker.Hooked()
	if n != nil {
		l.noticer.Rules = n.rules
	}
	return l
}

// output notes the child's output: the copy loop calls it for every chunk.
func (l *live) output(now time.Time) { l.lastOut.Store(now.UnixNano()) }

// words reads what the CLI says of its state in a chunk of its output
// (osc.go): the copy loop calls it for every chunk.
func (l *live) words(p []byte) {
	if l.osc != nil {
		l.osc.scan(p)
	}
}

// typed looks at what the user typed for an Enter, which sends a prompt:
// the copy loop calls it for every read of the terminal, so it only stores
// a time and nudges the watcher.
func (l *live) typed(p []byte) {
	if bytes.IndexByte(p, '\r') < 0 && bytes.IndexByte(p, '\n') < 0 {
		return
	}
	l.lastEnter.Store(l.clock.Now().UnixNano())
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// start writes the live file of the child pid, which has run a moment, and
// starts the watcher. id is the conversation's ID as known now.
func (l *live) start(pid int, id string) {
	p, ok := fleet.Identify(pid)
	if !ok {
		return // gone already, or a system that cannot tell: nothing to show
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.finished || l.started {
		return
	}
	l.started = true
	l.run.Proc, l.run.Shim, l.run.ID = p, os.Getpid(), id
	l.run.TTY = terminalName()
	l.run.Tmux = fleet.TmuxOf(os.Getenv)
	l.run.Beat = int(fleet.Beat / time.Second)
	l.write()
	go l.watch()
	go l.beat()
	l.tidy()
	// A change that came before the file (on a loaded machine the store's
	// first write can take longer than the agent takes to ask for
	// permission) is told now, if the run is still in its state.
	if c := l.early; c != nil && c.To == l.tracker.State {
		l.tell(*c)
	}
	l.early = nil
}

// tidy removes the files this run makes obsolete (fleet.Dir.Tidy): among
// them an earlier run's of its conversation, which this run resumes. It
// waits until the run is past its start-up: a resume that fails as it
// starts (an agent whose login went stale, started again by restore
// --exec) leaves the earlier run's loss for restore to offer again. Once
// per conversation. The caller holds l.mu; it runs on the goroutine that
// wrote the file, never on the child's way.
func (l *live) tidy() {
	if !l.started || l.finished || l.run.ID == "" || l.run.ID == l.tidied || l.tracker.State == harness.Starting {
		return
	}
	l.tidied = l.run.ID
	run := l.run
	l.dir.Tidy(&run)
}

// setID follows the conversation the run has open.
func (l *live) setID(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id == "" || id == l.run.ID {
		return
	}
	l.run.ID = id
	if l.started && !l.finished {
		l.write()
		l.tidy()
	}
}

// captured applies the state events in the capture file's data that were
// not applied yet.
func (l *live) captured(data []byte) {
	if l.stater == nil {
		return
	}
	events := l.stater.States(data)
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(events) < l.applied {
		l.applied = 0 // the file was cut: take it as new
	}
	now := l.clock.Now()
	changed := false
	for _, ev := range events[l.applied:] {
		if ev.Ended && ev.Why != "" {
			l.run.Ended, changed = ev.Why, true
		}
		if c, ok := l.tracker.Hook(ev, now); ok {
			l.changed(c)
			changed = true
		}
	}
	l.applied = len(events)
	if changed && l.started && !l.finished {
		l.write()
	}
}

// changed records a change of state and tells it if it deserves a notice.
// The caller holds l.mu and writes the file.
func (l *live) changed(c fleet.Change) {
	l.run.State, l.run.Since, l.run.Why = l.tracker.State, l.tracker.Since, l.tracker.Why
	l.tidy()
	l.turnEnded(c)
	switch {
	case l.notice == nil:
	case !l.started:
		l.early = &c
	default:
		l.tell(c)
	}
}

// tell sends the notice a change deserves, if any; the caller holds l.mu.
func (l *live) tell(c fleet.Change) {
	if n, ok := l.noticer.Consider(c, &l.run); ok {
		// What the conversation is called, as its agent's store says now
		// (a rename shows): a bounded read, and notices are rare.
		if a, ok := agents.Named(l.run.Tool); ok && l.run.ID != "" {
			n.ConvTitle = a.Title(l.run.Home, l.run.Cwd, l.run.ID)
			n.Name = a.ConversationName(l.run.Home, l.run.Cwd, l.run.ID)
		}
		if t := l.run.Tmux; t != nil {
			// Its window, as tmux names it now (a bounded question).
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			if panes, err := fleet.ListPanes(ctx, t.Socket); err == nil {
				c := *t
				c.Target = panes[t.Pane]
				n.Tmux = &c
			}
			cancel()
		}
		l.notice.send(n)
	}
}

// write replaces the live file; the caller holds l.mu. A failure is
// reported once: the run goes on.
func (l *live) write() {
	if err := l.dir.Write(&l.run); err != nil {
		l.fail(err)
	}
}

// fail reports the first failure of the live file; the caller holds l.mu.
func (l *live) fail(err error) {
	if !l.failed {
		l.failed = true
		l.warn(liveError{err})
	}
}

// liveError is a failure of the live file. It is reported only when
// nothing else went wrong with the run's bookkeeping: a store that cannot
// be written fails its live folder too, and one warning says it.
type liveError struct{ error }

func (e liveError) Unwrap() error { return e.error }

// watch follows the terminal: a typed Enter starts a turn of a run whose
// state the terminal decides, and QuietGap of silence ends one (and ends
// any run's start). It sleeps while nothing can change.
func (l *live) watch() {
	defer close(l.stopped)
	tick := make(chan struct{}, 1)
	timer := l.clock.AfterFunc(0, func() {
		select {
		case tick <- struct{}{}:
		default:
		}
	})
	defer timer.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-l.kick:
			l.apply(func(t *fleet.Tracker) (fleet.Change, bool) {
				return t.Submitted(time.Unix(0, l.lastEnter.Load()))
			})
		case <-l.said:
			l.heard()
		case <-l.followc:
			l.follow()
		case <-l.wake:
		case <-tick:
		}
		wait, ok := l.quietIn()
		if !ok {
			continue // nothing to wait for until the next Enter
		}
		if wait > 0 {
			timer.Reset(wait)
			continue
		}
		at := l.quietSince()
		l.apply(func(t *fleet.Tracker) (fleet.Change, bool) { return t.Quiet(at) })
	}
}

// quietIn says how long until the terminal has been silent for QuietGap,
// when silence would change the state; ok is false when it would not.
func (l *live) quietIn() (time.Duration, bool) {
	l.mu.Lock()
	s := l.tracker.State
	hooked := l.tracker.Hooked()
	l.mu.Unlock()
	if s != harness.Starting && (hooked || s != harness.Working) {
		return 0, false
	}
	if s == harness.Starting && l.drawn && l.lastOut.Load() == 0 {
		return fleet.QuietGap, true // look again once it may have drawn
	}
	return l.quietSince().Add(fleet.QuietGap).Sub(l.clock.Now()), true
}

// quietSince is when the terminal last showed output (the run's start if
// never), not earlier than the state's own start.
func (l *live) quietSince() time.Time {
	l.mu.Lock()
	since := l.tracker.Since
	l.mu.Unlock()
	if out := l.lastOut.Load(); out > since.UnixNano() {
		return time.Unix(0, out)
	}
	return since
}

// apply runs one step of the tracker and records its change. step runs
// under l.mu: it must not take it.
func (l *live) apply(step func(*fleet.Tracker) (fleet.Change, bool)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.finished {
		return
	}
	if c, ok := step(l.tracker); ok {
		l.changed(c)
		l.write()
	}
}

// finish ends the run's live state: the watcher stops, and the file goes
// when the user quit the run (end is fleet.EndQuit) or it never knew its
// conversation; otherwise it stays, saying how and when the run ended, for
// restore.
func (l *live) finish(end string) {
	l.mu.Lock()
	started, again := l.started, l.finished
	l.finished = true
	l.mu.Unlock()
	if !started || again {
		return
	}
	close(l.stop)
	<-l.stopped
	l.mu.Lock()
	defer l.mu.Unlock()
	if end != fleet.EndQuit && l.run.ID != "" {
		l.run.End, l.run.EndAt = end, l.clock.Now()
		l.write()
		return
	}
	if err := l.dir.Remove(&l.run); err != nil {
		l.fail(err)
	}
}

// terminalName is the terminal the shim runs on (/dev/pts/3), read from
// /proc; "" where there is none or no /proc.
func terminalName() string {
	for fd := 0; fd <= 2; fd++ {
		if !isTerminal(stdFile(fd)) {
			continue
		}
		if p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); err == nil && len(p) < 256 {
			return p
		}
	}
	return ""
}

// stdFile is one of the shim's standard descriptors.
func stdFile(fd int) *os.File {
	switch fd {
	case 0:
		return os.Stdin
	case 1:
		return os.Stdout
	}
	return os.Stderr
}
