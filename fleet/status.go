package fleet

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// Status is one running conversation, as `fleetcom status --json` prints
// it (docs/reference.md, "JSON output"): exactly these fields.
type Status struct {
	Tool    string        `json:"tool"`
	ID      string        `json:"id"`
	Cwd     string        `json:"cwd"`
	Title   string        `json:"title"`
	State   harness.State `json:"state"`
	Since   time.Time     `json:"since"`
	Started time.Time     `json:"started"`
	PID     int           `json:"pid"`
	TTY     string        `json:"tty"`
	Tmux    *Tmux         `json:"tmux"`
	Host    string        `json:"host,omitempty"`
}

// Panes resolves the panes of one tmux server to session:window.pane
// targets, by pane ID; nil or an error leaves the targets empty.
type Panes func(socket string) (map[string]string, error)

// Running returns the runs of the live folder whose CLI is running now,
// each state as fresh as the evidence allows (Fresh), in the order status
// shows them (Order). A run whose process is gone is never returned.
func (d Dir) Running() []Run {
	runs, _ := d.Read()
	out := runs[:0]
	for _, r := range runs {
		if Live(r) {
			out = append(out, Fresh(r))
		}
	}
	Order(out)
	return out
}

// Fresh applies what the agent itself says of the run's process when that
// is newer than what the run's live file says: Claude Code records in its
// own sessions folder when a turn was interrupted, which fires no hook. A
// stopped run stays stopped: its CLI says nothing while it is.
func Fresh(r Run) Run {
	a, ok := agents.Named(r.Tool)
	if !ok || r.State == Stopped {
		return r
	}
	v, ok := a.Behaviour.(harness.Viewer)
	if !ok {
		return r
	}
	s, since, ok := v.View(r.Home, r.PID)
	if ok && since.After(r.Since) && s != r.State {
		r.State, r.Since, r.Why = s, since, ""
	}
	return r
}

// Order sorts runs as status shows them: those that need the user first,
// then the newest activity (the latest change of state) first.
func Order(runs []Run) {
	slices.SortStableFunc(runs, func(a, b Run) int {
		an, bn := a.State == harness.NeedsYou, b.State == harness.NeedsYou
		switch {
		case an && !bn:
			return -1
		case bn && !an:
			return 1
		}
		if c := b.Since.Compare(a.Since); c != 0 {
			return c
		}
		if c := b.Started.Compare(a.Started); c != 0 {
			return c
		}
		return a.PID - b.PID
	})
}

// Statuses turns runs into status objects: their titles from title (nil
// for none; it is asked once per run with an ID, from one goroutine),
// their tmux targets resolved through panes (one call per server), the
// two at once.
func Statuses(runs []Run, panes Panes, title func(Run) string) []Status {
	out := make([]Status, len(runs))
	for i, r := range runs {
		out[i] = Status{Tool: r.Tool, ID: r.ID, Cwd: r.Cwd, State: r.State, Since: r.Since,
			Started: r.Started, PID: r.PID, TTY: r.TTY}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if title == nil {
			return
		}
		for i, r := range runs {
			if r.ID != "" {
				out[i].Title = title(r)
			}
		}
	}()
	targets := resolve(runs, panes)
	<-done
	for i, r := range runs {
		if r.Tmux != nil {
			t := *r.Tmux
			t.Target = targets[t.Socket][t.Pane]
			out[i].Tmux = &t
		}
	}
	return out
}

// resolve asks each tmux server the runs are on for its panes, at once.
func resolve(runs []Run, panes Panes) map[string]map[string]string {
	out := map[string]map[string]string{}
	if panes == nil {
		return out
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	// Which servers were asked is the loop's own: out is written by the
	// questions as they answer.
	asked := map[string]bool{}
	for _, r := range runs {
		if r.Tmux == nil || asked[r.Tmux.Socket] {
			continue
		}
		asked[r.Tmux.Socket] = true
		socket := r.Tmux.Socket
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, _ := panes(socket)
			mu.Lock()
			out[socket] = m
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// Find returns the running run of conversation id of tool.
func Find(runs []Run, tool, id string) (Run, bool) {
	for _, r := range runs {
		if r.Tool == tool && r.ID == id && id != "" {
			return r, true
		}
	}
	return Run{}, false
}

// Where says where a run is, for people: its tmux pane (session:window.pane
// when known) and its terminal.
func Where(r Run, target string) string {
	var parts []string
	if r.Tmux != nil {
		t := target
		if t == "" {
			t = "pane " + r.Tmux.Pane
		}
		parts = append(parts, "tmux "+t)
	}
	if r.TTY != "" {
		parts = append(parts, r.TTY)
	}
	if len(parts) == 0 {
		return "no terminal"
	}
	return strings.Join(parts, ", ")
}
