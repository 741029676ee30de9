// Linux: waitid(2) watches the child without reaping it, stops included.

package shim

import (
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)

// newPipe returns a non-blocking, close-on-exec pipe (read end, write end).
func newPipe() (int, int, error) {
	var p [2]int
	err := unix.Pipe2(p[:], unix.O_CLOEXEC|unix.O_NONBLOCK)
	return p[0], p[1], err
}

// si_code values of a SIGCHLD, as waitid reports them.
const (
	cldStopped = 5
)

// waitExit blocks until the child has exited, without reaping it: until the
// caller reaps it, its pid cannot be reused, so forwarding a signal by pid
// cannot reach an unrelated process.
func waitExit(pid int) {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
}

// watchChild is waitExit that also reports each time the child stops.
func watchChild(pid int, stopped, exited chan<- struct{}) {
	defer close(exited)
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil || info.Code != cldStopped {
			return
		}
		// Consume the stop report; WSTOPPED alone never reaps.
		_ = unix.Waitid(unix.P_PID, pid, &info, unix.WSTOPPED|unix.WNOHANG, nil)
		stopped <- struct{}{}
	}
}

// reraise sets sig's action to the default behind the runtime's back (the
// runtime would ignore a SIGPIPE, for one) and sends it to this thread, where it
// is handled before the system call returns.
func reraise(sig syscall.Signal) {
	if sig <= 0 || sig >= 65 {
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_ = unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{})
	var act [4]uint64 // a kernel sigaction, all zero: SIG_DFL, no flags
	_, _, _ = unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	var set unix.Sigset_t
	set.Val[(sig-1)/64] |= 1 << (uint(sig-1) % 64)
	_ = unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), sig)
}

// stopSelf stops the process and returns once it is continued. The signal goes
// to this thread, which stops before the system call returns; one sent to the
// process would let this thread run on for a moment, into code meant for after
// the continuation.
func stopSelf() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), unix.SIGSTOP)
}
