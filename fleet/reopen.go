package fleet

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/bounded"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Reopening lost conversations in tmux (`restore --exec`): one window each,
// in the current session or in a session of its own, started one after the
// other.

// Pace spaces the windows restore starts: Gap apart, each pause longer or
// shorter by up to Jitter of it, drawn anew. Agents started at the same
// moment all find the login they share (one token per user, in one file or
// keychain entry) due for a refresh and refresh it at once; where a refresh
// token may be used once only, every refresh but the first fails and those
// agents come up logged out. Peers that start many agents at once found
// exactly that. A pause lets each start, refresh and store the new token
// before the next one reads it; the jitter keeps restores that run side by
// side (two machines on one account) from falling into step.
type Pace struct {
	Gap    time.Duration
	Jitter float64 // 0 to 1
}

// Pause is the pause before the next start, for u drawn evenly from [0, 1).
func (p Pace) Pause(u float64) time.Duration {
	j := min(max(p.Jitter, 0), 1)
	return time.Duration(float64(p.Gap) * (1 + j*(2*u-1)))
}

// DefaultSession is the tmux session restore opens its windows in when it
// runs outside tmux and no session is named.
const DefaultSession = "fleetcom-restore"

// ValidSession reports a session name restore accepts: 1 to 64 letters,
// digits, '-' and '_', not starting with '-'. tmux would change a '.' or a
// ':', and reads a '#' as the start of a format.
func ValidSession(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Window is one conversation's window as restore opens it.
type Window struct {
	Session string // "" for the current session (restore runs inside tmux)
	Create  bool   // the session does not exist yet: this window starts it, detached
	Name    string // the window's name
	Dir     string // its directory, absolute
	Command string // the shell command it runs (ReopenCommand)
}

// ReopenCommand is the shell command that reopens conversation id of tool
// in a window: exec of resume (fleetcom's own words that resume a
// conversation, run it and then leave the user in a shell, program first),
// the tool and the ID, each word quoted for every shell tmux may run it
// with. The tool must be registered
// and the ID of its grammar: nothing else of a live file reaches tmux.
func ReopenCommand(resume []string, tool, id string) (string, error) {
	a, ok := agents.Named(tool)
	switch {
	case !ok:
		return "", fmt.Errorf("unknown tool %q", tool)
	case !a.ID.Valid(id):
		return "", fmt.Errorf("invalid %s id %q", tool, id)
	case len(resume) == 0:
		return "", errors.New("no command to resume with")
	}
	words := []string{"exec"}
	for _, w := range append(append([]string(nil), resume...), tool, id) {
		words = append(words, safe.Quote(w))
	}
	return strings.Join(words, " "), nil
}

// WindowName names a conversation's window: its tool and the start of its
// ID.
func WindowName(tool, id string) string {
	short := id
	if len(short) > 8 {
		short = short[:8]
	}
	return tool + "-" + short
}

// Args are the tmux arguments (after "tmux") that open the window,
// detached, and print its pane: a new session when it creates one, else a
// window of the named session (exactly that name) or of the current one.
// tmux reads the directory and the name as formats, so every '#' in them is
// doubled; the command is not read so.
func (w Window) Args() []string {
	var args []string
	switch {
	case w.Create:
		args = []string{"new-session", "-d", "-s", w.Session}
	case w.Session != "":
		args = []string{"new-window", "-d", "-t", "=" + w.Session + ":"}
	default:
		args = []string{"new-window", "-d"}
	}
	return append(args, "-P", "-F", "#{pane_id}", "-n", formatEscape(w.Name), "-c", formatEscape(w.Dir), w.Command)
}

// Line is the tmux command that opens the window, quoted for a shell: what
// `restore --dry-run` prints.
func (w Window) Line() string {
	words := []string{"tmux"}
	for _, a := range w.Args() {
		words = append(words, safe.Quote(a))
	}
	return strings.Join(words, " ")
}

// formatEscape keeps tmux from reading s as a format: "##" is a '#'.
func formatEscape(s string) string { return strings.ReplaceAll(s, "#", "##") }

// tmuxStart bounds one tmux command of restore's: starting a server on a
// loaded machine takes a moment, a server that does not answer must not
// hold restore.
const tmuxStart = 15 * time.Second

// Open runs tmux to open the window, and returns its pane ("%7").
func (w Window) Open() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), tmuxStart)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", w.Args()...)
	errb := &bounded.Tail{Limit: 4 << 10}
	cmd.Stderr = errb
	out, err := bounded.Output(cmd, 4<<10)
	if err != nil {
		if msg := strings.TrimSpace(string(errb.Bytes)); msg != "" {
			return "", fmt.Errorf("tmux: %s", msg)
		}
		return "", fmt.Errorf("tmux: %w", err)
	}
	pane := strings.TrimSpace(string(out))
	if !tmuxPane(pane) {
		return "", fmt.Errorf("tmux named no pane for the window: %q", pane)
	}
	return pane, nil
}

// HasSession reports whether the tmux server restore talks to has a
// session of exactly that name; no server, or no tmux, is no.
func HasSession(name string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), tmuxWait)
	defer cancel()
	return bounded.Run(exec.CommandContext(ctx, "tmux", "has-session", "-t", "="+name)) == nil
}
