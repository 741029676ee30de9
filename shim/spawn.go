package shim

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/term"
)

// Status is how a child ended.
type Status struct {
	Code   int            // exit code, or 128+signal when killed by a signal
	Signal syscall.Signal // non-zero when the child died of a signal
	// Sent is the first signal that ends a program (SIGHUP, SIGTERM,
	// SIGINT, SIGQUIT) which the shim passed on to the child while it ran,
	// SIGHUP too when the shim hung it up because its own terminal was
	// gone; 0 for none. It tells a run ended from outside from one its
	// user quit, whatever the CLI made of the signal.
	Sent syscall.Signal
}

// SpawnOptions are the shim's own descriptors and the hooks Spawn calls.
type SpawnOptions struct {
	// Stdin, Stdout and Stderr are the shim's own descriptors (os.Stdin and so
	// on in production). A nil one gives the child the null device.
	Stdin, Stdout, Stderr *os.File
	// Tail receives a copy of everything the child writes to its PTY; it is
	// never called on the pipe path. It may be nil.
	Tail io.Writer
	// Started is called once, right after the child started, with its pid:
	// the child's own (the CLI's), never the session leader's.
	// On the PTY path it runs on a goroutine of its own, so output is
	// already being copied while it runs. Spawn returns after it returned.
	Started func(pid int)
	// Warn reports a failure that did not stop the child from running, such
	// as no PTY being available (the child then runs on our descriptors).
	Warn func(error)
	// Typed, when set, is shown each read of what the user typed, on the
	// PTY path, from the copy loop: it must return at once.
	Typed func(p []byte)
	// Aside, when set, carries bytes of the shim's own to the user's
	// terminal on the PTY path (aside.go).
	Aside *Aside
	// Stopped, when set, is told on the PTY path that the child stopped
	// (true: job control suspended it; the shim stops itself right after)
	// and that it was continued (false), from the copy loop.
	Stopped func(stopped bool)
}

// Spawn runs cmd to completion and returns how it ended. Spawn sets cmd's
// Stdin, Stdout, Stderr and, when it starts the child itself as a session
// leader, SysProcAttr; it starts and reaps the child itself (start), so
// cmd.Process and cmd.ProcessState stay nil.
//
// When o.Stdin and o.Stdout are both terminals the child runs on a PTY of its
// own, whose session is led by a small process between the shim and the
// child, as a shell leads its terminal's (Linux on amd64 and arm64; elsewhere
// the child leads the session itself): the child leads its own process group
// in the PTY's foreground, our terminal is in raw mode while it runs, its
// size follows ours, and everything the child writes is copied to o.Stdout
// and o.Tail. A cmd with SysProcAttr set gets no leader. Otherwise (the pipe
// path) the child inherits the descriptors unchanged and stays in our
// process group. Either way o.Started gets the child's own pid, and Status is
// the child's own.
//
// SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2 sent to the shim while the child runs
// are forwarded to it (SIGUSR1 and SIGUSR2 from a moment after its start: one
// sent before that is dropped); on the PTY path SIGINT and SIGQUIT too, and
// everything goes to the child's process group. On the pipe path the shim
// ignores SIGINT and SIGQUIT, which the terminal delivers to the child
// itself. Before the child starts and once it has exited, SIGTERM, SIGHUP,
// SIGINT and SIGQUIT end the shim, the terminal restored first, as if they
// had not been caught (signal.go); a signal ignored when the shim started
// stays ignored, in the child too. Closing the terminal hangs the child up as
// a terminal would; Spawn still returns when the child exits.
//
// Job control on the PTY path (jobs.go): a child that stops (Ctrl-Z, its own
// SIGTSTP, SIGSTOP) stops the shim with the same signal, our terminal given
// back, until the shim is continued; then our terminal is raw again, the size
// copied, and the child continued. SIGTSTP sent to the shim (from a moment
// after the start) goes to the child's group; the shim continued after a stop
// of its own (kill -STOP, kill -CONT) continues the child and puts our
// terminal back in raw mode. On the pipe path the keyboard's ^Z stops the
// child and the shim together, as before. Without a leader the child's
// process group is orphaned, so only SIGSTOP can stop it, and on the BSDs a
// stop is not followed at all.
//
// Spawn returns once the child has exited and its output has drained. The
// terminal is restored before Spawn returns or panics. The error is non-nil
// when the child could not be started (Status.Code is then 127 or 126, as a
// shell reports it, and the error wraps ErrStart) or when the copy machinery
// failed while the child ran (Status is still the child's).
func Spawn(cmd *exec.Cmd, o SpawnOptions) (Status, error) {
	if ptyPath(o.Stdin, o.Stdout) {
		st, err := spawnPTY(cmd, o)
		if !errors.Is(err, errNoPTY) {
			return st, err
		}
		o.warn(err)
	}
	return spawnPlain(cmd, o)
}

// ptyPath reports whether Spawn runs a child with these descriptors on a
// PTY of its own: both are terminals.
func ptyPath(stdin, stdout *os.File) bool { return isTerminal(stdin) && isTerminal(stdout) }

// errNoPTY marks a PTY setup failure that happened before the child started,
// after which Spawn runs the child on the shim's own descriptors instead.
var errNoPTY = errors.New("no pty")

func (o SpawnOptions) warn(err error) {
	if o.Warn != nil && err != nil {
		o.Warn(err)
	}
}

func (o SpawnOptions) started(pid int) {
	if o.Started != nil {
		o.Started(pid)
	}
}

// spawnPlain runs cmd on the shim's own descriptors: nothing is copied, and the
// child stays in our process group, so the terminal's own signals reach it.
func spawnPlain(cmd *exec.Cmd, o SpawnOptions) (Status, error) {
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
	// A nil *os.File must stay a nil interface, or exec would use it.
	if o.Stdin != nil {
		cmd.Stdin = o.Stdin
	}
	if o.Stdout != nil {
		cmd.Stdout = o.Stdout
	}
	if o.Stderr != nil {
		cmd.Stderr = o.Stderr
	}

	// The relay must be catching before the child starts, to forward to it;
	// until then a signal has its default effect.
	signalsReady()
	c := &child{wake: -1}
	relay.mu.Lock()
	register(c)
	pid, err := start(cmd)
	if asScript(cmd, err) {
		pid, err = start(cmd)
	}
	if err == nil {
		c.pid, c.state = pid, childRunning
	}
	relay.mu.Unlock()
	defer release(c)
	if err != nil {
		return startFailed(err)
	}
	o.started(c.pid)
	// The relay forwards signals meanwhile, and stops before the child is
	// reaped, so that it never signals a reused pid.
	diedOf := waitExit(c.pid)
	relay.mu.Lock()
	c.diedOf = diedOf
	relay.mu.Unlock()
	exited(c)
	reaping(c)
	st, err := reap(c.pid)
	st.Sent = sentTo(c)
	return st, err
}

// start starts cmd's program as os/exec would, without its process handle:
// os.StartProcess checks once per process that pidfds work by starting a
// child of its own (0.1-0.3 ms of a run's start, on a machine with two
// processors), and Spawn waits and signals by pid itself.
func start(cmd *exec.Cmd) (int, error) {
	p, err := prepare(cmd)
	if err != nil {
		return 0, err
	}
	defer p.release()
	var files [3]uintptr
	for i, f := range p.files {
		files[i] = f.Fd()
	}
	pid, _, err := syscall.StartProcess(cmd.Path, p.args, &syscall.ProcAttr{
		Dir: cmd.Dir, Env: p.env, Files: files[:], Sys: cmd.SysProcAttr,
	})
	if err != nil {
		return 0, &os.PathError{Op: "fork/exec", Path: cmd.Path, Err: err}
	}
	return pid, nil
}

// asScript makes cmd run its program with /bin/sh when err says the kernel
// did not take the file as a program (ENOEXEC: a script without "#!"), as
// execvp(3) and the shells run it; false, and cmd untouched, for any other
// error.
func asScript(cmd *exec.Cmd, err error) bool {
	if !errors.Is(err, syscall.ENOEXEC) || cmd.Path == shellPath {
		return false
	}
	args := cmd.Args
	if len(args) == 0 {
		args = []string{cmd.Path}
	}
	cmd.Path, cmd.Args = shellPath, scriptArgs(cmd.Path, args)
	return true
}

// prepared is what a child of cmd is started with.
type prepared struct {
	args, env []string
	files     [3]*os.File
	null      *os.File // opened for a nil descriptor; closed by release
}

// prepare works out cmd's argv, environment and descriptors as os/exec
// would: a nil descriptor of cmd is the null device; the environment is
// deduplicated, the last value of a variable winning. Call release once the
// child has started.
func prepare(cmd *exec.Cmd) (*prepared, error) {
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	if cmd.Path == "" {
		return nil, errors.New("exec: no command")
	}
	p := &prepared{args: cmd.Args, env: cmd.Env}
	if len(p.args) == 0 {
		p.args = []string{cmd.Path}
	}
	if p.env == nil {
		p.env = os.Environ()
	}
	p.env = lastWins(p.env)
	for i, f := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		file, ok := f.(*os.File)
		if f != nil && !ok {
			p.release()
			return nil, fmt.Errorf("exec: descriptor %d is not a file", i)
		}
		if file == nil {
			if p.null == nil {
				null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
				if err != nil {
					return nil, err
				}
				p.null = null
			}
			file = p.null
		}
		p.files[i] = file
	}
	return p, nil
}

// release closes what prepare opened and keeps cmd's descriptors open until
// now.
func (p *prepared) release() {
	if p.null != nil {
		p.null.Close()
	}
	runtime.KeepAlive(p.files)
}

// lastWins drops every entry of env that a later one of the same name
// overrides.
func lastWins(env []string) []string {
	seen := make(map[string]bool, len(env))
	out := make([]string, len(env))
	n := len(env)
	for i := len(env) - 1; i >= 0; i-- {
		name, _, _ := strings.Cut(env[i], "=")
		if seen[name] {
			continue
		}
		seen[name] = true
		n--
		out[n] = env[i]
	}
	return out[n:]
}

// reap waits for the child, which must have exited already, and reports
// how it ended.
func reap(pid int) (Status, error) {
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, 0, nil)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return Status{Code: 1}, fmt.Errorf("wait for child: %w", err)
		}
	}
	return statusOf(ws), nil
}

// statusOf is how a child with wait status ws ended.
func statusOf(ws syscall.WaitStatus) Status {
	if ws.Signaled() {
		return Status{Code: 128 + int(ws.Signal()), Signal: ws.Signal()}
	}
	return Status{Code: ws.ExitStatus()}
}

// ErrStart marks a Spawn error for a child that never ran; Status.Code is
// then 127 (not found) or 126 (found but not runnable), as a shell reports it.
var ErrStart = errors.New("start child")

// startFailed maps a start error to the status a shell would report.
func startFailed(err error) (Status, error) {
	code := 126
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		code = 127
	}
	return Status{Code: code}, fmt.Errorf("%w: %w", ErrStart, err)
}

func isTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	fd, ok := fdOf(f)
	return ok && term.IsTerminal(fd)
}

// fdOf returns f's descriptor without the side effect of (*os.File).Fd, which
// would switch a non-blocking descriptor to blocking mode.
func fdOf(f *os.File) (int, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return -1, false
	}
	fd := -1
	if err := rc.Control(func(u uintptr) { fd = int(u) }); err != nil {
		return -1, false
	}
	return fd, true
}
