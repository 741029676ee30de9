package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/termtest"
)

// Pane geometry: wide enough that a resume hint or a UUID never wraps.
const (
	paneWidth  = 200
	paneHeight = 50
)

// tmuxConf is the configuration of the rig's servers: the kit's, with
// focus events, which the TUIs ask for.
const tmuxConf = termtest.Config + focusEvents

const focusEvents = "set -g focus-events on\n"

// Tmux is one private tmux server (termtest.Server): its own socket, its
// own environment. Every pane it starts sees exactly the environment the
// server was created with.
type Tmux struct{ *termtest.Server }

// NewTmux returns a server that starts lazily with the first pane and is
// killed, with what its panes started, when the test ends.
func NewTmux(t testing.TB, env []string) *Tmux {
	t.Helper()
	return &Tmux{termtest.NewServer(t, termtest.Options{Env: env, Cols: paneWidth, Rows: paneHeight,
		Conf: focusEvents})}
}

// NewUserTmux returns the server that a plain `tmux` command started with
// Env() reaches: the default socket of a private TMUX_TMPDIR. A program
// under test starts it (fleetcom restore --exec); the test drives what it
// finds there, and kills it when the test ends. The server reads no
// configuration of the test's: whatever it reads, it reads as a user's
// server would (~/.tmux.conf of the world's home).
func NewUserTmux(t testing.TB, env []string) *Tmux {
	t.Helper()
	return &Tmux{termtest.NewServer(t, termtest.Options{Env: env, Default: true})}
}

// Windows returns the pane of each window of session, by window name.
func (x *Tmux) Windows(t testing.TB, session string) map[string]*Pane {
	t.Helper()
	panes := map[string]*Pane{}
	for name, p := range x.Server.Windows(t, session) {
		panes[name] = &Pane{p, t}
	}
	return panes
}

// Start runs argv in a new pane with dir as its working directory. The program
// is exec'd directly, with no shell in between, so the pane's exit status is
// the program's. The pane reports failures to t.
func (x *Tmux) Start(t testing.TB, dir string, argv ...string) *Pane {
	t.Helper()
	return &Pane{x.Server.Start(t, dir, argv...), t}
}

// Pane is one program running in a terminal (termtest.Pane), with the ways
// a person drives a TUI.
type Pane struct {
	*termtest.Pane
	t testing.TB
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
			p.t.Fatalf("%s: no %s after pressing %s %d times; screen:\n%s", p.Name(), what, key, i, s)
		}
		p.t.Logf("%s: no %s %v after pressing %s; pressing it again; screen:\n%s", p.Name(), what, try, key, p.Visible())
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
	p.WaitUntil("echo of "+strconv.Quote(text), timeout, func(s string) bool {
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
