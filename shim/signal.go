package shim

import (
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
)

// Signals while a child runs.
//
// On the pipe path the child shares our process group and terminal, so the
// keyboard's SIGINT and SIGQUIT reach it directly; the shim catches and drops
// them, as a shell does while it waits for a foreground job. SIGTERM, SIGHUP,
// SIGUSR1 and SIGUSR2 sent to the shim are forwarded to the child.
//
// On the PTY path the keyboard cannot signal the shim (our terminal is raw: ^C
// is a byte, which the child's own line discipline turns into SIGINT for the
// child). Every signal in the list that does reach the shim was sent on
// purpose, and goes to the child's process group (the child leads a session of
// its own). SIGWINCH copies our terminal's size to the PTY.
//
// A signal that was ignored when the shim started is left alone: not caught,
// so the child inherits the ignore as it would from a shell (nohup, the
// background jobs of a script). Caught signals are reset to their defaults in
// the child by the runtime.
var forwarded = []os.Signal{
	syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2,
}

type signals struct{ c chan os.Signal }

// The signals are caught once per process and never let go. Catching them
// the first time starts a thread of the runtime's and letting go waits for
// it to idle: together half a millisecond on the path between a command and
// its child, which WarmSignals takes off that path by starting early, in the
// background. Signals that arrive after Spawn returned (while the run is
// recorded, just before the shim exits) are not acted on; one that arrives
// before the child starts is forwarded to it once it has.
var caught struct {
	once sync.Once
	c    chan os.Signal
}

func catchSignals() {
	caught.c = make(chan os.Signal, 16)
	for _, sig := range append(forwarded[:len(forwarded):len(forwarded)], syscall.SIGWINCH) {
		if !signal.Ignored(sig) {
			signal.Notify(caught.c, sig)
		}
	}
}

// WarmSignals starts catching the signals Spawn forwards without waiting
// for it; Spawn waits if it is not done by then.
func WarmSignals() {
	if !warming.Swap(true) {
		go caught.once.Do(catchSignals)
	}
}

var warming atomic.Bool

func newSignals() *signals {
	caught.once.Do(catchSignals)
	return &signals{c: caught.c}
}

// forwardPlain reports whether a signal caught on the pipe path goes to the
// child: the keyboard's signals reached it already, and so did a resize.
func forwardPlain(sig os.Signal) bool {
	return sig != syscall.SIGINT && sig != syscall.SIGQUIT && sig != syscall.SIGWINCH
}

// forwardGroup signals the process group of a child that leads its own
// session, or the child alone if that fails.
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
