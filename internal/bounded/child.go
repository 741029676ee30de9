package bounded

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// Grace is how long Wait waits for a program's output pipes to close once
// the program has ended or been killed: what is still unread after it is
// dropped.
const Grace = time.Second

// ErrTooLong is Output's error for a program that wrote more than it was
// allowed to: it was stopped there.
var ErrTooLong = errors.New("output too long")

// Run runs cmd, which must come from exec.CommandContext, bounded: in a
// process group of its own, killed whole when the context is done, and
// waited for at most Grace (or cmd.WaitDelay, when set) beyond its end or
// its kill. Whatever of the group is still running when Run returns is
// killed.
//
// A program that ended well while something it started still held its
// pipes (a daemon that kept stderr) is not a failure: Run returns nil
// then, as the program's own status says.
func Run(cmd *exec.Cmd) error {
	if err := Start(cmd); err != nil {
		return err
	}
	return Wait(cmd)
}

// Start starts cmd as Run does, for a caller that waits elsewhere (Wait).
func Start(cmd *exec.Cmd) error {
	prepare(cmd)
	return cmd.Start()
}

// Wait waits for a cmd started by Start, as Run does.
func Wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	killGroup(cmd.Process.Pid)
	if errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success() {
		return nil
	}
	return err
}

// Output runs cmd as Run does, and returns at most limit bytes of its
// standard output; a program that writes more is stopped at once and
// ErrTooLong returned with the first limit bytes. Unless cmd has a Stderr
// already, the last 4 KiB of its standard error are kept, and given in
// the *exec.ExitError of a program that failed.
func Output(cmd *exec.Cmd, limit int) ([]byte, error) {
	// The copying goroutines start after cmd.Process is set.
	out := &Capped{Limit: limit, Full: func() { killGroup(cmd.Process.Pid) }}
	cmd.Stdout = out
	var errTail *Tail
	if cmd.Stderr == nil {
		errTail = &Tail{Limit: 4 << 10}
		cmd.Stderr = errTail
	}
	prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	err := cmd.Wait()
	killGroup(cmd.Process.Pid)
	if out.Over {
		return out.Bytes, ErrTooLong
	}
	if errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState != nil && cmd.ProcessState.Success() {
		err = nil
	}
	var ee *exec.ExitError
	if errTail != nil && errors.As(err, &ee) {
		ee.Stderr = errTail.Bytes
	}
	return out.Bytes, err
}

// prepare puts cmd in a group of its own, killed whole by the context, and
// bounds the wait for its pipes.
func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.Cancel = func() error {
		killGroup(cmd.Process.Pid)
		// The group's leader itself, in case the group could not be
		// killed; "already done" once it is gone.
		return cmd.Process.Kill()
	}
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = Grace
	}
}

// killGroup kills the process group led by pid, if any of it is left.
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}

// Capped keeps the first Limit bytes written to it, and calls Full once
// when more come (Over is then set); it takes everything, so the writer is
// never blocked.
type Capped struct {
	Limit int
	Full  func()
	Bytes []byte
	Over  bool
}

func (c *Capped) Write(p []byte) (int, error) {
	rest := p
	if room := c.Limit - len(c.Bytes); room > 0 {
		n := min(room, len(rest))
		c.Bytes, rest = append(c.Bytes, rest[:n]...), rest[n:]
	}
	if len(rest) > 0 && !c.Over {
		c.Over = true
		if c.Full != nil {
			c.Full()
		}
	}
	return len(p), nil
}

// Tail keeps the last Limit bytes written to it.
type Tail struct {
	Limit int
	Bytes []byte
}

func (t *Tail) Write(p []byte) (int, error) {
	n := len(p)
	if len(p) >= t.Limit {
		t.Bytes = append(t.Bytes[:0], p[len(p)-t.Limit:]...)
		return n, nil
	}
	if over := len(t.Bytes) + len(p) - t.Limit; over > 0 {
		t.Bytes = append(t.Bytes[:0], t.Bytes[over:]...)
	}
	t.Bytes = append(t.Bytes, p...)
	return n, nil
}
