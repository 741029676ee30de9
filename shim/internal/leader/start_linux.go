//go:build linux && (amd64 || arm64)

package leader

import (
	"fmt"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/fleetcom/fleetcom/shim/internal/rlimit"
	"golang.org/x/sys/unix"
)

// job is the memory the caller, the leader and the program's process share
// (CLONE_VM). The caller fills the first part before the leader exists and
// changes nothing in it afterwards; the leader and the program fill the
// second, the caller reads it after an event that orders it (the report on
// the pipe, the leader's stop or exit, seen through the kernel).
type job struct {
	path, dir  *byte
	argv, envv **byte
	files      [3]int32
	tty        int32
	report     int32 // write end of the pipe the leader reports its start on
	parent     int32 // the caller's pid
	legacy     int32 // the leader came from clone(2): it clears the handlers itself
	mask       uint64
	nofile     [2]uint64
	setNofile  int32   // restore nofile in the program, as os/exec does
	childStack uintptr // top of the program's stack, for the vfork
	programPC  uintptr // where programMain's code starts
	args       cloneArgs

	pidfd  int32 // the leader's, written by clone
	ran    int32 // the program's process has run
	child  int32 // the program's pid, once it is exec'd
	failed int32 // failSetup or failExec, with errno
	errno  int32
	stop   int32 // the signal that stopped the program last
	status int32 // the program's wait status, once done is 1
	done   int32
}

// What went wrong before the program ran.
const (
	failSetup = 1 // the leader's or the program's process's own setup
	failExec  = 2 // the program could not be started (chdir, descriptors, exec)
)

// cloneArgs is struct clone_args up to tls (CLONE_ARGS_SIZE_VER0).
type cloneArgs struct {
	flags, pidfd, childTID, parentTID, exitSignal, stack, stackSize, tls uint64
}

// stackSize is each stack's size, the leader's and the program's process's:
// their code runs nosplit, in a few hundred bytes.
const stackSize = 8 << 10

func (j *job) loadStop() int32 { return atomic.LoadInt32(&j.stop) }

func (j *job) loadStatus() (syscall.WaitStatus, bool) {
	if atomic.LoadInt32(&j.done) == 0 {
		return 0, false
	}
	return syscall.WaitStatus(atomic.LoadInt32(&j.status)), true
}

// Start starts the leader, which starts the program, and returns once the
// program has been exec'd. An error that the program could not be started
// (not found, not runnable) is an *os.PathError, as from os.StartProcess;
// ErrUnsupported means nothing was started.
func Start(s Spec) (*Leader, error) {
	path, err := syscall.BytePtrFromString(s.Path)
	if err != nil {
		return nil, &os.PathError{Op: "fork/exec", Path: s.Path, Err: err}
	}
	argv, err := syscall.SlicePtrFromStrings(s.Args)
	if err != nil {
		return nil, &os.PathError{Op: "fork/exec", Path: s.Path, Err: err}
	}
	envv, err := syscall.SlicePtrFromStrings(s.Env)
	if err != nil {
		return nil, &os.PathError{Op: "fork/exec", Path: s.Path, Err: err}
	}
	var dir *byte
	if s.Dir != "" {
		if dir, err = syscall.BytePtrFromString(s.Dir); err != nil {
			return nil, &os.PathError{Op: "fork/exec", Path: s.Path, Err: err}
		}
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, ErrUnsupported
	}
	defer unix.Close(p[0])
	defer unix.Close(p[1])

	stacks := make([]byte, 2*stackSize)
	j := &job{
		path: path, dir: dir, argv: &argv[0], envv: &envv[0],
		tty: int32(s.TTY), report: int32(p[1]), parent: int32(os.Getpid()),
		childStack: top(stacks[:stackSize]), programPC: codeOf(programMain), pidfd: -1,
	}
	for i, fd := range s.Files {
		j.files[i] = int32(fd)
	}
	if soft, hard, ok := rlimit.Nofile(); ok {
		j.nofile, j.setNofile = [2]uint64{soft, hard}, 1
	}
	l := &Leader{j: j, keep: []any{path, dir, argv, envv, stacks}}
	hold(l)

	// Like os/exec: no descriptor made without close-on-exec slips into
	// the program meanwhile.
	syscall.ForkLock.Lock()
	pid, err := clone(j, stacks[stackSize:])
	reported := err == nil && awaitReport(p[0], int(j.pidfd))
	syscall.ForkLock.Unlock()
	if err != nil {
		l.Release()
		return nil, ErrUnsupported
	}
	if !reported || j.failed != 0 {
		unix.Close(int(j.pidfd))
		reap(pid)
		l.Release()
		switch {
		case j.failed == failExec:
			return nil, &os.PathError{Op: "fork/exec", Path: s.Path, Err: syscall.Errno(j.errno)}
		case j.failed == failSetup, j.ran == 0:
			return nil, ErrUnsupported
		}
		return nil, fmt.Errorf("session leader ended before reporting the start of %s", s.Path)
	}
	l.Pid, l.Child, l.PidFD = pid, int(j.child), int(j.pidfd)
	return l, nil
}

// top is the highest 16-byte aligned address in b, for a stack that grows
// down from there.
func top(b []byte) uintptr {
	return (uintptr(unsafe.Pointer(&b[0])) + uintptr(len(b))) &^ 15
}

// clone starts the leader on stack, with every signal blocked (it never
// unblocks them; the program unblocks what the caller had unblocked) and no
// handler of the caller's: clone3's CLONE_CLEAR_SIGHAND, or on kernels
// without it clone(2) and the leader clearing them itself.
func clone(j *job, stack []byte) (int, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	all := ^uint64(0)
	if _, _, e := syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK,
		uintptr(unsafe.Pointer(&all)), uintptr(unsafe.Pointer(&j.mask)), 8, 0, 0); e != 0 {
		return 0, e
	}
	base := uintptr(unsafe.Pointer(&stack[0]))
	j.args = cloneArgs{
		flags:      unix.CLONE_VM | unix.CLONE_FILES | unix.CLONE_CLEAR_SIGHAND | unix.CLONE_PIDFD,
		pidfd:      uint64(uintptr(unsafe.Pointer(&j.pidfd))),
		exitSignal: uint64(unix.SIGCHLD),
		stack:      uint64(base),
		stackSize:  uint64(top(stack) - base),
	}
	pid, e := cloneCall(unix.SYS_CLONE3, uintptr(unsafe.Pointer(&j.args)), unsafe.Sizeof(j.args), 0, j, codeOf(leadMain))
	if e != 0 {
		j.legacy = 1
		pid, e = cloneCall(unix.SYS_CLONE, unix.CLONE_VM|unix.CLONE_FILES|unix.CLONE_PIDFD|uintptr(unix.SIGCHLD),
			top(stack), uintptr(unsafe.Pointer(&j.pidfd)), j, codeOf(leadMain))
	}
	_, _, _ = syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK,
		uintptr(unsafe.Pointer(&j.mask)), 0, 8, 0, 0)
	if e != 0 {
		return 0, syscall.Errno(e)
	}
	return int(pid), nil
}

// awaitReport waits until the leader has written its report, or has exited
// without one; it returns whether the report came.
func awaitReport(r, pidfd int) bool {
	fds := []unix.PollFd{{Fd: int32(r), Events: unix.POLLIN}, {Fd: int32(pidfd), Events: unix.POLLIN}}
	for {
		if _, err := unix.Poll(fds, -1); err != nil && err != unix.EINTR {
			return false
		}
		if fds[0].Revents != 0 {
			var b [1]byte
			n, err := unix.Read(r, b[:])
			if err == unix.EINTR {
				continue
			}
			return n == 1
		}
		if fds[1].Revents != 0 {
			return false
		}
	}
}

// reap waits for the leader after a failed start; it exits right after its
// report.
func reap(pid int) {
	var ws syscall.WaitStatus
	for {
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
			return
		}
	}
}

// cloneCall makes the clone system call trap with arguments a1 to a3. In the
// new process, on the stack those arguments give it, it calls the function
// whose code starts at entry (see codeOf) with j; in the caller it returns
// the new pid, or the error number. Written in assembly: the new process
// starts on a stack Go knows nothing of.
//
// The entry is an address, not a Go function named in the assembly: a name
// there reaches the function through a wrapper the compiler makes, and in a
// race-detector build that wrapper calls the race runtime, which switches to
// the system stack of the caller's thread. The new process shares that memory
// with a caller that may be using it right then; both could crash (seen as a
// program "killed" by SIGSEGV, now and then, in the race-enabled tests).
//
//go:noescape
func cloneCall(trap, a1, a2, a3 uintptr, j *job, entry uintptr) (r1, errno uintptr)

// codeOf is where f's code starts, in Go's internal calling convention: a
// func value holds that address. Taken in Start, not in a package variable,
// so that a process that starts no leader runs nothing of this package.
func codeOf(f func(*job)) uintptr { return **(**uintptr)(unsafe.Pointer(&f)) }
