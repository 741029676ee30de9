// Package leader starts a program under a small session leader on a PTY, so
// that job control works for it as it does under a shell.
//
// Why: a program that leads its own session on its own PTY, the way the shim
// used to start the CLI, is in an orphaned process group (its only member's
// parent, the shim, is in another session), and the kernel discards the
// terminal stop signals (SIGTSTP, SIGTTIN, SIGTTOU) sent to such a group. A
// TUI that reads ^Z as a byte and sends itself SIGTSTP then never stops.
// Under the leader the program's group has a parent in its own session, as a
// job of a shell has, and stops like one.
//
// The leader is a process of its own, cloned from the caller without exec:
// it shares the caller's memory and descriptor table (CLONE_VM, CLONE_FILES)
// and runs only raw system calls on a stack of its own, so it costs about
// what a thread costs, not a program's start. It makes itself the session
// leader of the PTY, starts the program (vfork and exec) in a process group
// of its own that it puts in the foreground, and follows it:
//   - When the program stops, the leader notes the signal and stops itself
//     with SIGSTOP (never discarded); its parent, the shim, sees its child
//     stop, gives the terminal back and stops in turn. Continuing the leader
//     and the program's group is the caller's part.
//   - When the program ends, the leader notes its wait status and exits, so
//     the caller reports the program's own exit code or death.
//   - When the caller's process dies, the leader exits, which hangs the
//     program up as closing its terminal would.
//
// Only Linux on amd64 and arm64 has a leader (Start returns ErrUnsupported
// elsewhere, and on kernels older than 5.2): the clone trampoline is
// assembly. The code that runs in the leader and in the program's process
// before exec must not allocate, grow its stack, or be instrumented: it is
// marked nosplit and norace, and the package has no tests of its own so that
// coverage (whose atomic counters call the race runtime) never instruments it;
// package shim tests it through Spawn, and reads its machine code to check
// that it calls nothing but itself and the raw system call.
package leader

import (
	"errors"
	"sync"
	"syscall"
)

// ErrUnsupported says that no leader could be set up here; nothing was
// started, and the caller starts the program itself.
var ErrUnsupported = errors.New("no session leader on this system")

// Spec is how the program is started.
type Spec struct {
	Path string
	Args []string
	Env  []string // as the program gets it: deduplicated
	Dir  string   // "" for the caller's
	// Files are the caller's descriptors that become the program's 0, 1
	// and 2.
	Files [3]int
	// TTY is the caller's descriptor of the PTY's slave: the leader's
	// controlling terminal, whose foreground the program's group takes.
	TTY int
}

// Leader is a started leader and program.
type Leader struct {
	Pid   int // the leader's: the caller's child, to wait for
	Child int // the program's, which leads its own process group
	// PidFD polls readable once the leader has exited. The caller closes
	// it.
	PidFD int

	j    *job
	keep []any // what the leader and the program use
}

// StopSignal returns the signal that stopped the program last, or 0. Read it
// after the leader was seen to stop.
func (l *Leader) StopSignal() syscall.Signal { return syscall.Signal(l.j.loadStop()) }

// Status returns the program's wait status, once the leader has exited after
// it; ok is false when the leader ended without one (it was killed).
func (l *Leader) Status() (ws syscall.WaitStatus, ok bool) { return l.j.loadStatus() }

// Release lets go of the leader's memory; call it once the leader has been
// reaped.
func (l *Leader) Release() {
	alive.Lock()
	delete(alive.m, l)
	alive.Unlock()
}

// alive holds every leader not released yet, so that the memory it runs in
// (its stack, among others) outlives it even if the caller loses track of it
// (a panic): the garbage collector knows nothing of the leader.
var alive struct {
	sync.Mutex
	m map[*Leader]struct{}
}

func hold(l *Leader) {
	alive.Lock()
	if alive.m == nil {
		alive.m = map[*Leader]struct{}{}
	}
	alive.m[l] = struct{}{}
	alive.Unlock()
}
