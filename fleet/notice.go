package fleet

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// Notices: a run that turns needs-you, or that waits again after a turn of
// at least After, is worth telling the user about; nothing else is. One
// notice per change of state, and at most one of each kind per run every
// Every: a run that flaps between two states does not flood the user, and a
// needs-you right after a finished turn is still told.

// NoticeRules are the user's [notify] thresholds.
type NoticeRules struct {
	// After is the shortest turn whose end is told; zero tells every one.
	After time.Duration
	// Every is the least time between two notices of one run.
	Every time.Duration
}

// Notice is one thing to tell the user.
type Notice struct {
	Tool  string        `json:"tool"`
	Agent string        `json:"agent"` // the agent's name for people
	ID    string        `json:"id"`
	Cwd   string        `json:"cwd"`
	State harness.State `json:"state"`
	Why   string        `json:"why"`
	At    time.Time     `json:"at"`
	Turn  float64       `json:"turn_seconds,omitempty"`
	PID   int           `json:"pid"`
	TTY   string        `json:"tty,omitempty"`
	Tmux  *Tmux         `json:"tmux,omitempty"`
	// ConvTitle and Name are what the conversation is called (its first
	// prompt or its agent's title, and the name the user gave it), read by
	// whoever sends the notice; "" when unknown.
	ConvTitle string `json:"title,omitempty"`
	Name      string `json:"name,omitempty"`
}

// Noticer decides, change by change, which ones one run tells.
type Noticer struct {
	Rules NoticeRules
	last  map[harness.State]time.Time
}

// Consider returns the notice a change of run r deserves, if any.
func (n *Noticer) Consider(c Change, r *Run) (Notice, bool) {
	why := ""
	switch {
	case c.To == harness.NeedsYou:
		why = c.Why
		if why == "" {
			why = "it waits for you"
		}
	case c.To == harness.Waiting && c.Turn > 0 && c.Turn >= n.Rules.After:
		why = "turn finished after " + Duration(c.Turn)
	default:
		return Notice{}, false
	}
	if last, ok := n.last[c.To]; ok && c.At.Sub(last) < n.Rules.Every {
		return Notice{}, false
	}
	if n.last == nil {
		n.last = map[harness.State]time.Time{}
	}
	n.last[c.To] = c.At
	display := r.Tool
	if a, ok := agents.Named(r.Tool); ok && a.Display != "" {
		display = a.Display
	}
	return Notice{Tool: r.Tool, Agent: display, ID: r.ID, Cwd: r.Cwd, State: c.To, Why: why, At: c.At,
		Turn: c.Turn.Seconds(), PID: r.PID, TTY: r.TTY, Tmux: r.Tmux}, true
}

// Title is a notice's one-line summary: which agent, in which state.
func (n Notice) Title() string {
	if n.State == harness.NeedsYou {
		return n.Agent + " needs you"
	}
	return n.Agent + " is waiting"
}

// Body says which conversation, where it runs and why, with the directory
// shortened under home: "fix the login test — ~/src/alpha, tmux main:1.0:
// permission request". Two runs in one directory read apart.
func (n Notice) Body(home string) string {
	s := Tilde(n.Cwd, home)
	if w := n.where(); w != "" {
		s += ", " + w
	}
	if c := cmp.Or(n.Name, n.ConvTitle); c != "" {
		s = c + " — " + s
	}
	return fmt.Sprintf("%s: %s", s, n.Why)
}

// where is the terminal the run is in: its tmux window, else its tty.
func (n Notice) where() string {
	switch {
	case n.Tmux != nil && n.Tmux.Target != "":
		return "tmux " + n.Tmux.Target
	case n.Tmux != nil && n.Tmux.Pane != "":
		return "tmux pane " + n.Tmux.Pane
	}
	return strings.TrimPrefix(n.TTY, "/dev/")
}

// Tilde writes dir under home as ~/….
func Tilde(dir, home string) string {
	if home == "" || home == "/" {
		return dir
	}
	if rest, ok := strings.CutPrefix(dir, strings.TrimSuffix(home, "/")); ok && (rest == "" || rest[0] == '/') {
		return "~" + rest
	}
	return dir
}

// Duration writes d for people: 45s, 3m12s, 2h05m.
func Duration(d time.Duration) string {
	switch s := int(d.Round(time.Second) / time.Second); {
	case s < 60:
		return fmt.Sprintf("%ds", max(s, 0))
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	case s < 100*3600:
		return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
	default:
		return fmt.Sprintf("%dd", s/86400)
	}
}
