// Linux: a pidfd tells the PTY loop of the child's exit, waitid(2) of its
// stops; neither reaps it.

package shim

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"

	"github.com/fleetcom/fleetcom/internal/safe"
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

// si_code of a child killed by a signal, of one that dumped core, and of
// one stopped, as waitid reports them.
const (
	cldKilled  = 2
	cldDumped  = 3
	cldStopped = 5
)

// openPTY opens a new PTY pair: the master non-blocking, for the copy loop to
// poll, the slave blocking, for the child; both close-on-exec.
func openPTY() (master int, slave *os.File, err error) {
	master, err = unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return -1, nil, fmt.Errorf("open pty: %w", err)
	}
	if err := unix.IoctlSetPointerInt(master, unix.TIOCSPTLCK, 0); err != nil {
		unix.Close(master)
		return -1, nil, fmt.Errorf("unlock pty: %w", err)
	}
	// TIOCGPTPEER (Linux 4.13) opens the slave from the master, without a
	// lookup in /dev/pts.
	flags := unix.O_RDWR | unix.O_NOCTTY | unix.O_CLOEXEC
	fd, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(master), unix.TIOCGPTPEER, uintptr(flags))
	sfd := int(fd)
	if errno != 0 {
		n, err := unix.IoctlGetUint32(master, unix.TIOCGPTN)
		if err == nil {
			sfd, err = unix.Open("/dev/pts/"+strconv.Itoa(int(n)), flags, 0)
		}
		if err != nil {
			unix.Close(master)
			return -1, nil, fmt.Errorf("open pty slave: %w", err)
		}
	}
	return master, os.NewFile(uintptr(sfd), "pty"), nil
}

// exitWatch returns a descriptor that polls readable once the child has
// exited: a pidfd (Linux 5.3). It returns -1 when there is none to be had.
func exitWatch(pid int) int {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return -1
	}
	return fd
}

// childStopped reports whether the child has stopped since it was last
// asked, and consumes the report; it never reaps.
func childStopped(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WSTOPPED|unix.WNOHANG, nil)
	return err == nil && info.Signo == int32(unix.SIGCHLD) && info.Code == cldStopped
}

// waitExit blocks until the child has exited, without reaping it: until the
// caller reaps it, its pid cannot be reused, so forwarding a signal by pid
// cannot reach an unrelated process. It returns the signal the child died
// of, 0 when it exited.
func waitExit(pid int) syscall.Signal {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
	if info.Code != cldKilled && info.Code != cldDumped {
		return 0
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		return 0
	}
	// The siginfo of SIGCHLD on amd64 and arm64 (the layout differs on
	// 32-bit and MIPS systems, where the signal is left unknown): signo,
	// errno, code and a pad, then the child's pid, uid and status, which
	// for a killed child is its signal.
	status := *(*int32)(unsafe.Add(unsafe.Pointer(&info), 24))
	return syscall.Signal(status)
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

// jobSignals are the signals of job control the relay catches once a child
// has run on a PTY for a moment (signal.go).
var jobSignals = []os.Signal{syscall.SIGCONT, syscall.SIGTSTP}

// stopAs stops the process the way sig's default action does, and returns
// once it is continued. SIGTSTP, SIGTTIN and SIGTTOU are sent as themselves,
// with their default action for the moment (the relay may catch SIGTSTP), so
// that the shell reports the stop as the child's own and, as for any program,
// the kernel discards them in an orphaned process group: the shim then goes
// straight on. Any other sig stops it with SIGSTOP. The signal goes to this
// thread, which stops before the system call returns; one sent to the process
// would let this thread run on for a moment, into code meant for after the
// continuation.
func stopAs(sig syscall.Signal) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if sig != syscall.SIGTSTP && sig != syscall.SIGTTIN && sig != syscall.SIGTTOU {
		_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), unix.SIGSTOP)
		return
	}
	relay.actions.Lock()
	defer relay.actions.Unlock()
	var dfl, old [4]uint64 // kernel sigactions; all zero is SIG_DFL
	if _, _, e := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(&dfl)), uintptr(unsafe.Pointer(&old)), 8, 0, 0); e != 0 {
		_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), unix.SIGSTOP)
		return
	}
	var set, was unix.Sigset_t
	set.Val[(sig-1)/64] |= 1 << (uint(sig-1) % 64)
	_ = unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, &was)
	_ = unix.Tgkill(unix.Getpid(), unix.Gettid(), sig)
	_ = unix.PthreadSigmask(unix.SIG_SETMASK, &was, nil)
	_, _, _ = unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(&old)), 0, 8, 0, 0)
}

// physicalDir returns the current directory the way the store keeps it,
// symlinks resolved. It asks the kernel (getcwd is physical already) in a
// buffer that starts small: os.Getwd, without $PWD, asks with a 4 KiB
// array on the stack, which had the runtime copy the shim's stack twice,
// 8 KiB and then 16 KiB, on its way to the child's start.
func physicalDir() (string, error) {
	buf := make([]byte, 256)
	for {
		n, err := syscall.Getcwd(buf)
		if err == syscall.ERANGE && len(buf) < 1<<16 {
			buf = make([]byte, 2*len(buf))
			continue
		}
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("current directory: %w", &os.PathError{Op: "getwd", Path: ".", Err: err})
		}
		if n < 1 || buf[0] != '/' {
			// Not a path (Linux says "(unreachable)" for a directory
			// outside this process's root).
			return "", fmt.Errorf("current directory: %w", &os.PathError{Op: "getwd", Path: ".", Err: syscall.ENOENT})
		}
		return safe.Physical(strings.TrimSuffix(string(buf[:n]), "\x00"))
	}
}
