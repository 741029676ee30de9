package e2e

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/termtest"
)

// Waits are keyed on screen text; these bound them generously, as a loaded
// machine can take seconds to start a CLI, and more to echo a keystroke or
// to exit. They only bound a wait for an event: none stands in for one.
const (
	startWait = 120 * time.Second
	replyWait = 90 * time.Second
	exitWait  = 60 * time.Second
	typeWait  = 30 * time.Second
)

// A reply on screen is not the end of a turn: the CLI may go on with it
// (Grok makes more requests after the text shows), and a key pressed
// meanwhile goes to the turn, not to the prompt: Ctrl-C cancels the turn
// instead of quitting, and a typed /exit or /quit waits in a queue. Each
// CLI shows, near the bottom of its screen, that a turn is running (its
// interrupt key); idle is the input line without it. Measured on every
// version the matrix drives; each world file names its CLI's sign.
const busyLines = 8 // how far from the bottom the sign shows

// bottom is the last n lines of a screen: a scrolled-off frame in the
// history may still show a turn that is long over.
func bottom(screen string, n int) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// replyOf waits until text is on screen and idle says the turn is over.
func replyOf(p *Pane, who, text string, idle func(string) bool) string {
	p.t.Helper()
	return p.WaitUntil(strconv.Quote(text)+" and "+who+" idle", replyWait, func(s string) bool {
		return strings.Contains(s, text) && idle(s)
	})
}

// The waits for "ready to type" look for the input line itself, not for
// footers, tips or welcome boxes: those are reworded between releases
// (Claude's "? for shortcuts" footer is gone in 2.1.332), the input line
// is what a person looks for.

// Hint returns the ID of the last match of re on screen (its last group),
// or "".
func Hint(re *regexp.Regexp, screen string) string {
	all := re.FindAllStringSubmatch(screen, -1)
	if len(all) == 0 {
		return ""
	}
	m := all[len(all)-1]
	return m[len(m)-1]
}

// eventually polls f until it returns true or the wait is over.
func eventually(wait time.Duration, f func() bool) bool {
	deadline := time.Now().Add(wait)
	var pause termtest.Backoff
	for {
		if f() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		pause.Sleep()
	}
}

// keys returns the keys of a map, for messages.
func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
