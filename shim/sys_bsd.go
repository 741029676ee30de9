//go:build darwin || dragonfly || freebsd || netbsd || openbsd

// The BSDs and macOS: kqueue watches the child's exit without reaping it. A
// child that stops is not followed (the shim stays put), and Reraise cannot
// make a SIGPIPE fatal behind the runtime's back.

package shim

import (
	"os"
	"syscall"

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

// waitExit blocks until the child has exited, without reaping it: until the
// caller reaps it, its pid cannot be reused, so forwarding a signal by pid
// cannot reach an unrelated process. Should kqueue fail, it returns at once
// and the caller's reap does the waiting.
func waitExit(pid int) {
	kq, err := unix.Kqueue()
	if err != nil {
		return
	}
	defer unix.Close(kq)
	var ev, out [1]unix.Kevent_t
	unix.SetKevent(&ev[0], pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev[0].Fflags = unix.NOTE_EXIT
	for {
		n, err := unix.Kevent(kq, ev[:], out[:], nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n > 0 {
			return // ESRCH: already exited
		}
	}
}

// watchChild reports the child's exit; stops are not reported here.
func watchChild(pid int, stopped, exited chan<- struct{}) {
	waitExit(pid)
	close(exited)
}

func reraise(sig syscall.Signal) {
	_ = syscall.Kill(os.Getpid(), sig)
}

func stopSelf() {
	_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
}
