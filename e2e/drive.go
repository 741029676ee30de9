package e2e

import (
	"regexp"
	"time"
)

// Waits are keyed on screen text; these bound them generously, as a loaded
// machine can take seconds to start a CLI.
const (
	startWait = 90 * time.Second
	replyWait = 60 * time.Second
	exitWait  = 30 * time.Second
	typeWait  = 10 * time.Second
)

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
	for {
		if f() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(150 * time.Millisecond)
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
