package picker

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/fleetcom/fleetcom/internal/ptytest"
	"golang.org/x/term"
)

// ptyRun is the built-in picker run by the helper on a fresh PTY, its
// controlling terminal, with the test as the user: it types into the
// master side and reads the screen back through vt. The test keeps the
// slave side open too, to read the terminal's modes at any time.
type ptyRun struct {
	t        *testing.T
	cmd      *exec.Cmd
	master   *os.File
	slave    *os.File
	cols     int
	rows     int
	before   *term.State
	result   string
	mu       sync.Mutex
	out      []byte
	readDone chan struct{}
	exit     chan error
}

func startBuiltin(t *testing.T, cfg helperConfig, cols, rows int) *ptyRun {
	t.Helper()
	return startOnPTY(t, cfg, cols, rows, nil)
}

// startOnPTY starts the helper with extra environment (a role other than
// the picker's, say).
func startOnPTY(t *testing.T, cfg helperConfig, cols, rows int, extra []string) *ptyRun {
	t.Helper()
	cfg.FZF = "-"
	env, result := writeConfig(t, t.TempDir(), cfg)
	env = append(env, extra...)
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
		t.Fatal(err)
	}
	before, err := term.GetState(int(slave.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(append(os.Environ(), env...), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &ptyRun{t: t, cmd: cmd, slave: slave, cols: cols, rows: rows, before: before, result: result,
		readDone: make(chan struct{}), exit: make(chan error, 1)}
	if r.master, err = ptytest.Pollable(master); err != nil {
		cmd.Process.Kill()
		t.Fatal(err)
	}
	go func() {
		defer close(r.readDone)
		buf := make([]byte, 32<<10)
		for {
			n, err := r.master.Read(buf)
			r.mu.Lock()
			r.out = append(r.out, buf[:n]...)
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { r.exit <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		r.slave.Close()
		r.master.Close()
	})
	return r
}

func (r *ptyRun) output() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.out...)
}

// screen is the output so far, read by a terminal of the PTY's size.
func (r *ptyRun) screen() *vt {
	v := newVT(r.cols, r.rows)
	v.write(r.output())
	return v
}

// waitScreen waits until the screen satisfies ok.
func (r *ptyRun) waitScreen(what string, ok func(v *vt) bool) {
	r.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if ok(r.screen()) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.t.Fatalf("timed out waiting for %s; screen:\n%s\nbytes: %q", what, r.screen().text(), r.output())
}

// waitOpen waits until the picker is drawn and checks that it made the
// terminal raw.
func (r *ptyRun) waitOpen() {
	r.t.Helper()
	r.waitScreen("the picker", func(v *vt) bool { return v.onAlt && strings.Contains(v.text(), "TITLE") })
	if r.modesRestored() {
		r.t.Fatal("the picker is open but the terminal modes are unchanged")
	}
}

// waitModes waits until the terminal's modes are the ones it had before
// the picker started.
func (r *ptyRun) waitModes(restored bool) {
	r.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for r.modesRestored() != restored {
		if time.Now().After(deadline) {
			r.t.Fatalf("terminal modes restored=%v, want %v", !restored, restored)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (r *ptyRun) modesRestored() bool {
	now, err := term.GetState(int(r.slave.Fd()))
	if err != nil {
		r.t.Fatal(err)
	}
	return reflect.DeepEqual(now, r.before)
}

func (r *ptyRun) send(s string) {
	r.t.Helper()
	if _, err := r.master.Write([]byte(s)); err != nil {
		r.t.Fatal(err)
	}
}

// finish waits for the helper to exit, checks that the terminal's modes are
// as they were before it started, and returns its result, how it ended
// ("exit N" or a signal's name) and everything it wrote.
func (r *ptyRun) finish() (result, status string, out []byte) {
	r.t.Helper()
	var err error
	select {
	case err = <-r.exit:
	case <-time.After(60 * time.Second):
		r.cmd.Process.Kill()
		r.t.Fatalf("the picker did not exit; screen:\n%s", r.screen().text())
	}
	if !r.modesRestored() {
		r.t.Error("terminal modes not restored after the picker exited")
	}
	// With the last slave descriptor closed the master reads what is left,
	// then fails: the output is complete.
	r.slave.Close()
	<-r.readDone
	var ee *exec.ExitError
	switch {
	case err == nil:
		status = "exit 0"
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = ws.Signal().String()
		} else {
			status = "exit " + strconv.Itoa(ee.ExitCode())
		}
	default:
		r.t.Fatal(err)
	}
	b, _ := os.ReadFile(r.result)
	return string(b), status, r.output()
}

func selectedIs(prefix string) func(v *vt) bool {
	return func(v *vt) bool { return strings.HasPrefix(v.selected(), prefix) }
}

// stopped reads the process state from /proc: T is stopped.
func stopped(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && i+2 < len(b) && b[i+2] == 'T'
}
