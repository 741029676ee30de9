package shim

import (
	"os"
	"os/signal"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"
)

// Signals.
//
// While a child runs, the shim acts for it. On the pipe path the child shares
// our process group and terminal, so the keyboard's SIGINT and SIGQUIT reach it
// directly; the shim drops them, as a shell does while it waits for a
// foreground job. SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2 sent to the shim are
// forwarded to the child. On the PTY path the keyboard cannot signal the shim
// (our terminal is raw: ^C is a byte, which the child's own line discipline
// turns into SIGINT for the child), so every one of those signals that does
// reach the shim was sent on purpose, and goes to the child's process group
// (the child leads a process group of its own, see jobs.go). SIGWINCH copies
// our terminal's size to the PTY, SIGCHLD tells the PTY loop that the child
// may have stopped, SIGCONT that the shim was continued (jobs.go), and
// SIGTSTP goes to the child's group, which suspends as it would have.
//
// While no child runs (before one starts, after it exited, while the run is
// recorded) a signal has the effect it has on a program that does not catch
// it: SIGTERM, SIGHUP, SIGINT and SIGQUIT end the shim, our terminal restored
// first if a PTY session had it raw, by re-raising the signal so that the
// shell sees the death it expects (SIGQUIT without a core file). A SIGHUP
// after a hang-up reached the child is the exception: it repeats the
// hang-up the run is being recorded for. So is a SIGINT or SIGQUIT after
// a child on the pipe path died of that signal: the keyboard's, whose copy
// for the shim the kernel may deliver after the child's exit was seen.
// SIGUSR1, SIGUSR2, SIGWINCH, SIGCHLD and SIGCONT are ignored, as the Go
// runtime ignores them when nobody asked for them, and SIGTSTP stops the
// shim.
// On the pipe path, where the child is in our process group and got the
// keyboard's SIGTSTP itself, SIGTSTP stops the shim too.
//
// A signal that was ignored when the shim started is left alone: never
// caught, so it stays ignored and the child inherits the ignore, as from a
// shell (nohup, the background jobs of a script). Caught signals are reset to
// their defaults in the child by the runtime.
//
// Catching a signal with os/signal costs a round trip to a thread of the
// runtime's per signal, 10-60 µs each on the machines the benchmarks run on,
// and letting it go again costs as much; eight signals caught and released
// on every run would add half a millisecond or more to it. So the signals are
// caught once per process, in the background (WarmSignals, or the first
// Spawn), and never let go: one relay goroutine decides, as each signal
// arrives, what it does, from the children registered with it. That
// decision, not the catching, is what gives a signal its default effect while
// no child runs.
//
// The catching comes in three parts. TERM, HUP, INT and QUIT are caught
// first, and Spawn waits for them before it makes our terminal raw and starts
// the child: uncaught, the runtime would die of them, leaving the terminal raw
// or the child unaware. USR1 and USR2 are caught right after, while the child
// starts: until then the runtime drops them, which is also the kindest thing
// to do with one that comes before the child could have set up a handler of
// its own (their default action ends a process). Waiting for their two round
// trips too cost 0.05-0.1 ms of every start. WINCH, CHLD, CONT and TSTP only
// matter to a PTY session's loop, and the runtime leaves them to their default
// effect while nobody asked for them, so they are caught once a child has run
// on a PTY for restDelay: their round trips, made while a child starts,
// compete with it for the two processors (2-4 % of a short run, paired). Then
// every PTY session copies the size again and looks for a stop, so that a
// resize or a stop in a child's first moments is followed late rather than
// missed.
var (
	fatalSignals = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT}
	userSignals  = []os.Signal{syscall.SIGUSR1, syscall.SIGUSR2}
	loopSignals  = []os.Signal{syscall.SIGWINCH, syscall.SIGCHLD}
)

var relay struct {
	once    sync.Once
	ready   chan struct{} // closed once fatalSignals are caught
	rest    chan struct{} // closed to have loopSignals caught
	asked   sync.Once     // closes rest
	c       chan os.Signal
	barrier os.Signal // one of the caught signals, for exitBarrier

	// actions is held while the runtime changes a signal's action for the
	// relay (catch) and while stopAs changes one behind its back.
	actions sync.Mutex

	mu       sync.Mutex
	children []*child // the runs of Spawn in progress
	// hungUp: a hang-up reached a running child (our terminal closed, or
	// a SIGHUP passed on). A SIGHUP after the child's exit only says so
	// again, while the run is still to be recorded.
	hungUp bool
	// keyed is the keyboard's signal (SIGINT, SIGQUIT) that the last child
	// on the pipe path died of, 0 for none. The terminal sent it to the
	// shim as well, and the kernel may hand the shim its copy after the
	// child's exit was seen: that copy only says so again.
	keyed syscall.Signal
}

// childState is where a registered child is in its life, as the relay sees
// it.
type childState int

const (
	childStarting childState = iota // registered, not started
	childRunning
	childExited // its exit mark has gone through the relay
)

// child is a run of Spawn as the relay sees it. The relay reads it, and
// Spawn changes it, only with relay.mu held.
type child struct {
	pid    int
	group  bool // the PTY path: signals go to the child's process group
	state  childState
	wake   int      // the PTY loop's wake pipe (write end), or -1
	tty    *rawTerm // our terminal while a PTY session may have it raw
	reaped bool     // about to be reaped: signal it no more
	done   bool     // Spawn is done with it: dropped at its exit mark

	marked bool // Spawn's own: the exit mark was sent

	// sent is the first signal that ends a program which the shim passed
	// on to the child while it ran (SIGHUP too when the PTY loop hung it
	// up); 0 for none. through is closed once its exit mark went through
	// the relay, so every signal that came before its exit was acted on.
	sent    syscall.Signal
	through chan struct{}

	// diedOf is the signal the child died of, 0 if it exited or it is not
	// known; set before its exit mark is sent.
	diedOf syscall.Signal
}

// WarmSignals starts catching the signals Spawn acts on in the background,
// and returns at once; Spawn waits for the fatal signals before it starts a
// child. Calling it early, as soon as a child is known to be wanted, takes
// that cost off the path to the child. It changes nothing for signals that
// arrive while no child runs.
func WarmSignals() {
	relay.once.Do(func() {
		relay.ready, relay.rest = make(chan struct{}), make(chan struct{})
		relay.c = make(chan os.Signal, 16)
		go relayLoop()
	})
}

// signalsReady waits until the fatal signals are caught.
func signalsReady() {
	WarmSignals()
	<-relay.ready
}

// catchRest has loopSignals caught, now; it does not wait for it.
func catchRest() {
	WarmSignals()
	relay.asked.Do(func() { close(relay.rest) })
}

// Test hooks, nil in production: hookRelay is called by the relay with each
// signal or exit mark it takes, before it acts on it; hookRest once the rest
// of the signals are caught.
var hookRelay, hookRest func()

// restDelay is how long a child runs on a PTY before loopSignals are caught.
const restDelay = 20 * time.Millisecond

func relayLoop() {
	if caught := catch(fatalSignals); len(caught) > 0 {
		relay.barrier = caught[0]
	}
	close(relay.ready)
	// Spawn is most likely waiting for ready: let it have this thread now
	// rather than wait for another one to be woken up for it (0.1-0.2 ms).
	runtime.Gosched()
	catch(userSignals)
	rest := relay.rest
	for {
		select {
		case v := <-relay.c:
			if hookRelay != nil {
				hookRelay()
			}
			relay.mu.Lock()
			if m, ok := v.(exitMark); ok {
				m.c.state = childExited
				relay.keyed = 0
				if !m.c.group && keyboard(m.c.diedOf) {
					relay.keyed = m.c.diedOf
				}
				close(m.c.through)
				if m.c.done {
					remove(m.c)
				}
			} else {
				dispatch(v.(syscall.Signal))
			}
			relay.mu.Unlock()
		case <-rest:
			rest = nil
			relay.actions.Lock()
			catch(loopSignals)
			catch(jobSignals)
			relay.actions.Unlock()
			if hookRest != nil {
				hookRest()
			}
			// A resize or a stop may have gone unseen until now.
			relay.mu.Lock()
			for _, c := range relay.children {
				if c.wake >= 0 {
					nudge(c.wake, wakeWinch)
					nudge(c.wake, wakeChild)
				}
			}
			relay.mu.Unlock()
		}
	}
}

// catch relays those of sigs that were not ignored when the shim started,
// and returns them.
func catch(sigs []os.Signal) []os.Signal {
	var take []os.Signal
	for _, sig := range sigs {
		if !signal.Ignored(sig) {
			take = append(take, sig)
		}
	}
	if len(take) > 0 { // Notify with none would catch them all
		signal.Notify(relay.c, take...)
	}
	return take
}

// dispatch acts on one signal; relay.mu is held.
func dispatch(sig syscall.Signal) {
	running, stop := false, false
	for _, c := range relay.children {
		if c.state != childRunning {
			continue
		}
		running = true
		if c.sent == 0 && endsRun(sig) && (c.group || forwardPlain(sig)) {
			c.sent = sig
		}
		if sig == syscall.SIGHUP {
			relay.hungUp = true
		}
		switch {
		case c.reaped:
		case sig == syscall.SIGWINCH || sig == syscall.SIGCHLD || sig == syscall.SIGCONT:
			if c.wake >= 0 {
				nudge(c.wake, wakeByte(sig))
			}
		case sig == syscall.SIGTSTP && !c.group:
			stop = true
		case c.group:
			forwardGroup(c.pid, sig)
		case forwardPlain(sig):
			_ = syscall.Kill(c.pid, sig)
		}
	}
	if stop || (!running && sig == syscall.SIGTSTP) {
		// What SIGTSTP does when not caught. relay.mu stays held: nothing
		// runs while the shim is stopped anyway.
		stopAs(sig)
		return
	}
	if running || !endsIdle(sig) {
		return
	}
	if sig == syscall.SIGHUP && relay.hungUp {
		// The hang-up that ended the run, again: a closed terminal sends
		// one to the shim and another as the processes on it go, and the
		// second may come while the run is recorded. Dying of it would
		// lose that record; the shim dies of the child's own signal once
		// it is written (Finish).
		return
	}
	if sig == relay.keyed {
		// The keypress that ended the run on the pipe path, the shim's
		// copy: the run is recorded, and then the shim dies of the child's
		// signal (Finish), as it would have.
		return
	}
	// No child runs: the signal's own effect. Spawn cannot start a child
	// meanwhile, as that needs relay.mu, which this keeps.
	for _, c := range relay.children {
		if c.tty != nil {
			c.tty.restore()
		}
	}
	Reraise(sig)
}

// A child's exit and the signals.
//
// A signal sent to both the shim and the child (the keyboard's ^C on the pipe
// path, a hang-up of the terminal, a kill of every process named claude) came
// while the child ran, though the child may die of it, and be seen to, before
// the relay has acted on the shim's copy; it must not end the shim, whose
// run is still to be recorded. So the exit, once seen, goes to the relay as a
// mark behind every signal the runtime has taken by then: the relay acts on
// those as the child still runs, and treats the child as exited from the mark
// on. Spawn does not wait for it: a child Spawn is done with before its mark
// went through stays listed, signalled no more, until the mark drops it.

// exitMark is a child's exit, queued behind the signals in the relay's
// channel.
type exitMark struct{ c *child }

func (exitMark) String() string { return "exit" }
func (exitMark) Signal()        {}

// register adds c to the children the relay acts for; relay.mu must be held.
func register(c *child) { relay.children = append(relay.children, c) }

// remove drops c from the children; relay.mu must be held.
func remove(c *child) {
	relay.children = slices.DeleteFunc(relay.children, func(x *child) bool { return x == c })
}

// exited tells the relay that c has exited.
func exited(c *child) {
	if c.marked {
		return
	}
	exitBarrier()
	c.marked = true
	c.through = make(chan struct{})
	relay.c <- exitMark{c}
}

// sentTo is the first signal that ends a program which the shim passed on
// to c while it ran, 0 for none: once every signal that reached the shim
// before c exited has gone through the relay. A hang-up of our terminal
// reaches the child and the shim together on the pipe path, and the child
// may be gone before the relay has taken the shim's copy.
func sentTo(c *child) syscall.Signal {
	if c.through != nil {
		<-c.through
	}
	relay.mu.Lock()
	defer relay.mu.Unlock()
	return c.sent
}

// hungUp notes that the shim hung the child up itself (its own terminal
// is gone), unless a signal passed on came first.
func hungUp(c *child) {
	relay.mu.Lock()
	if c.sent == 0 {
		c.sent = syscall.SIGHUP
	}
	relay.hungUp = true
	relay.mu.Unlock()
}

// endsRun reports the signals that, passed on to a child, end its run
// without its user having quit it: a hang-up, a termination, or an
// interrupt or quit sent to the shim (the keyboard's reach the child, not
// the shim, on a PTY; on the pipe path the shim does not pass them on).
func endsRun(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT, syscall.SIGQUIT:
		return true
	}
	return false
}

// exitBarrier returns once every signal the runtime has taken so far is in
// the relay's channel: Stop on a channel of its own waits for that, and the
// relay's hold on the signal keeps it caught.
func exitBarrier() {
	if relay.barrier == nil {
		return // nothing is caught, so nothing can be on its way
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, relay.barrier)
	signal.Stop(c)
}

// reaping marks c as about to be reaped: its pid may be reused once it is.
func reaping(c *child) {
	relay.mu.Lock()
	c.reaped = true
	relay.mu.Unlock()
}

// release ends Spawn's part in c: after it returns the relay no longer
// touches c's wake pipe or terminal. c stays listed until its exit mark, if
// one is on its way, has gone through.
func release(c *child) {
	relay.mu.Lock()
	c.wake, c.tty, c.reaped, c.done = -1, nil, true, true
	if !c.marked || c.state == childExited {
		remove(c)
	}
	relay.mu.Unlock()
}

// keyboard reports the signals a terminal sends its foreground process
// group when a key asks for them (^C, ^\).
func keyboard(sig syscall.Signal) bool {
	return sig == syscall.SIGINT || sig == syscall.SIGQUIT
}

// endsIdle reports whether sig ends the shim while no child runs.
func endsIdle(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT:
		return true
	}
	return false
}

// The bytes the relay writes to a PTY loop's wake pipe.
const (
	wakeWinch = 'w'
	wakeChild = 'c'
	wakeCont  = 'o'
	wakeAside = 'a' // Aside has bytes for our terminal
)

func wakeByte(sig syscall.Signal) byte {
	switch sig {
	case syscall.SIGWINCH:
		return wakeWinch
	case syscall.SIGCONT:
		return wakeCont
	}
	return wakeChild
}

// nudge writes b to a non-blocking pipe; a full pipe already holds a wake-up.
func nudge(fd int, b byte) {
	_, _ = syscall.Write(fd, []byte{b})
}

// forwardPlain reports whether a signal caught on the pipe path goes to the
// child: the keyboard's signals reached it already, and so did a resize and a
// continuation of the job.
func forwardPlain(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGINT, syscall.SIGQUIT, syscall.SIGWINCH, syscall.SIGCONT, syscall.SIGTSTP:
		return false
	}
	return true
}

// forwardGroup signals the process group of a child that leads its own group
// on a PTY, or the child alone if that fails.
func forwardGroup(pid int, sig syscall.Signal) {
	if syscall.Kill(-pid, sig) != nil {
		_ = syscall.Kill(pid, sig)
	}
}

// Reraise ends the calling process with sig, so that whoever waits for the
// shim sees what the child died of (a shell stops a script when its job died
// of SIGINT, for instance). Call it after the terminal is restored, as the last
// thing before exiting. It returns only if sig does not end a process; the
// caller then exits with 128+sig. A signal that would dump core ends the
// process without leaving a core file of the shim.
func Reraise(sig syscall.Signal) {
	signal.Reset(sig)
	reraise(sig)
}
