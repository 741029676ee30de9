package termtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Config is the servers' configuration, loaded before the first pane
// starts. remain-on-exit keeps a pane whose program exited, with its exit
// status, for the test to read.
const Config = `set -g remain-on-exit on
set -g history-limit 20000
set -g default-terminal tmux-256color
set -g status off
`

// Options configure a Server.
type Options struct {
	// Env is the environment of the server, and so of every pane, exactly:
	// nothing of the test's own is added but TMUX_TMPDIR.
	Env []string
	// Cols and Rows are the first window's size; 80 × 24 when zero.
	Cols, Rows int
	// Conf is added to the server's configuration.
	Conf string
	// Default makes the server the one a plain `tmux` reaches with Env():
	// the default socket of the private TMUX_TMPDIR. A program under test
	// starts it, with a configuration of its own choosing (none of Conf),
	// and makes its first session; the test drives what it finds there.
	Default bool
}

// Server is one private tmux server: its own socket in a directory of its
// own, its own environment. It starts with the first pane and is killed,
// with every process it started, when the test ends.
type Server struct {
	bin, dir     string
	socket, conf string
	env          []string
	cols, rows   int
	panes        int
}

// NewServer prepares a server for t. tmux must be installed: a test that
// can do without it checks first.
func NewServer(t testing.TB, o Options) *Server {
	t.Helper()
	bin, err := exec.LookPath("tmux")
	if err != nil {
		t.Fatalf("tmux: %v", err)
	}
	dir, err := os.MkdirTemp("", "termtest-") // a socket's path must be short
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{bin: bin, dir: dir, socket: "s", conf: dir + "/tmux.conf", cols: 80, rows: 24,
		env: append(append([]string(nil), o.Env...), "TMUX_TMPDIR="+dir)}
	if o.Cols > 0 {
		s.cols, s.rows = o.Cols, o.Rows
	}
	if o.Default {
		s.socket, s.panes = "default", 1
	}
	if err := os.WriteFile(s.conf, []byte(Config+o.Conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Kill()
		os.RemoveAll(dir)
	})
	return s
}

// Env is the environment in which a plain `tmux` reaches this server.
func (s *Server) Env() []string { return append([]string(nil), s.env...) }

// Run runs one tmux command against this server and returns its output.
func (s *Server) Run(args ...string) (string, error) {
	cmd := exec.Command(s.bin, append([]string{"-L", s.socket, "-f", s.conf}, args...)...)
	cmd.Env = s.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// Must is Run, failing t on an error.
func (s *Server) Must(t testing.TB, args ...string) string {
	t.Helper()
	out, err := s.Run(args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ServerPID is the tmux server's process ID.
func (s *Server) ServerPID(t testing.TB) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(s.Must(t, "display-message", "-p", "#{pid}")))
	if err != nil {
		t.Fatalf("tmux server pid: %v", err)
	}
	return pid
}

// Start runs argv in a new pane (the first session's first window, then a
// window each) with dir as its working directory. The program is exec'd
// directly, with no shell in between, so the pane's exit status is the
// program's. The pane reports failures to t.
func (s *Server) Start(t testing.TB, dir string, argv ...string) *Pane {
	t.Helper()
	t.Logf("tmux[%s]: %s $ %s", s.dir, dir, strings.Join(argv, " "))
	var args []string
	if s.panes == 0 {
		args = []string{"new-session", "-d", "-x", strconv.Itoa(s.cols), "-y", strconv.Itoa(s.rows)}
	} else {
		args = []string{"new-window", "-d"}
	}
	s.panes++
	args = append(args, "-P", "-F", "#{pane_id}")
	if dir != "" {
		args = append(args, "-c", dir)
	}
	args = append(args, "--")
	id := strings.TrimSpace(s.Must(t, append(args, argv...)...))
	return &Pane{s: s, t: t, id: id, name: strings.Join(argv, " ")}
}

// Windows returns the pane of each window of session, by window name.
func (s *Server) Windows(t testing.TB, session string) map[string]*Pane {
	t.Helper()
	out := s.Must(t, "list-panes", "-s", "-t", "="+session, "-F", "#{pane_id} #{window_name}")
	panes := map[string]*Pane{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if id, name, ok := strings.Cut(line, " "); ok {
			panes[name] = &Pane{s: s, t: t, id: id, name: session + ":" + name}
		}
	}
	return panes
}

// killWait bounds how long Kill waits for the processes of the server's
// panes to end once it has gone; stragglers then get SIGKILL.
const killWait = 30 * time.Second

// Kill ends the server and waits for every process it had started to be
// gone (a program that hears its terminal go may still write its last
// files), so none is still writing into a scratch directory being removed.
func (s *Server) Kill() {
	out, _ := s.Run("list-panes", "-a", "-F", "#{pane_pid}")
	var pids []int
	for _, f := range strings.Fields(out) {
		if pid, err := strconv.Atoi(f); err == nil {
			for p := range Descendants(pid) {
				pids = append(pids, p)
			}
		}
	}
	s.Run("kill-server")
	deadline := time.Now().Add(killWait)
	for _, pid := range pids {
		for Alive(pid) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if Alive(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// KillDefault kills, as Kill does, the default server of TMUX_TMPDIR
// tmpdir: one a test started with a plain tmux (a script's), not through
// the kit. Without tmux there is none to kill.
func KillDefault(tmpdir string) {
	bin, err := exec.LookPath("tmux")
	if err != nil {
		return
	}
	s := &Server{bin: bin, socket: "default", conf: os.DevNull, env: append(os.Environ(), "TMUX_TMPDIR="+tmpdir)}
	s.Kill()
}

// Pane is one program running in a terminal of the server.
type Pane struct {
	s    *Server
	t    testing.TB
	id   string
	name string
}

// ID is the pane's tmux ID (%3), a target for tmux commands.
func (p *Pane) ID() string { return p.id }

// Name is what failure messages call the pane: its command, or its
// session:window.
func (p *Pane) Name() string { return p.name }

// Display is tmux's expansion of format (#{pane_pid}) for the pane.
func (p *Pane) Display(format string) string {
	p.t.Helper()
	return strings.TrimSpace(p.s.Must(p.t, "display-message", "-p", "-t", p.id, format))
}

// Type types text literally, without pressing Enter.
func (p *Pane) Type(text string) {
	p.t.Helper()
	p.s.Must(p.t, "send-keys", "-t", p.id, "-l", text)
}

// Keys presses named keys, such as "Enter", "Escape" or "C-c".
func (p *Pane) Keys(keys ...string) {
	p.t.Helper()
	p.s.Must(p.t, append([]string{"send-keys", "-t", p.id}, keys...)...)
}

// Resize makes the pane's window cols wide and, unless rows is 0, rows
// high.
func (p *Pane) Resize(cols, rows int) {
	p.t.Helper()
	args := []string{"resize-window", "-t", p.id, "-x", strconv.Itoa(cols)}
	if rows > 0 {
		args = append(args, "-y", strconv.Itoa(rows))
	}
	p.s.Must(p.t, args...)
}

// Screen returns the pane's text, scrollback included, wrapped lines joined
// and trailing blanks trimmed.
func (p *Pane) Screen() string {
	p.t.Helper()
	out, err := p.s.Run("capture-pane", "-p", "-J", "-S", "-", "-t", p.id)
	if err != nil {
		p.t.Fatal(err)
	}
	return trimScreen(out)
}

// trimScreen trims what capture-pane printed as Screen returns it.
func trimScreen(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}

// deadFormat is what Dead asks tmux for.
const deadFormat = "#{pane_dead}:#{pane_dead_status}:#{pane_dead_signal}"

// look is one look at the pane while waiting: its Screen, and what Dead
// reports, from one run of tmux where the two take two. Suites wait on
// many panes at once, and those runs of tmux were a quarter of the CPU of
// the real-CLI suite.
func (p *Pane) look() (screen string, dead bool, status int) {
	p.t.Helper()
	out, err := p.s.Run("capture-pane", "-p", "-J", "-S", "-", "-t", p.id, ";", "display-message", "-p", "-t", p.id, deadFormat)
	if err != nil {
		p.t.Fatal(err)
	}
	out = strings.TrimSuffix(out, "\n")
	i := strings.LastIndexByte(out, '\n')
	dead, status = p.deadOf(out[i+1:])
	return trimScreen(out[:i+1]), dead, status
}

// Visible returns only what the pane shows now, without its scrollback.
func (p *Pane) Visible() string {
	p.t.Helper()
	out, err := p.s.Run("capture-pane", "-p", "-J", "-t", p.id)
	if err != nil {
		p.t.Fatal(err)
	}
	return out
}

// WaitFor waits until the screen contains text and returns the screen.
func (p *Pane) WaitFor(text string, timeout time.Duration) string {
	p.t.Helper()
	return p.WaitUntil("text "+strconv.Quote(text), timeout, func(s string) bool {
		return strings.Contains(s, text)
	})
}

// WaitUntil waits until ok accepts the screen and returns the screen; what
// names the condition in the failure message, which shows the screen and
// the pane's processes.
func (p *Pane) WaitUntil(what string, timeout time.Duration, ok func(screen string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	var pause Backoff
	for {
		s, dead, status := p.look()
		if ok(s) {
			return s
		}
		// A program that has ended shows nothing new: say so now, with
		// its last screen, instead of waiting out the timeout. The screen
		// was taken before tmux saw it dead: look once more.
		if dead {
			if s = p.Screen(); ok(s) {
				return s
			}
			p.t.Fatalf("%s: exited with status %d before showing %s; screen:\n%s", p.name, status, what, s)
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: no %s after %v; screen:\n%s\nprocesses:\n%s", p.name, what, timeout, s, ProcessTree(p.PID()))
		}
		pause.Sleep()
	}
}

// Backoff spaces the looks of a wait: the first come quickly, for what
// shows at once, then every 200 ms, for what takes seconds (a CLI's start,
// a reply): each look runs tmux, and a wait of minutes at a tenth of a
// second ran it thousands of times. The zero value is ready.
type Backoff struct{ d time.Duration }

// Sleep waits before the next look.
func (b *Backoff) Sleep() {
	b.d = min(max(2*b.d, 25*time.Millisecond), 200*time.Millisecond)
	time.Sleep(b.d)
}

// PID is the process the pane runs (the program Start gave it).
func (p *Pane) PID() int {
	p.t.Helper()
	pid, err := strconv.Atoi(p.Display("#{pane_pid}"))
	if err != nil {
		p.t.Fatalf("%s: pane pid: %v", p.name, err)
	}
	return pid
}

// Path is the directory of the pane's foreground process, as tmux sees it.
func (p *Pane) Path() string {
	p.t.Helper()
	return p.Display("#{pane_current_path}")
}

// Dead reports whether the pane's program has exited, and its exit status;
// a program killed by a signal gets 128 plus the signal number, as a shell
// would report it. tmux marks a pane dead when its terminal closes, a moment
// before it has reaped the program, so a dead pane without a status yet
// counts as still running.
func (p *Pane) Dead() (bool, int) {
	p.t.Helper()
	return p.deadOf(p.Display(deadFormat))
}

// deadOf reads Dead's answer from tmux's expansion of deadFormat.
func (p *Pane) deadOf(fields string) (bool, int) {
	f := strings.Split(strings.TrimSpace(fields), ":")
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
	// terminal closes, leaving a zombie it never reaps. A child of its own
	// exiting makes it reap every zombie.
	p.s.Run("run-shell", "true")
	return false, 0
}

// WaitExit waits for the program to exit and returns its exit status and the
// final screen.
func (p *Pane) WaitExit(timeout time.Duration) (int, string) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	var pause Backoff
	for {
		if dead, status := p.Dead(); dead {
			return status, p.Screen()
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: still running after %v; screen:\n%s", p.name, timeout, p.Screen())
		}
		pause.Sleep()
	}
}
