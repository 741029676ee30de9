package picker

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/termtest"
	"golang.org/x/sys/unix"
)

// ptyRun is the built-in picker run by the helper on a fresh PTY, its
// controlling terminal, with the test as the user: it types into the
// master side and reads the screen back through a termtest.Screen. The
// terminal's modes are read from its slave side at any time.
type ptyRun struct {
	t      *testing.T
	s      *termtest.Session
	cols   int
	rows   int
	before unix.Termios
	result string
}

// ptyWait bounds each wait for the picker: it only ends a wait that failed.
const ptyWait = 60 * time.Second

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
	term, err := termtest.NewTerm(rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	before, err := term.Modes()
	if err != nil {
		term.Close()
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(append(os.Environ(), env...), "TERM=xterm-256color")
	s, err := term.Start(cmd)
	if err != nil {
		term.Close()
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return &ptyRun{t: t, s: s, cols: cols, rows: rows, before: before, result: result}
}

func (r *ptyRun) output() []byte { return r.s.Output() }

// newVT is a screen that counts cells as the picker does.
func newVT(w, h int) *termtest.Screen { return termtest.NewScreen(w, h, runeWidth) }

// screen is the output so far, read by a terminal of the PTY's size.
func (r *ptyRun) screen() *termtest.Screen {
	v := newVT(r.cols, r.rows)
	v.Write(r.output())
	return v
}

// waitScreen waits until the screen satisfies ok.
func (r *ptyRun) waitScreen(what string, ok func(v *termtest.Screen) bool) {
	r.t.Helper()
	err := r.s.WaitUntil(ptyWait, func(out []byte) bool {
		v := newVT(r.cols, r.rows)
		v.Write(out)
		return ok(v)
	})
	if err != nil {
		r.t.Fatalf("waiting for %s: %v; screen:\n%s\nbytes: %q", what, err, r.screen().Text(), r.output())
	}
}

// waitOpen waits until the picker is drawn and checks that it made the
// terminal raw.
func (r *ptyRun) waitOpen() {
	r.t.Helper()
	r.waitScreen("the picker", func(v *termtest.Screen) bool { return v.Alt() && strings.Contains(v.Text(), "TITLE") })
	if r.modesRestored() {
		r.t.Fatal("the picker is open but the terminal modes are unchanged")
	}
}

// waitModes waits until the terminal's modes are the ones it had before
// the picker started.
func (r *ptyRun) waitModes(restored bool) {
	r.t.Helper()
	deadline := time.Now().Add(ptyWait)
	for r.modesRestored() != restored {
		if time.Now().After(deadline) {
			r.t.Fatalf("terminal modes restored=%v, want %v", !restored, restored)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (r *ptyRun) modesRestored() bool {
	now, err := r.s.Modes()
	if err != nil {
		r.t.Fatal(err)
	}
	return now == r.before
}

func (r *ptyRun) send(s string) {
	r.t.Helper()
	if _, err := r.s.Write([]byte(s)); err != nil {
		r.t.Fatal(err)
	}
}

// finish waits for the helper to exit, checks that the terminal's modes are
// as they were before it started, and returns its result, how it ended
// ("exit N" or "signal NAME") and everything it wrote.
func (r *ptyRun) finish() (result, status string, out []byte) {
	r.t.Helper()
	st, err := r.s.Wait(ptyWait)
	if err != nil {
		r.t.Fatalf("%v; screen:\n%s", err, r.screen().Text())
	}
	if !r.modesRestored() {
		r.t.Error("terminal modes not restored after the picker exited")
	}
	b, _ := os.ReadFile(r.result)
	return string(b), st.String(), r.output()
}

// selected is the line in reverse video, or "".
func selected(v *termtest.Screen) string {
	for y, l := range v.Lines() {
		if v.Reverse(2, y) {
			return l
		}
	}
	return ""
}

func selectedIs(prefix string) func(v *termtest.Screen) bool {
	return func(v *termtest.Screen) bool { return strings.HasPrefix(selected(v), prefix) }
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
