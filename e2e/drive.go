package e2e

import (
	"os"
	"regexp"
	"strings"
	"testing"
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

// Screen markers of the pinned CLIs, as measured (see README.md).
const (
	// claudeReady and codexReady are footer texts shown once the prompt
	// takes input.
	claudeReady = "? for shortcuts"
	codexReady  = "? for shortcuts"
)

var (
	// claudeHintRE is Claude's exit hint after a conversation with a prompt.
	claudeHintRE = regexp.MustCompile(`Resume this session with:\s*\n\s*claude --resume ([0-9a-f-]{36})`)
	// codexHintRE is Codex's exit hint after a turn (daemon off).
	codexHintRE = regexp.MustCompile(`To continue this session, run:\s*\n\s*codex resume ([0-9a-f-]{36})\s*\n\s*Or run codex resume and select `)
	// codexNoTurnRE is all Codex prints when quit before a prompt.
	codexNoTurnRE = regexp.MustCompile(`Session ID: ([0-9a-f-]{36})`)
)

// ExitClaude quits a Claude TUI with /exit and returns its exit status and
// last screen.
func ExitClaude(p *Pane) (int, string) {
	p.t.Helper()
	p.Submit("/exit", typeWait)
	return p.WaitExit(exitWait)
}

// ClearClaude runs /clear and waits until it has taken effect: the screen
// no longer shows gone (a text of the old conversation) and the input box is
// empty again. Typing on before then can land in the old input line.
func ClearClaude(p *Pane, gone string) {
	p.t.Helper()
	p.Submit("/clear", typeWait)
	p.WaitUntil("/clear to take effect", replyWait, func(s string) bool {
		return !strings.Contains(s, gone) && claudeInputEmpty(s)
	})
}

// claudeInputEmpty reports whether Claude's input box is empty: its last
// prompt line holds the prompt sign alone.
func claudeInputEmpty(screen string) bool {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); strings.HasPrefix(l, "❯") {
			return l == "❯"
		}
	}
	return false
}

// QuitCodex quits a Codex TUI with /quit and returns its exit status and
// last screen.
func QuitCodex(p *Pane) (int, string) {
	p.t.Helper()
	p.Submit("/quit", typeWait)
	return p.WaitExit(exitWait)
}

// Hint returns the ID of the last match of re on screen, or "".
func Hint(re *regexp.Regexp, screen string) string {
	all := re.FindAllStringSubmatch(screen, -1)
	if len(all) == 0 {
		return ""
	}
	return all[len(all)-1][1]
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

// WaitHooks waits until the hook record holds at least n payloads.
func WaitHooks(t testing.TB, record string, n int) []HookPayload {
	t.Helper()
	var got []HookPayload
	if !eventually(replyWait, func() bool { got = HookPayloads(record); return len(got) >= n }) {
		b, _ := os.ReadFile(record)
		t.Fatalf("want %d SessionStart payloads, got %d:\n%s", n, len(got), b)
	}
	return got
}

// WaitNotifies waits until the notify record holds at least n calls.
func WaitNotifies(t testing.TB, record string, n int) []NotifyCall {
	t.Helper()
	var got []NotifyCall
	if !eventually(replyWait, func() bool { got = NotifyCalls(record); return len(got) >= n }) {
		b, _ := os.ReadFile(record)
		t.Fatalf("want %d notify calls, got %d:\n%s", n, len(got), b)
	}
	return got
}

// keys returns the keys of a map, for messages.
func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
