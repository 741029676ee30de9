package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Pane geometry: wide enough that a resume hint or a UUID never wraps.
const (
	paneWidth  = 200
	paneHeight = 50
)

// tmuxConf is loaded before the first pane starts, so a program that exits at
// once still leaves its pane (and exit status) behind for the test to read.
const tmuxConf = `set -g remain-on-exit on
set -g history-limit 20000
set -g default-terminal tmux-256color
set -g focus-events on
set -g status off
`

var serverSeq atomic.Int64

// Tmux is one private tmux server: its own socket, its own environment. Every
// pane it starts sees exactly the environment the server was created with.
type Tmux struct {
	socket string
	conf   string
	env    []string
	panes  int
}

// NewTmux returns a server that starts lazily with the first pane and is
// killed when the test ends.
func NewTmux(t testing.TB, env []string) *Tmux {
	t.Helper()
	name := fmt.Sprintf("fleetcom-e2e-%d-%d", os.Getpid(), serverSeq.Add(1))
	dir := t.TempDir()
	conf := filepath.Join(dir, "tmux.conf")
	if err := os.WriteFile(conf, []byte(tmuxConf), 0o644); err != nil {
		t.Fatalf("write tmux config: %v", err)
	}
	// The socket goes in the scratch dir too: tmux 3.3 leaves it behind
	// after kill-server.
	env = append(append([]string(nil), env...), "TMUX_TMPDIR="+dir)
	x := &Tmux{socket: name, conf: conf, env: env}
	t.Cleanup(x.kill)
	return x
}

// NewUserTmux returns the server that a plain `tmux` command started with
// Env() reaches: the default socket of a private TMUX_TMPDIR. A program
// under test starts it (fleetcom restore --exec); the test drives what it
// finds there, and kills it when the test ends. The server reads no
// configuration of the test's: whatever it reads, it reads as a user's
// server would (~/.tmux.conf of the world's home).
func NewUserTmux(t testing.TB, env []string) *Tmux {
	t.Helper()
	x := NewTmux(t, env)
	x.socket = "default"
	x.panes = 1 // the program under test makes the session
	return x
}

// Env is the environment in which a plain `tmux` reaches this server.
func (x *Tmux) Env() []string { return append([]string(nil), x.env...) }

// Windows returns the pane of each window of session, by window name.
func (x *Tmux) Windows(t testing.TB, session string) map[string]*Pane {
	t.Helper()
	out := x.must(t, "list-panes", "-s", "-t", "="+session, "-F", "#{pane_id} #{window_name}")
	panes := map[string]*Pane{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if id, name, ok := strings.Cut(line, " "); ok {
			panes[name] = &Pane{x: x, t: t, id: id, name: session + ":" + name}
		}
	}
	return panes
}

// ServerPID is the tmux server's process ID.
func (x *Tmux) ServerPID(t testing.TB) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(x.must(t, "display-message", "-p", "#{pid}")))
	if err != nil {
		t.Fatalf("tmux server pid: %v", err)
	}
	return pid
}

// kill ends the server and waits for every process it had started to be
// gone, so none is still writing into a scratch dir being removed. Stragglers
// get SIGKILL, by process ID.
func (x *Tmux) kill() {
	out, _ := x.run("list-panes", "-a", "-F", "#{pane_pid}")
	var pids []int
	for _, f := range strings.Fields(out) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, descendants(pid)...)
		}
	}
	x.run("kill-server")
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if alive(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// run runs one tmux command against this server and returns its output.
func (x *Tmux) run(args ...string) (string, error) {
	full := append([]string{"-L", x.socket, "-f", x.conf}, args...)
	cmd := exec.Command("tmux", full...)
	cmd.Env = x.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

func (x *Tmux) must(t testing.TB, args ...string) string {
	t.Helper()
	out, err := x.run(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Start runs argv in a new pane with dir as its working directory. The program
// is exec'd directly, with no shell in between, so the pane's exit status is
// the program's. The pane reports failures to t.
func (x *Tmux) Start(t testing.TB, dir string, argv ...string) *Pane {
	t.Helper()
	t.Logf("tmux[%s]: %s $ %s", x.socket, dir, strings.Join(argv, " "))
	var args []string
	if x.panes == 0 {
		args = []string{"new-session", "-d", "-x", strconv.Itoa(paneWidth), "-y", strconv.Itoa(paneHeight)}
	} else {
		args = []string{"new-window", "-d"}
	}
	x.panes++
	args = append(args, "-P", "-F", "#{pane_id}", "-c", dir, "--")
	id := strings.TrimSpace(x.must(t, append(args, argv...)...))
	return &Pane{x: x, t: t, id: id, name: strings.Join(argv, " ")}
}

// Pane is one program running in a terminal.
type Pane struct {
	x    *Tmux
	t    testing.TB
	id   string
	name string
}

// Type types text literally, without pressing Enter.
func (p *Pane) Type(text string) {
	p.t.Helper()
	p.x.must(p.t, "send-keys", "-t", p.id, "-l", text)
}

// Keys presses named keys, such as "Enter", "Escape" or "C-c".
func (p *Pane) Keys(keys ...string) {
	p.t.Helper()
	p.x.must(p.t, append([]string{"send-keys", "-t", p.id}, keys...)...)
}

// PressUntil presses key and waits until ok accepts the screen, pressing
// it again each time ok still does not after a while, up to four times in
// all. A TUI can draw a dialog before it reads keys: measured without
// fleetcom, Claude 2.1.332 ignored 9 of 10 Escapes sent within 50 ms of
// drawing its trust dialog and none sent 0.3 s later, and CI saw the
// dialog stay. A person presses again; so does this, and says so.
// Keep it to keys whose second press is harmless once the first took.
func (p *Pane) PressUntil(key, what string, ok func(string) bool) string {
	p.t.Helper()
	const try = 10 * time.Second
	for i := 1; ; i++ {
		p.Keys(key)
		var s string
		if eventually(try, func() bool { s = p.Screen(); return ok(s) }) {
			return s
		}
		if i == 4 {
			p.t.Fatalf("%s: no %s after pressing %s %d times; screen:\n%s", p.name, what, key, i, s)
		}
		p.t.Logf("%s: no %s %v after pressing %s; pressing it again; screen:\n%s", p.name, what, try, key, p.Visible())
	}
}

// Submit types a line, waits until the program has echoed it, then presses
// Enter. Sending both at once can make a TUI take the burst for a paste and
// the Enter for a newline. The echo is one more occurrence of text than the
// screen held before: a resumed conversation may show the same line in its
// history.
func (p *Pane) Submit(text string, timeout time.Duration) {
	p.t.Helper()
	before := strings.Count(p.Screen(), text)
	p.Type(text)
	p.waitUntil("echo of "+strconv.Quote(text), timeout, func(s string) bool {
		return strings.Count(s, text) > before
	})
	// The echo alone is not enough: Codex still takes an Enter that comes
	// within a moment of the burst's last key for a newline, and CI saw
	// its prompt sit unsent in the input line.
	time.Sleep(enterSettle)
	p.Keys("Enter")
}

// enterSettle is the pause between a typed line's echo and its Enter, well
// past the window in which a TUI still counts keys as one paste.
const enterSettle = 400 * time.Millisecond

// Screen returns the pane's text, scrollback included, wrapped lines joined
// and trailing blanks trimmed.
func (p *Pane) Screen() string {
	p.t.Helper()
	out, err := p.x.run("capture-pane", "-p", "-J", "-S", "-", "-t", p.id)
	if err != nil {
		p.t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}

// Visible returns only what the pane shows now, without its scrollback.
func (p *Pane) Visible() string {
	p.t.Helper()
	out, err := p.x.run("capture-pane", "-p", "-J", "-t", p.id)
	if err != nil {
		p.t.Fatal(err)
	}
	return out
}

// WaitFor waits until the screen contains text and returns the screen.
func (p *Pane) WaitFor(text string, timeout time.Duration) string {
	p.t.Helper()
	return p.waitUntil("text "+strconv.Quote(text), timeout, func(s string) bool {
		return strings.Contains(s, text)
	})
}

// WaitUntil waits until ok accepts the screen and returns the screen; what
// names the condition in the failure message.
func (p *Pane) WaitUntil(what string, timeout time.Duration, ok func(string) bool) string {
	p.t.Helper()
	return p.waitUntil(what, timeout, ok)
}

func (p *Pane) waitUntil(what string, timeout time.Duration, ok func(string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := p.Screen()
		if ok(s) {
			return s
		}
		// A program that has ended shows nothing new: say so now, with
		// its last screen, instead of waiting out the timeout.
		if dead, status := p.Dead(); dead {
			if s = p.Screen(); ok(s) {
				return s
			}
			p.t.Fatalf("%s: exited with status %d before showing %s; screen:\n%s", p.name, status, what, s)
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: no %s after %v; screen:\n%s", p.name, what, timeout, s)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// PID is the process the pane runs (the program Start gave it).
func (p *Pane) PID() int {
	p.t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(p.x.must(p.t, "display-message", "-p", "-t", p.id, "#{pane_pid}")))
	if err != nil {
		p.t.Fatalf("%s: pane pid: %v", p.name, err)
	}
	return pid
}

// Path is the directory of the pane's foreground process, as tmux sees it.
func (p *Pane) Path() string {
	p.t.Helper()
	return strings.TrimSpace(p.x.must(p.t, "display-message", "-p", "-t", p.id, "#{pane_current_path}"))
}

// Dead reports whether the pane's program has exited, and its exit status;
// a program killed by a signal gets 128 plus the signal number, as a shell
// would report it. tmux marks a pane dead when its terminal closes, a moment
// before it has reaped the program, so a dead pane without a status yet
// counts as still running.
func (p *Pane) Dead() (bool, int) {
	p.t.Helper()
	out := strings.TrimSpace(p.x.must(p.t, "display-message", "-p", "-t", p.id,
		"#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}"))
	f := strings.Split(out, ":")
	if len(f) != 3 || f[0] != "1" {
		return false, 0
	}
	if n, err := strconv.Atoi(f[1]); err == nil {
		return true, n
	}
	if n, err := strconv.Atoi(f[2]); err == nil {
		return true, 128 + n
	}
	// tmux 3.3 sometimes misses the SIGCHLD of a program exiting as its
	// terminal closes (measured with claude), leaving a zombie it never
	// reaps. A child of its own exiting makes it reap every zombie.
	p.x.run("run-shell", "true")
	return false, 0
}

// WaitExit waits for the program to exit and returns its exit status and the
// final screen.
func (p *Pane) WaitExit(timeout time.Duration) (int, string) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if dead, status := p.Dead(); dead {
			return status, p.Screen()
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: still running after %v; screen:\n%s", p.name, timeout, p.Screen())
		}
		time.Sleep(150 * time.Millisecond)
	}
}
