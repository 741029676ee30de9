package e2e

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	// grokHintRE is Grok's exit hint. It is printed after /quit, a double
	// Ctrl-C or Ctrl-D, or SIGTERM once a prompt was sent, and after /quit
	// even before any prompt.
	grokHintRE = regexp.MustCompile(`Resume this session with:\s*\n\s*grok --resume ([0-9A-Fa-f-]{36})`)
)

// grokInputMarker starts the input line of Grok's prompt box. The model
// name of the World's config is drawn on the box's border.
const grokInputMarker = "❯"

// grokReady reports whether Grok's prompt box is on screen: the input
// marker and the configured model's name. Both are the World's own or
// the prompt's essence, not footer wording.
func grokReady(screen string) bool {
	return strings.Contains(screen, grokInputMarker) && strings.Contains(screen, grokModel)
}

// WaitGrok waits until Grok's prompt box is on screen.
func WaitGrok(p *Pane) string {
	p.t.Helper()
	return p.WaitUntil("grok's prompt box", startWait, grokReady)
}

// grokIdle reports whether Grok takes input and runs no turn: its footer
// offers Ctrl+c to cancel while a turn runs, which goes on for a while after
// the reply shows (Grok asks the model again to wrap the turn up).
func grokIdle(screen string) bool {
	return grokReady(screen) && !strings.Contains(bottom(screen, busyLines), grokBusy)
}

// ReplyGrok waits until text is on screen and Grok's turn is over.
func ReplyGrok(p *Pane, text string) string {
	p.t.Helper()
	return p.WaitUntil(strconv.Quote(text)+" and Grok idle", replyWait, func(s string) bool {
		return strings.Contains(s, text) && grokIdle(s)
	})
}

// QuitGrok quits a Grok TUI with /quit and returns its exit status and last
// screen.
func QuitGrok(p *Pane) (int, string) {
	p.t.Helper()
	p.WaitUntil("Grok idle", replyWait, grokIdle)
	p.Submit("/quit", typeWait)
	return p.WaitExit(exitWait)
}

// panePID is the process ID of the program a pane runs. Grok's command is
// its native binary (CLIs marks it Native), so for grok this is the Grok
// process itself.
func panePID(p *Pane) int {
	p.t.Helper()
	out := strings.TrimSpace(p.x.must(p.t, "display-message", "-p", "-t", p.id, "#{pane_pid}"))
	pid, err := strconv.Atoi(out)
	if err != nil {
		p.t.Fatalf("pane pid %q: %v", out, err)
	}
	return pid
}
