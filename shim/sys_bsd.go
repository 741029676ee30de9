//go:build darwin || dragonfly || freebsd || netbsd || openbsd

// The BSDs and macOS: kqueue watches the child's exit without reaping it.
// There is no session leader between the shim and the child (package
// leader), so the child's process group is orphaned and ^Z does not stop it;
// a child that stops anyway (SIGSTOP) is not followed (the shim stays put).
// Reraise cannot make a SIGPIPE fatal behind the runtime's back.

package shim

import (
	"fmt"
	"os"
	"syscall"

	"github.com/creack/pty"
	"github.com/fleetcom/fleetcom/internal/safe"
	"golang.org/x/sys/unix"
)

const (
	ioctlGetTermios = unix.TIOCGETA
	ioctlSetTermios = unix.TIOCSETA
)

// newPipe returns a non-blocking, close-on-exec pipe (read end, write end).
func newPipe() (int, int, error) {
	var p [2]int
	syscall.ForkLock.RLock()
	err := unix.Pipe(p[:])
	if err == nil {
		unix.CloseOnExec(p[0])
		unix.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return -1, -1, err
	}
	for _, fd := range p {
		if err := unix.SetNonblock(fd, true); err != nil {
			unix.Close(p[0])
			unix.Close(p[1])
			return -1, -1, err
		}
	}
	return p[0], p[1], nil
}

// openPTY opens a new PTY pair: the master non-blocking, for the copy loop to
// poll, the slave blocking, for the child; both close-on-exec.
func openPTY() (master int, slave *os.File, err error) {
	m, s, err := pty.Open()
	if err != nil {
		return -1, nil, fmt.Errorf("open pty: %w", err)
	}
	defer m.Close()
	fd, err := unix.FcntlInt(m.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err == nil {
		if err = unix.SetNonblock(fd, true); err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		s.Close()
		return -1, nil, fmt.Errorf("pty master: %w", err)
	}
	return fd, s, nil
}

// exitWatch returns a descriptor that polls readable once the child has
// exited: a kqueue watching it. It returns -1 when there is none to be had.
func exitWatch(pid int) int {
	kq, err := unix.Kqueue()
	if err != nil {
		return -1
	}
	unix.CloseOnExec(kq)
	var ev [1]unix.Kevent_t
	unix.SetKevent(&ev[0], pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev[0].Fflags = unix.NOTE_EXIT
	for {
		_, err := unix.Kevent(kq, ev[:], nil, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			unix.Close(kq)
			return -1 // ESRCH: already gone; the caller's watcher covers it
		}
		return kq
	}
}

// childStopped: stops are not followed here.
func childStopped(pid int) bool { return false }

// waitExit blocks until the child has exited, without reaping it: until the
// caller reaps it, its pid cannot be reused, so forwarding a signal by pid
// cannot reach an unrelated process. Should kqueue fail, it returns at once
// and the caller's reap does the waiting. What the child died of is not
// known before the reap here: it returns 0.
func waitExit(pid int) syscall.Signal {
	kq := exitWatch(pid)
	if kq < 0 {
		return 0
	}
	defer unix.Close(kq)
	var out [1]unix.Kevent_t
	for {
		n, err := unix.Kevent(kq, nil, out[:], nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n > 0 {
			return 0
		}
	}
}

func reraise(sig syscall.Signal) {
	_ = syscall.Kill(os.Getpid(), sig)
}

// jobSignals: none are caught here, as stops are not followed.
var jobSignals []os.Signal

// stopAs stops the process with SIGSTOP and returns once it is continued.
func stopAs(syscall.Signal) {
	_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
}

// physicalDir returns the current directory the way the store keeps it,
// symlinks resolved.
func physicalDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("current directory: %w", err)
	}
	return safe.Physical(wd)
}
