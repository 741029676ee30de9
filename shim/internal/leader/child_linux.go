//go:build linux && (amd64 || arm64)

package leader

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// What runs in the leader and in the program's process before exec. Both
// share the caller's memory and run with the caller's g register, on stacks
// Go knows nothing of: every function here is nosplit (a stack check against
// the caller's goroutine would go wrong) and norace, allocates nothing,
// writes no pointer (no write barrier), indexes nothing it cannot prove in
// range, and makes system calls only through syscall.RawSyscall6, which is
// nosplit and norace too. A call that passes a pointer calls it directly:
// the compiler then keeps what the pointer names in memory across the call
// (raw is for the calls without one). Every signal is blocked throughout,
// and the handlers are the defaults: nothing here is ever interrupted.

// leadMain is where the leader starts (cloneCall).
//
//go:nosplit
//go:norace
func leadMain(j *job) {
	lead(j)
	exit(0)
}

// programMain is where the program's process starts (cloneCall).
//
//go:nosplit
//go:norace
func programMain(j *job) {
	program(j)
	exit(127)
}

// lead is the leader's life.
//
//go:nosplit
//go:norace
func lead(j *job) {
	// Should the caller's process die, its descriptor table, which we
	// share, would keep the PTY open under the program: end with it. The
	// signal (blocked, like all) wakes the wait below; the caller's thread
	// that started us ending wakes it too, which the parent check tells
	// apart.
	raw(unix.SYS_PRCTL, unix.PR_SET_PDEATHSIG, uintptr(unix.SIGCHLD), 0)
	if ppid() != j.parent {
		return
	}
	if j.legacy != 0 {
		clearHandlers()
	}
	if _, e := raw(unix.SYS_SETSID, 0, 0, 0); e != 0 {
		fail(j, failSetup, e)
		return
	}
	if _, e := raw(unix.SYS_IOCTL, uintptr(j.tty), unix.TIOCSCTTY, 0); e != 0 {
		fail(j, failSetup, e)
		return
	}
	// vfork: we go on once the program's process has exec'd or exited.
	pid, e := cloneCall(unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_VFORK|uintptr(unix.SIGCHLD), j.childStack, 0, j, j.programPC)
	if e != 0 {
		fail(j, failSetup, syscall.Errno(e))
		return
	}
	if j.failed != 0 {
		var ws int32
		for {
			if _, _, e := syscall.RawSyscall6(unix.SYS_WAIT4, pid, uintptr(unsafe.Pointer(&ws)), 0, 0, 0, 0); e != unix.EINTR {
				break
			}
		}
		report(j)
		return
	}
	j.child = int32(pid)
	report(j)
	follow(j, pid)
}

// follow waits for the program to stop or end. A stop stops the leader too,
// with SIGSTOP, which an orphaned group does not discard: our parent sees it.
// An end is noted for our parent, and the leader exits.
//
//go:nosplit
//go:norace
func follow(j *job, pid uintptr) {
	set := uint64(1) << (unix.SIGCHLD - 1)
	for {
		var ws int32
		r, _, e := syscall.RawSyscall6(unix.SYS_WAIT4, pid, uintptr(unsafe.Pointer(&ws)), unix.WUNTRACED|unix.WNOHANG, 0, 0, 0)
		switch {
		case e == unix.ECHILD:
			return
		case e == 0 && r == pid && ws&0xff == 0x7f:
			j.stop = (ws >> 8) & 0xff
			self, _ := raw(unix.SYS_GETPID, 0, 0, 0)
			raw(unix.SYS_KILL, self, uintptr(unix.SIGSTOP), 0)
			continue
		case e == 0 && r == pid:
			j.status = ws
			j.done = 1
			return
		}
		syscall.RawSyscall6(unix.SYS_RT_SIGTIMEDWAIT, uintptr(unsafe.Pointer(&set)), 0, 0, 8, 0, 0)
		if ppid() != j.parent {
			return
		}
	}
}

// program is the program's process until exec: its own process group in the
// foreground of the PTY, its descriptors, its limit on open files and its
// signal mask as os/exec would give them, then exec.
//
//go:nosplit
//go:norace
func program(j *job) {
	j.ran = 1
	if _, e := raw(unix.SYS_SETPGID, 0, 0, 0); e != 0 {
		fail(j, failSetup, e)
		exit(127)
	}
	self, _ := raw(unix.SYS_GETPID, 0, 0, 0)
	pgrp := int32(self)
	if _, _, e := syscall.RawSyscall6(unix.SYS_IOCTL, uintptr(j.tty), unix.TIOCSPGRP, uintptr(unsafe.Pointer(&pgrp)), 0, 0, 0); e != 0 {
		fail(j, failSetup, e)
		exit(127)
	}
	if j.dir != nil {
		if _, _, e := syscall.RawSyscall6(unix.SYS_CHDIR, uintptr(unsafe.Pointer(j.dir)), 0, 0, 0, 0, 0); e != 0 {
			fail(j, failExec, e)
			exit(127)
		}
	}
	if e := placeFiles(j); e != 0 {
		fail(j, failExec, e)
		exit(127)
	}
	if j.setNofile != 0 {
		restoreNofile(j)
	}
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&j.mask)), 0, 8, 0, 0)
	_, _, e := syscall.RawSyscall6(unix.SYS_EXECVE, uintptr(unsafe.Pointer(j.path)),
		uintptr(unsafe.Pointer(j.argv)), uintptr(unsafe.Pointer(j.envv)), 0, 0, 0)
	// Back to all blocked: the handlers are the defaults, but exit is
	// what ends this process, not a signal.
	all := ^uint64(0)
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&all)), 0, 8, 0, 0)
	fail(j, failExec, e)
	exit(127)
}

// placeFiles puts the program's descriptors at 0, 1 and 2, the way os/exec
// does: first those a lower slot would overwrite go up out of the way.
//
//go:nosplit
//go:norace
func placeFiles(j *job) syscall.Errno {
	fd := j.files
	next := int32(len(fd))
	for i := 0; i < len(fd); i++ {
		if fd[i] >= next {
			next = fd[i] + 1
		}
	}
	for i := 0; i < len(fd); i++ {
		if fd[i] >= 0 && fd[i] < int32(i) {
			if _, e := raw(unix.SYS_DUP3, uintptr(fd[i]), uintptr(next), unix.O_CLOEXEC); e != 0 {
				return e
			}
			fd[i] = next
			next++
		}
	}
	for i := 0; i < len(fd); i++ {
		var e syscall.Errno
		switch {
		case fd[i] < 0:
			raw(unix.SYS_CLOSE, uintptr(i), 0, 0)
		case fd[i] == int32(i):
			_, e = raw(unix.SYS_FCNTL, uintptr(i), unix.F_SETFD, 0)
		default:
			_, e = raw(unix.SYS_DUP3, uintptr(fd[i]), uintptr(i), 0)
		}
		if e != 0 {
			return e
		}
	}
	return 0
}

// restoreNofile gives the program the limit on open files the caller
// started with, unless someone changed the caller's since Go raised it (the
// test os/exec applies).
//
//go:nosplit
//go:norace
func restoreNofile(j *job) {
	var now [2]uint64
	_, _, e := syscall.RawSyscall6(unix.SYS_PRLIMIT64, 0, unix.RLIMIT_NOFILE, 0, uintptr(unsafe.Pointer(&now)), 0, 0)
	if e != 0 || (now[0] == j.nofile[1]-1 && now[1] == j.nofile[1]) {
		syscall.RawSyscall6(unix.SYS_PRLIMIT64, 0, unix.RLIMIT_NOFILE, uintptr(unsafe.Pointer(&j.nofile)), 0, 0, 0)
	}
}

// clearHandlers sets every signal the caller handles back to its default,
// keeping those it ignores, as CLONE_CLEAR_SIGHAND does.
//
//go:nosplit
//go:norace
func clearHandlers() {
	var act, old [4]uint64 // struct sigaction; all zero is SIG_DFL
	for sig := uintptr(1); sig <= 64; sig++ {
		if sig == uintptr(unix.SIGKILL) || sig == uintptr(unix.SIGSTOP) {
			continue
		}
		if _, _, e := syscall.RawSyscall6(unix.SYS_RT_SIGACTION, sig, 0, uintptr(unsafe.Pointer(&old)), 8, 0, 0); e != 0 {
			continue
		}
		if old[0] > 1 { // neither SIG_DFL nor SIG_IGN
			syscall.RawSyscall6(unix.SYS_RT_SIGACTION, sig, uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
		}
	}
}

// fail notes what went wrong for the caller.
//
//go:nosplit
//go:norace
func fail(j *job, step int32, e syscall.Errno) {
	j.errno = int32(e)
	j.failed = step
}

// report tells the caller the start is over, one way or the other.
//
//go:nosplit
//go:norace
func report(j *job) {
	b := byte(1)
	for {
		if _, _, e := syscall.RawSyscall6(unix.SYS_WRITE, uintptr(j.report), uintptr(unsafe.Pointer(&b)), 1, 0, 0, 0); e != unix.EINTR {
			return
		}
	}
}

//go:nosplit
//go:norace
func ppid() int32 {
	r, _ := raw(unix.SYS_GETPPID, 0, 0, 0)
	return int32(r)
}

//go:nosplit
//go:norace
func exit(code uintptr) {
	for {
		raw(unix.SYS_EXIT, code, 0, 0)
	}
}

//go:nosplit
//go:norace
func raw(trap, a1, a2, a3 uintptr) (uintptr, syscall.Errno) {
	r, _, e := syscall.RawSyscall6(trap, a1, a2, a3, 0, 0, 0)
	return r, e
}
