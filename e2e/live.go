package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Status is one object of `fleetcom status --json` (docs/reference.md, "JSON output").
type Status struct {
	Tool    string `json:"tool"`
	ID      string `json:"id"`
	CWD     string `json:"cwd"`
	Title   string `json:"title"`
	State   string `json:"state"`
	Since   string `json:"since"`
	Started string `json:"started"`
	PID     int    `json:"pid"`
	TTY     string `json:"tty"`
	Tmux    *struct {
		Socket string `json:"socket"`
		Pane   string `json:"pane"`
		Target string `json:"target"`
	} `json:"tmux"`
}

// Statuses runs `fleetcom status --json` and decodes it.
func (w *World) Statuses(t testing.TB, fc string) []Status {
	t.Helper()
	cmd := exec.Command(fc, "status", "--json")
	cmd.Env, cmd.Dir = w.Env(), w.Root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fleetcom status --json: %v", err)
	}
	var got []Status
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("fleetcom status --json: %v\n%s", err, out)
	}
	return got
}

// WaitState waits until `fleetcom status` shows exactly one run of tool, in
// state, and returns it.
func WaitState(t testing.TB, w *World, fc, tool, state string) Status {
	t.Helper()
	var got []Status
	var found Status
	ok := eventually(replyWait, func() bool {
		got = w.Statuses(t, fc)
		n := 0
		for _, s := range got {
			if s.Tool == tool {
				n++
				found = s
			}
		}
		return n == 1 && found.State == state
	})
	if !ok {
		t.Fatalf("fleetcom status never showed one %s run %s; last: %+v", tool, state, got)
	}
	return found
}

// WaitHeld waits until the fake API holds a reply open (HOLD).
func WaitHeld(t testing.TB, w *World) {
	t.Helper()
	if !eventually(replyWait, func() bool { return w.API.Held() > 0 }) {
		t.Fatal("the fake API never held a reply: was HOLD sent?")
	}
}

// NotifySend puts a notify-send on the world's PATH that records each call
// as one line of its arguments, and returns the file they land in. Call it
// before the tmux server starts.
func (w *World) NotifySend() string {
	w.t.Helper()
	record := filepath.Join(w.Root, "notices.log")
	script := w.Script("notify-send", "printf '%s\\n' \"$*\" >> "+shellQuote(record)+"\n")
	w.PrependPath(filepath.Dir(script))
	return record
}

// Notices reads what notify-send got.
func Notices(record string) []string {
	b, _ := os.ReadFile(record)
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")[:strings.Count(string(b), "\n")]
}

// FleetcomConfig writes fleetcom's config.toml.
func (w *World) FleetcomConfig(toml string) {
	w.writeFile(filepath.Join(w.Getenv("XDG_CONFIG_HOME"), "fleetcom", "config.toml"), toml, 0o600)
}

// PaneTarget is the session:window.pane tmux gives a pane, and the path of
// its server's socket.
func (p *Pane) PaneTarget() (target, socket string) {
	p.t.Helper()
	out := p.Display("#{session_name}:#{window_index}.#{pane_index} #{socket_path}")
	target, socket, _ = strings.Cut(out, " ")
	return target, socket
}

// wantPane checks that a status names the pane its run is in. The
// session:window.pane is tmux's answer to status, which waits two seconds
// for it: on a loaded machine it can come late, and that status then
// names the pane without it. So status is asked again for the same run.
func wantPane(t testing.TB, w *World, fc string, s Status, p *Pane) {
	t.Helper()
	target, socket := p.PaneTarget()
	names := func(s Status) bool {
		return s.Tmux != nil && s.Tmux.Pane == p.ID() && s.Tmux.Target == target && s.Tmux.Socket == socket && s.TTY != ""
	}
	if names(s) {
		return
	}
	eventually(replyWait, func() bool {
		for _, got := range w.Statuses(t, fc) {
			if got.PID == s.PID {
				s = got
				return names(got)
			}
		}
		return false
	})
	if !names(s) {
		var where any = s.Tmux
		if s.Tmux != nil {
			where = *s.Tmux
		}
		t.Errorf("status %+v (tmux %+v) does not name pane %s (%s on %s)", s, where, p.ID(), target, socket)
	}
}

// wantNoSecondCopy runs `fr` (the init line's resume --exec) in a second
// pane while the conversation of s runs in the first: it must start
// nothing, fail, and say where the conversation runs.
func wantNoSecondCopy(t *testing.T, w *World, x *Tmux, fc, dir string, s Status, p *Pane) {
	t.Helper()
	before := len(w.API.Requests())
	q := x.Start(t, dir, "bash", "--norc", "-c", `eval "$(`+shellQuote(fc)+` init bash)" && fr`)
	status, screen := q.WaitExit(exitWait)
	target, _ := p.PaneTarget()
	// The pane by its session:window.pane, or by its ID when tmux's answer
	// came too late on a loaded machine (wantPane): either takes you there.
	there := strings.Contains(screen, "is running now (tmux "+target) ||
		strings.Contains(screen, "is running now (tmux pane "+p.ID())
	if status != 1 || !there ||
		!strings.Contains(screen, "it is not started a second time") || !strings.Contains(screen, s.ID) {
		t.Errorf("fr while %s runs in %s: exit %d, screen:\n%s", s.ID, target, status, screen)
	}
	if after := len(w.API.Requests()); after != before {
		t.Errorf("fr reached the model: %d requests, then %d", before, after)
	}
	if got := w.Statuses(t, fc); len(got) != 1 || got[0].PID != s.PID {
		t.Errorf("after fr, running: %+v", got)
	}
}
