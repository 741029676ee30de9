//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// Job control through the built shim (Linux: the only system with a session
// leader, see shim/internal/leader) in the real shells, interactive, in
// tmux: an agent (a fake, on its PTY) is stopped with ^Z, the shell lists it
// as stopped, fg brings it back with our terminal raw again, it answers one
// more prompt, quits, and the run is recorded. The fakes read their terminal
// in its own (cooked) mode, so the ^Z is the PTY's: a SIGTSTP to the agent's
// process group from the kernel, which discards it, as it discards a TUI's
// own, while that group is orphaned.

// jobShells are the shells, how to start one interactive without the user's
// files and with the prompt "READY$ ", and what it prints for a stopped job.
var jobShells = []struct {
	name    string
	argv    []string
	stopped string // in the notice and in `jobs`
	status  string // the last command's exit status
}{
	{"bash", []string{"bash", "--norc", "--noprofile", "-i"}, "Stopped", "$?"},
	{"zsh", []string{"zsh", "-f", "-i"}, "suspended", "$?"},
	{"fish", []string{"fish", "--no-config", "-i", "-C", `function fish_prompt; echo -n 'READY$ '; end`}, "stopped", "$status"},
}

func TestJobControlShells(t *testing.T) {
	tmux := needShell(t, "tmux")
	fc := buildFleetcom(t)
	for _, sh := range jobShells {
		bin := needShell(t, sh.name)
		for _, name := range agents.Names() {
			t.Run(sh.name+"/"+name, func(t *testing.T) {
				w := newJobWorld(t, fc)
				p := startPane(t, tmux, w.dir, w.env, append([]string{bin}, sh.argv[1:]...)...)
				p.waitFor("READY$ ")
				p.typeLine(name)
				p.typeLine("first JOBCTL-1")
				p.waitFor("ACK first JOBCTL-1")
				p.waitIdle()
				p.keys("C-z")
				p.waitFor(sh.stopped)
				p.typeLine("jobs")
				p.waitUntil("jobs lists the agent as "+sh.stopped, func(s string) bool {
					return strings.Count(s, sh.stopped) >= 2 && strings.Contains(s[strings.LastIndex(s, "jobs"):], name)
				})
				p.typeLine("fg")
				p.waitUntil("the pane's terminal raw again", func(string) bool { return p.raw() })
				p.typeLine("second JOBCTL-2")
				p.waitFor("ACK second JOBCTL-2")
				p.typeLine("/exit")
				p.waitUntil(sh.name+" in the foreground again", func(string) bool { return p.foreground() == sh.name })
				p.typeLine("echo rc=" + sh.status)
				p.waitFor("rc=0")
				w.wantRecord(t, name)
				p.typeLine("exit")
				p.waitEnd()
			})
		}
	}
}

// jobWorld is a user with the built shims first on PATH and the fakes behind
// them, in a project directory.
type jobWorld struct {
	fc, dir string
	env     []string
}

func newJobWorld(t *testing.T, fc string) *jobWorld {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	shims, real := filepath.Join(root, "shims"), filepath.Join(root, "real")
	w := &jobWorld{fc: fc, dir: filepath.Join(home, "project")}
	for _, d := range []string{w.dir, shims, filepath.Join(root, "run")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := installFakes(root, real); err != nil {
		t.Fatal(err)
	}
	for _, name := range agents.Names() {
		if err := os.Symlink(fc, filepath.Join(shims, name)); err != nil {
			t.Fatal(err)
		}
	}
	w.env = []string{
		"HOME=" + home, "PATH=" + shims + ":" + real + ":/usr/bin:/bin", "FLEETCOM_SHIM_DIR=" + shims,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local/state"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local/share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(root, "run"), "PS1=READY$ ", "LANG=C.UTF-8",
	}
	return w
}

// wantRecord checks the run's record: the agent's, in the project, exit 0,
// and resumable (its conversation is in the fake's store).
func (w *jobWorld) wantRecord(t *testing.T, name string) {
	t.Helper()
	cmd := exec.Command(w.fc, "list", "--json")
	cmd.Dir, cmd.Env = w.dir, w.env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fleetcom list --json: %v", err)
	}
	var recs []struct {
		Tool      string
		CWD       string
		Exit      *int
		Resumable bool
	}
	if err := json.Unmarshal(out, &recs); err != nil {
		t.Fatalf("fleetcom list --json: %v\n%s", err, out)
	}
	if len(recs) != 1 || recs[0].Tool != name || recs[0].CWD != w.dir || recs[0].Exit == nil ||
		*recs[0].Exit != 0 || !recs[0].Resumable {
		t.Errorf("records %s; want one resumable %s record of %s with exit 0", out, name, w.dir)
	}
}

// pane is a program in a tmux pane on a private server.
type pane struct {
	t          *testing.T
	tmux, sock string
}

func startPane(t *testing.T, tmux, dir string, env []string, argv ...string) *pane {
	t.Helper()
	tmp, err := os.MkdirTemp("", "fleetcom-jobs-") // a socket path must be short
	if err != nil {
		t.Fatal(err)
	}
	p := &pane{t: t, tmux: tmux, sock: filepath.Join(tmp, "s")}
	conf := filepath.Join(tmp, "tmux.conf")
	if err := os.WriteFile(conf, []byte("set -g status off\nset -g default-terminal tmux-256color\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// The pane's program hears the server go and ends in its own
		// time (a shim writes its record): wait for it, so that nothing
		// writes under the test's directories once the test is over.
		out, _ := exec.Command(tmux, "-S", p.sock, "display-message", "-p", "#{pane_pid}").Output()
		exec.Command(tmux, "-S", p.sock, "kill-server").Run()
		if pid, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil && pid > 0 {
			for deadline := time.Now().Add(ptyWait); time.Now().Before(deadline) && syscall.Kill(pid, 0) == nil; {
				time.Sleep(20 * time.Millisecond)
			}
		}
		os.RemoveAll(tmp)
	})
	args := append([]string{"-S", p.sock, "-f", conf, "new-session", "-d", "-x", "120", "-y", "40", "-c", dir, "--"}, argv...)
	cmd := exec.Command(tmux, args...)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	return p
}

func (p *pane) run(args ...string) string {
	p.t.Helper()
	out, err := exec.Command(p.tmux, append([]string{"-S", p.sock}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v: %s", args, err, out)
	}
	return string(out)
}

func (p *pane) screen() string { return p.run("capture-pane", "-p", "-J", "-S", "-") }

// typeLine types text and Enter.
func (p *pane) typeLine(text string) {
	p.t.Helper()
	p.run("send-keys", "-l", text)
	p.run("send-keys", "Enter")
}

func (p *pane) keys(k ...string) { p.run(append([]string{"send-keys"}, k...)...) }

// waitUntil waits, as long as ptyWait allows, until ok holds for the
// screen; a wait that fails shows the screen and the pane's processes.
func (p *pane) waitUntil(what string, ok func(screen string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(ptyWait)
	for {
		s := p.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("no %s after %v; screen:\n%s\nprocesses:\n%s", what, ptyWait, s, p.processes())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitIdle waits until the agent on the pane (shell, shim, leader, agent)
// runs no process of its own. A fake starts its notifiers right after it
// answers, with a vfork, as Codex does. A ^Z that lands while one starts
// stops the new process before its exec (it is in the agent's group), and
// the agent's thread waiting for that exec cannot stop: the job never stops,
// under a bare shell as under the shim.
func (p *pane) waitIdle() {
	p.t.Helper()
	pid, err := p.pid()
	if err != nil {
		p.t.Fatal(err)
	}
	p.waitUntil("the agent running nothing of its own", func(string) bool {
		for _, d := range descendants(pid) {
			if d > 3 {
				return false
			}
		}
		return true
	})
}

// processes describes the pane's program and its descendants.
func (p *pane) processes() string {
	pid, err := p.pid()
	if err != nil {
		return err.Error()
	}
	return processTree(pid)
}

// pid is the pane's program's process.
func (p *pane) pid() (int, error) {
	return strconv.Atoi(strings.TrimSpace(p.run("display-message", "-p", "#{pane_pid}")))
}

func (p *pane) waitFor(text string) string {
	p.t.Helper()
	return p.waitUntil(strconv.Quote(text), func(s string) bool { return strings.Contains(s, text) })
}

// foreground is the name of the pane's foreground program.
func (p *pane) foreground() string {
	p.t.Helper()
	return strings.TrimSpace(p.run("display-message", "-p", "#{pane_current_command}"))
}

// waitEnd waits until the pane's program has exited, and with it the server.
func (p *pane) waitEnd() {
	p.t.Helper()
	deadline := time.Now().Add(ptyWait)
	for exec.Command(p.tmux, "-S", p.sock, "has-session").Run() == nil {
		if time.Now().After(deadline) {
			p.t.Fatalf("the shell did not exit; screen:\n%s", p.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// raw reports whether the pane's terminal is in the shim's raw mode: no
// signals from keys (a shell reading a line keeps them) and no canonical
// input.
func (p *pane) raw() bool {
	p.t.Helper()
	tty := strings.TrimSpace(p.run("display-message", "-p", "#{pane_tty}"))
	fd, err := unix.Open(tty, unix.O_RDONLY|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
	if err != nil {
		p.t.Fatal(err)
	}
	defer unix.Close(fd)
	m, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil {
		p.t.Fatal(err)
	}
	return m.Lflag&(unix.ISIG|unix.ICANON) == 0
}
