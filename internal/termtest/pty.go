package termtest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// Pair is a bare pseudo-terminal of a given size, both sides blocking, for
// a test that reads the master itself with plain system calls (a
// benchmark, where the measuring side should add as little as it can).
type Pair struct{ Master, Slave *os.File }

// OpenPair opens a pseudo-terminal of rows × cols.
func OpenPair(rows, cols int) (*Pair, error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, err
	}
	if err := pty.Setsize(s, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
		m.Close()
		s.Close()
		return nil, err
	}
	m.Fd() // blocking, as Fd leaves it
	return &Pair{m, s}, nil
}

// Close closes both sides.
func (p *Pair) Close() {
	p.Master.Close()
	p.Slave.Close()
}

// ErrHungUp is what a wait returns when the terminal hung up (every process
// holding its slave side gone, or the master closed) before the condition
// held: nothing more can appear.
var ErrHungUp = errors.New("the terminal hung up")

// Term is a pseudo-terminal whose master side the test holds, as a terminal
// emulator does: what the programs on the slave side write is gathered in a
// buffer, and what the test writes is typed. The master is served by Go's
// poller, so Close interrupts the gathering read and really closes the
// descriptor: the slave side sees its terminal go away.
type Term struct {
	master    *os.File
	slave     *os.File // nil once a Session's command has it
	slaveName string

	mu      sync.Mutex
	out     bytes.Buffer
	changed chan struct{} // closed and replaced at each read
	eof     chan struct{} // closed when the master reads EOF or an error
}

// NewTerm opens a pseudo-terminal of rows × cols and starts gathering what
// its master side reads.
func NewTerm(rows, cols int) (*Term, error) {
	p, err := OpenPair(rows, cols)
	if err != nil {
		return nil, err
	}
	// A blocking master would keep its descriptor open after Close, until
	// the pending read returns: read a non-blocking copy through the poller.
	fd, err := unix.Dup(int(p.Master.Fd()))
	p.Master.Close()
	if err == nil {
		unix.CloseOnExec(fd)
		if err = unix.SetNonblock(fd, true); err != nil {
			unix.Close(fd)
		}
	}
	if err != nil {
		p.Slave.Close()
		return nil, err
	}
	t := &Term{master: os.NewFile(uintptr(fd), "/dev/ptmx"), slave: p.Slave, slaveName: p.Slave.Name(),
		changed: make(chan struct{}), eof: make(chan struct{})}
	go t.gather()
	return t, nil
}

func (t *Term) gather() {
	defer close(t.eof)
	buf := make([]byte, 64<<10)
	for {
		n, err := t.master.Read(buf)
		t.mu.Lock()
		t.out.Write(buf[:n])
		close(t.changed)
		t.changed = make(chan struct{})
		t.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// Master is the master side, for what the kit does not offer (an ioctl).
func (t *Term) Master() *os.File { return t.master }

// Slave is the slave side, to hand to a program in this process; nil once
// Start has given it to a command.
func (t *Term) Slave() *os.File { return t.slave }

// Write types p.
func (t *Term) Write(p []byte) (int, error) { return t.master.Write(p) }

// Output is everything the terminal has received so far.
func (t *Term) Output() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return bytes.Clone(t.out.Bytes())
}

// Len is how many bytes the terminal has received so far.
func (t *Term) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Len()
}

// seen is the output so far, without a copy, and the channel closed at the
// next read. The gatherer only appends, so the bytes returned never change
// and ok may call any method of t.
func (t *Term) seen() ([]byte, <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Bytes(), t.changed
}

// HungUp is closed once the terminal has hung up: all its output is in.
func (t *Term) HungUp() <-chan struct{} { return t.eof }

// WaitUntil waits until ok holds for the output so far, woken by each read
// (ok must not change what it is given). It returns ErrHungUp when the
// terminal hung up first, and an error when timeout passed first.
func (t *Term) WaitUntil(timeout time.Duration, ok func(out []byte) bool) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		out, ch := t.seen()
		if ok(out) {
			return nil
		}
		select {
		case <-ch:
		case <-t.eof:
			if out, _ = t.seen(); ok(out) {
				return nil
			}
			return ErrHungUp
		case <-deadline.C:
			return fmt.Errorf("timed out after %v", timeout)
		}
	}
}

// WaitFor waits until text appears after the first from bytes of output,
// and returns the offset just past it.
func (t *Term) WaitFor(text string, from int, timeout time.Duration) (int, error) {
	end := from
	err := t.WaitUntil(timeout, func(out []byte) bool {
		if from > len(out) {
			return false
		}
		i := bytes.Index(out[from:], []byte(text))
		end = from + i + len(text)
		return i >= 0
	})
	if err != nil {
		return from, fmt.Errorf("waiting for %q: %w", text, err)
	}
	return end, nil
}

// Modes are the terminal's modes, read from the slave side (opened again
// by its name, without making it anyone's controlling terminal, when the
// test no longer holds it).
func (t *Term) Modes() (unix.Termios, error) {
	if t.slave != nil {
		return termios(int(t.slave.Fd()))
	}
	return TTYModes(t.slaveName)
}

// TTYModes are the modes of the terminal at path (/dev/pts/3).
func TTYModes(path string) (unix.Termios, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return unix.Termios{}, err
	}
	defer unix.Close(fd)
	return termios(fd)
}

func termios(fd int) (unix.Termios, error) {
	m, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return unix.Termios{}, err
	}
	return *m, nil
}

// Resize gives the terminal a new size; its foreground process group gets
// SIGWINCH.
func (t *Term) Resize(rows, cols int) error {
	return pty.Setsize(t.master, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)})
}

// Close closes the master side, as when the terminal's window is closed,
// and the slave side if the test still holds it.
func (t *Term) Close() error {
	if t.slave != nil {
		t.slave.Close()
	}
	return t.master.Close()
}

// Session is a command on a Term of its own, as a shell runs one: in a
// session of its own with the terminal as its controlling terminal and its
// standard input, output and error.
type Session struct {
	*Term
	Cmd *exec.Cmd

	exited chan struct{}
	err    error // once exited is closed
}

// Start runs cmd on a new terminal of rows × cols.
func Start(cmd *exec.Cmd, rows, cols int) (*Session, error) {
	t, err := NewTerm(rows, cols)
	if err != nil {
		return nil, err
	}
	s, err := t.Start(cmd)
	if err != nil {
		t.Close()
	}
	return s, err
}

// Start runs cmd on t. The test's copy of the slave side is closed, so the
// terminal hangs up once the command and everything it started are gone.
func (t *Term) Start(cmd *exec.Cmd) (*Session, error) {
	if t.slave == nil {
		return nil, errors.New("termtest: the terminal already has a command")
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = t.slave, t.slave, t.slave
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setsid, cmd.SysProcAttr.Setctty, cmd.SysProcAttr.Ctty = true, true, 0
	err := cmd.Start()
	t.slave.Close()
	t.slave = nil
	if err != nil {
		return nil, err
	}
	s := &Session{Term: t, Cmd: cmd, exited: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		close(s.exited)
	}()
	return s, nil
}

// Exited is closed once the command has exited.
func (s *Session) Exited() <-chan struct{} { return s.exited }

// Wait waits for the command to exit and for the terminal to hang up (all
// its output in), and says how the command ended. When timeout passes
// first, the command is killed.
func (s *Session) Wait(timeout time.Duration) (Status, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	select {
	case <-s.exited:
	case <-deadline.C:
		s.Cmd.Process.Kill()
		return Status{}, fmt.Errorf("the command did not exit after %v", timeout)
	}
	select {
	case <-s.eof:
	case <-deadline.C:
		return Status{}, fmt.Errorf("the command exited, but its terminal did not hang up after %v", timeout)
	}
	return statusOf(s.err)
}

// Ended says how the command ended, if it has: for a message.
func (s *Session) Ended() string {
	select {
	case <-s.exited:
		st, err := statusOf(s.err)
		if err != nil {
			return "the program ended: " + err.Error()
		}
		return "the program ended: " + st.String()
	default:
		return "the program has not ended"
	}
}

// Close kills the command if it still runs and closes the terminal.
func (s *Session) Close() {
	select {
	case <-s.exited:
	default:
		s.Cmd.Process.Kill()
	}
	s.Term.Close()
}

// Status is how a command ended: its exit code, or the signal that killed
// it.
type Status struct {
	Code   int
	Signal syscall.Signal // 0 unless a signal killed it
}

// String is "exit N" or "signal NAME" (signal TERM).
func (s Status) String() string {
	if s.Signal != 0 {
		return "signal " + strings.TrimPrefix(unix.SignalName(s.Signal), "SIG")
	}
	return "exit " + strconv.Itoa(s.Code)
}

func statusOf(err error) (Status, error) {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return Status{}, nil
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return Status{Signal: ws.Signal()}, nil
		}
		return Status{Code: ee.ExitCode()}, nil
	}
	return Status{}, err
}
