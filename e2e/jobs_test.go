//go:build linux

package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/fleetcom/fleetcom/internal/termtest"
)

// Linux only: the only system where the shim has a session leader between it
// and the CLI (shim/internal/leader).

// TestJobControl drives each real CLI of the CLIs table, at each selected
// version, through fleetcom's shim inside an interactive shell in tmux: a
// turn, Ctrl-Z, `jobs` lists it as stopped, `fg` brings it back (redrawn,
// taking input, our terminal raw again), a second turn whose reply shows the
// first turn's code word, quit, and `fleetcom list --json` holds the run's
// record under the ID of the CLI's exit hint. bash runs every CLI at every
// version; zsh and fish each run one, in the table's order, at its first
// selected version. A CLI whose Ctrl-Z does not suspend it without fleetcom
// (measured, see README.md) is checked to do the same through the shim.
func TestJobControl(t *testing.T) {
	t.Parallel()
	for i, name := range AgentNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := agentNamed(name)
			if d.Exit == "" {
				t.Fatalf("%s's world file registers no Exit command", name)
			}
			// zsh and fish take a CLI each, at its first selected version
			// only: a run of a real CLI takes 10-40 s.
			var other *jobShell
			if i+1 < len(jobShells) {
				other = &jobShells[i+1]
			}
			eachVersion(t, name, func(t *testing.T, r Real) {
				t.Run(jobShells[0].name, func(t *testing.T) { jobControl(t, r, d, jobShells[0]) })
				if other != nil {
					sh := *other
					other = nil
					t.Run(sh.name, func(t *testing.T) { jobControl(t, r, d, sh) })
				}
			})
		})
	}
}

// jobShell is an interactive shell without the user's files, its prompt
// READY$ (PS1 for bash and zsh).
type jobShell struct {
	name    string
	argv    []string
	stopped string // the state of a stopped job, in the notice and in `jobs`
	status  string // the last exit status
}

var jobShells = []jobShell{
	{"bash", []string{"bash", "--norc", "--noprofile", "-i"}, "Stopped", "$?"},
	{"zsh", []string{"zsh", "-f", "-i"}, "suspended", "$?"},
	{"fish", []string{"fish", "--no-config", "--private", "-i", "-C", `function fish_prompt; echo -n 'READY$ '; end`}, "stopped", "$status"},
}

func jobControl(t *testing.T, r Real, d Agent, sh jobShell) {
	needTool(t, sh.name)
	w, fc := shimWorld(t, r)
	name := r.CLI.Name
	proj := w.Project("my project")
	w.Setenv("PS1", "READY$ ")
	p := w.Tmux().Start(t, proj, sh.argv...)
	p.WaitFor("READY$", startWait) // Screen trims the space after it
	p.Submit(name, typeWait)
	d.Ready(p)
	p.Submit("remember PELICAN-4821", typeWait)
	d.Reply(p, "ACK PELICAN-4821 CODES PELICAN-4821")

	if d.Suspends {
		keys := d.SuspendKeys
		if keys == nil {
			keys = []string{"C-z"}
		}
		p.Keys(keys...) // in one send-keys: two tmux invocations can fall outside a CLI's window
		p.WaitUntil(sh.name+"'s notice of the stopped job", replyWait, func(s string) bool {
			return strings.Contains(s, sh.stopped) && paneForeground(p) == sh.name
		})
		p.Submit("jobs", typeWait)
		p.WaitUntil("`jobs` listing "+name+" as "+sh.stopped, typeWait, func(s string) bool {
			after := s[strings.LastIndex(s, "jobs"):]
			for _, l := range strings.Split(after, "\n") {
				if strings.Contains(l, sh.stopped) && strings.Contains(l, name) {
					return true
				}
			}
			return false
		})
		p.Submit("fg", typeWait)
		if d.AfterFg != nil {
			d.AfterFg(p)
		}
		d.Ready(p)
		if !paneRaw(p) {
			t.Errorf("the pane's terminal is not raw after fg")
		}
	} else {
		// Ctrl-Z undoes the last edit of the input line, as without
		// fleetcom, and stops nothing.
		p.Type("undo me")
		p.WaitFor("undo me", typeWait)
		p.Keys("C-z")
		p.WaitUntil("Ctrl-Z to undo the input", typeWait, func(s string) bool { return !strings.Contains(s, "undo me") })
		if fg := paneForeground(p); fg != name {
			t.Fatalf("after Ctrl-Z the pane runs %q, want %s still; screen:\n%s", fg, name, p.Screen())
		}
		p.Keys("C-u")
	}

	p.Submit("which codes now", typeWait)
	d.Reply(p, "ACK now CODES PELICAN-4821")
	p.Submit(d.Exit, typeWait)
	screen := p.WaitUntil(sh.name+" back after the quit, the exit hint on screen", exitWait, func(s string) bool {
		return d.Hint.MatchString(s) && paneForeground(p) == sh.name
	})
	id := Hint(d.Hint, screen)
	p.Submit("echo rc="+sh.status, typeWait)
	p.WaitFor("rc=0", typeWait)
	rec := Newest(t, w.List(t, fc, proj), name)
	if id == "" || rec.ID != id || rec.CWD != proj || rec.Exit == nil || *rec.Exit != 0 || !rec.Resumable {
		t.Errorf("newest %s record %+v; want ID %q (the exit hint), cwd %s, exit 0, resumable; screen:\n%s",
			name, rec, id, proj, screen)
	}
}

// paneForeground is the name of the pane's foreground program.
func paneForeground(p *Pane) string {
	p.t.Helper()
	return p.Display("#{pane_current_command}")
}

// paneRaw reports whether the pane's terminal is in raw mode: no signals
// from keys and no line editing, as the shim sets it (a shell at its prompt
// keeps signals on).
func paneRaw(p *Pane) bool {
	p.t.Helper()
	m, err := termtest.TTYModes(p.Display("#{pane_tty}"))
	if err != nil {
		p.t.Fatal(err)
	}
	return m.Lflag&(unix.ISIG|unix.ICANON) == 0
}

// needTool skips, or fails under FLEETCOM_E2E_REQUIRE=1 and in CI, when a
// program is not installed.
func needTool(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		unavailable(t, "%s is not installed", name)
	}
}
