//go:build linux

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/termtest"
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
	needShell(t, "tmux")
	fc := buildFleetcom(t)
	for _, sh := range jobShells {
		bin := needShell(t, sh.name)
		for _, name := range agents.Names() {
			t.Run(sh.name+"/"+name, func(t *testing.T) {
				w := newJobWorld(t, fc)
				p := startPane(t, w.dir, w.env, append([]string{bin}, sh.argv[1:]...)...)
				p.waitFor("READY$") // the screen as read has no trailing blanks
				p.typeLine(name)
				p.typeLine("first JOBCTL-1")
				p.waitFor("ACK first JOBCTL-1")
				p.waitIdle()
				p.Keys("C-z")
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
				p.WaitExit(ptyWait)
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
	*termtest.Pane
	t *testing.T
}

func startPane(t *testing.T, dir string, env []string, argv ...string) *pane {
	t.Helper()
	s := termtest.NewServer(t, termtest.Options{Env: env, Cols: 120, Rows: 40})
	return &pane{s.Start(t, dir, argv...), t}
}

// typeLine types text and Enter.
func (p *pane) typeLine(text string) {
	p.t.Helper()
	p.Type(text)
	p.Keys("Enter")
}

// waitUntil waits, as long as ptyWait allows, until ok holds for the
// screen; a wait that fails shows the screen and the pane's processes.
func (p *pane) waitUntil(what string, ok func(screen string) bool) string {
	p.t.Helper()
	return p.WaitUntil(what, ptyWait, ok)
}

func (p *pane) waitFor(text string) string {
	p.t.Helper()
	return p.WaitFor(text, ptyWait)
}

// waitIdle waits until the agent on the pane (shell, shim, leader, agent)
// runs no process of its own. A fake starts its notifiers right after it
// answers, with a vfork, as Codex does. A ^Z that lands while one starts
// stops the new process before its exec (it is in the agent's group), and
// the agent's thread waiting for that exec cannot stop: the job never stops,
// under a bare shell as under the shim.
func (p *pane) waitIdle() {
	p.t.Helper()
	pid := p.PID()
	p.waitUntil("the agent running nothing of its own", func(string) bool {
		for _, d := range termtest.Descendants(pid) {
			if d > 3 {
				return false
			}
		}
		return true
	})
}

// foreground is the name of the pane's foreground program.
func (p *pane) foreground() string {
	p.t.Helper()
	return p.Display("#{pane_current_command}")
}

// raw reports whether the pane's terminal is in the shim's raw mode: no
// signals from keys (a shell reading a line keeps them) and no canonical
// input.
func (p *pane) raw() bool {
	p.t.Helper()
	m, err := termtest.TTYModes(p.Display("#{pane_tty}"))
	if err != nil {
		p.t.Fatal(err)
	}
	return m.Lflag&(unix.ISIG|unix.ICANON) == 0
}
