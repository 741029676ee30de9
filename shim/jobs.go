package shim

import (
	"errors"
	"os"
	"os/exec"
	"syscall"

	"github.com/fleetcom/fleetcom/shim/internal/leader"
)

// Job control on the PTY path.
//
// The child runs on a PTY of its own, in a session of its own. Where there is
// one (Linux on amd64 and arm64, see package leader), a small session leader
// sits between the shim and the child, as a shell does: the child leads its
// own process group in the PTY's foreground, and that group has a parent in
// its session, so the terminal stop signals reach it. Without the leader the
// child leads the session itself, its group is orphaned, and the kernel
// discards SIGTSTP, SIGTTIN and SIGTTOU sent to it: a TUI that reads ^Z as a
// byte and sends itself SIGTSTP does not stop.
//
// A stop is passed up the way a shell passes it: the child stops, the leader
// (or the child itself) stops, the shim sees its child stop (SIGCHLD,
// waitid), gives our terminal back and stops itself with the child's stop
// signal, so that the user's shell shows the job as the child's own stop
// would ("Stopped", "Stopped (signal)"); the run's live file says it is
// stopped before the shim stops (SpawnOptions.Stopped). Once the shim is continued (fg,
// bg, kill -CONT) it puts our terminal back in raw mode, which from the
// background stops it again with SIGTTOU as the child would be, copies the
// size, and continues the leader and the child's group; the child then
// redraws as it does after a fg. A continuation of the shim alone (kill
// -STOP, kill -CONT of the shim) does the same. SIGTSTP sent to the shim
// goes to the child's group, which suspends as it would have. Where the shim
// itself has no job control (it leads its terminal's session, as in a tmux
// pane started with the command itself), the kernel discards its SIGTSTP as
// it would have discarded the child's: the shim goes on at once and continues
// the child, which comes back rather than hanging.

// start starts cmd's program on the PTY whose slave is slave, under a session
// leader where there is one, else as the session leader itself; a script
// without "#!" under /bin/sh (asScript).
func (s *session) start(cmd *exec.Cmd, slave *os.File) error {
	err := s.startOnce(cmd, slave)
	if asScript(cmd, err) {
		err = s.startOnce(cmd, slave)
	}
	return err
}

func (s *session) startOnce(cmd *exec.Cmd, slave *os.File) error {
	l, err := startLed(cmd, slave)
	switch {
	case err == nil:
		s.lead, s.exitFD = l, l.PidFD
		s.ch.pid, s.waitPID, s.ch.state = l.Child, l.Pid, childRunning
		return nil
	case !errors.Is(err, leader.ErrUnsupported):
		return err
	}
	cmd.SysProcAttr = sessionAttr(cmd.SysProcAttr)
	pid, err := start(cmd)
	if err == nil {
		s.ch.pid, s.waitPID, s.ch.state = pid, pid, childRunning
	}
	return err
}

// startLed starts cmd's program under a leader, with the descriptors and
// environment start would give it. A cmd with SysProcAttr of its own is not
// one the leader can start: ErrUnsupported.
func startLed(cmd *exec.Cmd, slave *os.File) (*leader.Leader, error) {
	if cmd.SysProcAttr != nil {
		return nil, leader.ErrUnsupported
	}
	p, err := prepare(cmd)
	if err != nil {
		return nil, err
	}
	defer p.release()
	tty, ok := fdOf(slave)
	if !ok {
		return nil, leader.ErrUnsupported
	}
	spec := leader.Spec{Path: cmd.Path, Args: p.args, Env: p.env, Dir: cmd.Dir, TTY: tty}
	for i, f := range p.files {
		// Fd, as start does: the child gets the descriptor in blocking
		// mode, as os/exec gives it.
		spec.Files[i] = int(f.Fd())
	}
	return leader.Start(spec)
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

// reap reaps the process we wait for, which has exited, and returns how the
// child ended: the leader's report of it, or the child's own status.
func (s *session) reap() (Status, error) {
	st, err := reap(s.waitPID)
	if s.lead == nil {
		return st, err
	}
	defer s.lead.Release()
	if ws, ok := s.lead.Status(); ok {
		return statusOf(ws), nil
	}
	return st, err
}

// suspend follows a child that stopped: what it wrote goes out first, then
// our terminal is given back, the shim stops with the child's signal, and
// once continued it resumes.
func (s *session) suspend() {
	// Without a leader the child's group is orphaned: only SIGSTOP can
	// have stopped it.
	sig := syscall.SIGSTOP
	if s.lead != nil {
		sig = s.lead.StopSignal()
	}
	// What the child wrote before it stopped belongs before the shell's
	// prompt.
	if s.outOpen {
		s.pumpOut(stopCap)
	}
	s.tty.restore()
	// The run shows as stopped while it is: a stopped shim writes nothing.
	if s.o.Stopped != nil {
		s.o.Stopped(true)
	}
	stopAs(sig)
	s.resume()
}

// resume follows a continuation of the shim: our terminal raw again (if the
// shim is in the background, that stops it until it is not), the size copied,
// the leader and the child's group continued.
func (s *session) resume() {
	if s.master >= 0 {
		_ = s.tty.again()
		s.syncSize()
	}
	if s.lead != nil {
		_ = syscall.Kill(s.lead.Pid, syscall.SIGCONT)
	}
	_ = syscall.Kill(-s.ch.pid, syscall.SIGCONT)
	if s.o.Stopped != nil {
		s.o.Stopped(false)
	}
}
