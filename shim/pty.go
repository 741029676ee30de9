package shim

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// drainBound is how long Spawn goes on waiting for the PTY to report EIO after
// the child exited. EIO normally comes at once; it is late only when something
// else (a grandchild) still holds the terminal open.
const drainBound = 150 * time.Millisecond

// session is one child on its own PTY.
type session struct {
	o       SpawnOptions
	master  *os.File
	mfd     int // master's descriptor, non-blocking
	in, out int // our terminal
	tty     rawTerm
	inL     *loop
	outL    *loop
	fail    chan error // copy-loop failures; errGone when our terminal is gone
	closed  bool       // shutdown has run: mfd may name another file now
}

// spawnPTY runs cmd on a new PTY. A failure to set the PTY up before the child
// starts is reported as errNoPTY, and Spawn then runs the child without one.
func spawnPTY(cmd *exec.Cmd, o SpawnOptions) (Status, error) {
	s := &session{o: o, fail: make(chan error, 4)}
	s.in, _ = fdOf(o.Stdin)
	s.out, _ = fdOf(o.Stdout)
	slave, err := s.open()
	if err != nil {
		return Status{}, fmt.Errorf("%w: %v", errNoPTY, err)
	}
	// From here on every path, a panic included, ends in shutdown: copy loops
	// stopped, master closed, our terminal restored.
	defer s.shutdown()

	s.tty.fd = s.in
	if err := s.tty.makeRaw(); err != nil {
		o.warn(fmt.Errorf("set terminal to raw mode: %w", err))
	}
	sigs := newSignals()

	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	if !isTerminal(o.Stderr) {
		cmd.Stderr = nil
		if o.Stderr != nil {
			cmd.Stderr = o.Stderr
		}
	}
	cmd.SysProcAttr = sessionAttr(cmd.SysProcAttr)
	err = cmd.Start()
	slave.Close() // the child holds it now; ours would keep EIO from coming
	if err != nil {
		return startFailed(err)
	}
	pid := cmd.Process.Pid

	s.inL.run("copy input", s.fail, func() error { return s.inL.copyIn(s.in, s.mfd) })
	s.outL.run("copy output", s.fail, func() error {
		return s.outL.copyOut(s.mfd, o.Stdout, o.Tail, func() { report(s.fail, errGone) })
	})
	stopped, exited := make(chan struct{}), make(chan struct{})
	go watchChild(pid, stopped, exited)
	o.started(pid)

	var copyErr error
	for running := true; running; {
		select {
		case sig := <-sigs.c:
			if sig == syscall.SIGWINCH {
				s.syncSize()
			} else {
				forwardGroup(pid, sig.(syscall.Signal))
			}
		case <-stopped:
			s.suspend(pid)
		case err := <-s.fail:
			if !errors.Is(err, errGone) && copyErr == nil {
				copyErr = err
			}
			if !s.closed {
				s.hangup(pid)
			}
		case <-exited:
			running = false
		}
	}
	st, err := finish(cmd)
	s.drain()
	s.shutdown()
	if err == nil {
		err = copyErr
	}
	return st, err
}

// open creates the PTY, gives it our terminal's settings and size, and
// prepares the copy loops. It returns the slave for the child.
func (s *session) open() (*os.File, error) {
	master, slave, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("open pty: %w", err)
	}
	fail := func(err error) (*os.File, error) {
		master.Close()
		slave.Close()
		return nil, err
	}
	// creack/pty leaves the master blocking (its ioctls go through Fd), so it
	// cannot take a read deadline; the copy loops want it non-blocking and
	// poll it themselves. The child's end stays blocking.
	s.mfd, _ = fdOf(master)
	if err := unix.SetNonblock(s.mfd, true); err != nil {
		return fail(fmt.Errorf("pty non-blocking: %w", err))
	}
	sfd, _ := fdOf(slave)
	// The child's terminal starts as a copy of ours (erase character, IUTF8
	// and so on), as script(1) does.
	if t, err := unix.IoctlGetTermios(s.in, ioctlGetTermios); err == nil {
		_ = unix.IoctlSetTermios(sfd, ioctlSetTermios, t)
	}
	s.syncSizeTo(s.mfd)
	if s.inL, err = newLoop(); err != nil {
		return fail(err)
	}
	if s.outL, err = newLoop(); err != nil {
		s.inL.close()
		return fail(err)
	}
	s.master = master
	return slave, nil
}

// sessionAttr makes the child a session leader with its stdin, the PTY, as
// controlling terminal; a process-group request would conflict with that.
func sessionAttr(a *syscall.SysProcAttr) *syscall.SysProcAttr {
	var c syscall.SysProcAttr
	if a != nil {
		c = *a
	}
	c.Setsid, c.Setctty, c.Ctty = true, true, 0
	c.Setpgid, c.Foreground, c.Pgid = false, false, 0
	return &c
}

func (s *session) syncSize() {
	if !s.closed {
		s.syncSizeTo(s.mfd)
	}
}

// syncSizeTo copies our terminal's size to fd; the kernel then signals
// SIGWINCH to the child's foreground process group.
func (s *session) syncSizeTo(fd int) {
	ws, err := unix.IoctlGetWinsize(s.out, unix.TIOCGWINSZ)
	if err != nil {
		if ws, err = unix.IoctlGetWinsize(s.in, unix.TIOCGWINSZ); err != nil {
			return
		}
	}
	_ = unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, ws)
}

// drain waits for the output loop to reach EIO, bounded after the child's exit.
func (s *session) drain() {
	select {
	case <-s.outL.done:
		return
	default:
	}
	t := time.NewTimer(drainBound)
	defer t.Stop()
	select {
	case <-s.outL.done:
	case <-t.C:
		s.outL.halt()
		<-s.outL.done
	}
}

// hangup does to the child what closing a terminal does to a program on it:
// SIGHUP to its process group, then the PTY closed under it, so reads and
// writes fail. Spawn goes on waiting for the child to exit.
func (s *session) hangup(pid int) {
	forwardGroup(pid, syscall.SIGHUP)
	s.shutdown()
}

// shutdown stops both loops, closes the master (only once no loop can touch
// its descriptor any more) and restores our terminal. It is idempotent, and
// runs on Spawn's goroutine only.
func (s *session) shutdown() {
	if !s.closed {
		s.closed = true
		for _, l := range []*loop{s.inL, s.outL} {
			l.halt()
			if l.running {
				<-l.done
			}
			l.close()
		}
		s.master.Close()
	}
	s.tty.restore()
}

// suspend follows a child that stopped (SIGSTOP): give the terminal back,
// stop ourselves so the shell regains control, and on our continuation put
// everything back and continue the child.
func (s *session) suspend(pid int) {
	if !s.closed {
		// What the child wrote before it stopped belongs before the
		// shell's prompt.
		s.outL.flush(drainBound)
	}
	s.tty.restore()
	stopSelf()
	if !s.closed {
		_ = s.tty.makeRaw()
		s.syncSize()
	}
	_ = syscall.Kill(-pid, syscall.SIGCONT)
}

// rawTerm is our terminal's mode, switched to raw and back; restore is
// idempotent and safe from any goroutine.
type rawTerm struct {
	mu    sync.Mutex
	fd    int
	saved *term.State
}

func (t *rawTerm) makeRaw() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.saved != nil {
		return nil
	}
	st, err := term.MakeRaw(t.fd)
	if err != nil {
		return err
	}
	t.saved = st
	return nil
}

func (t *rawTerm) restore() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.saved != nil {
		_ = term.Restore(t.fd, t.saved)
		t.saved = nil
	}
}
