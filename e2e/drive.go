package e2e

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
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

var (
	// claudeHintRE is Claude's exit hint after a conversation with a
	// prompt: the command line, then the ID. From 2.1.332 on the line may
	// repeat launch options between "claude" and "--resume"
	// (hint-echoes-flags). The screen is read with wrapped lines joined, so
	// a long hint is one line here.
	claudeHintRE = regexp.MustCompile(`Resume this session with:\s*\n\s*(claude[^\n]*? --resume ([0-9a-f-]{36}))`)
	// codexHintRE is Codex's exit hint after a turn (daemon off).
	codexHintRE = regexp.MustCompile(`To continue this session, run:\s*\n\s*codex resume ([0-9a-f-]{36})\s*\n\s*Or run codex resume and select `)
	// codexNoTurnRE is all Codex prints when quit before a prompt.
	codexNoTurnRE = regexp.MustCompile(`Session ID: ([0-9a-f-]{36})`)
	// codexMenuRE is a numbered choice of a Codex dialog, which also
	// starts with the prompt sign.
	codexMenuRE = regexp.MustCompile(`^› [0-9]+\. `)
)

// The waits for "ready to type" look for the input line itself, not for
// footers, tips or welcome boxes: those are reworded between releases
// (Claude's "? for shortcuts" footer is gone in 2.1.332), the input line
// is what a person looks for.

// WaitClaude waits until Claude takes input: its input box is on screen and
// empty.
func WaitClaude(p *Pane) string {
	p.t.Helper()
	return p.WaitUntil("Claude's empty input line (❯ between two rules)", startWait, claudeInputEmpty)
}

// WaitCodex waits until Codex takes input: its input line (›) is the last
// thing on screen above its status line.
func WaitCodex(p *Pane) string {
	p.t.Helper()
	return p.WaitUntil("Codex's input line (›) above its status line ("+codexModel+" …)", startWait, codexReady)
}

// A reply on screen is not the end of a turn: the CLI may go on with it
// (Grok makes more requests after the text shows), and a key pressed
// meanwhile goes to the turn, not to the prompt: Ctrl-C cancels the turn
// instead of quitting, and a typed /exit or /quit waits in a queue. Each
// CLI shows, near the bottom of its screen, that a turn is running (its
// interrupt key); idle is the input line without it. Measured on every
// version the matrix drives.
const (
	claudeBusy = "esc to interrupt" // in the footer, on both versions
	codexBusy  = "esc to interrupt" // "Working (3s • esc to interrupt)", above the input line
	grokBusy   = "Ctrl+c:cancel"    // in the footer's list of keys
	busyLines  = 8                  // how far from the bottom the sign shows
)

// bottom is the last n lines of a screen: a scrolled-off frame in the
// history may still show a turn that is long over.
func bottom(screen string, n int) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// claudeIdle reports whether Claude takes input and runs no turn.
func claudeIdle(screen string) bool {
	return claudeInputEmpty(screen) && !strings.Contains(bottom(screen, busyLines), claudeBusy)
}

// codexIdle reports whether Codex takes input and runs no turn.
func codexIdle(screen string) bool {
	return codexReady(screen) && !strings.Contains(bottom(screen, busyLines), codexBusy)
}

// ReplyClaude waits until text is on screen and Claude's turn is over.
func ReplyClaude(p *Pane, text string) string {
	p.t.Helper()
	return p.WaitUntil(strconv.Quote(text)+" and Claude idle", replyWait, func(s string) bool {
		return strings.Contains(s, text) && claudeIdle(s)
	})
}

// ReplyCodex waits until text is on screen and Codex's turn is over.
func ReplyCodex(p *Pane, text string) string {
	p.t.Helper()
	return p.WaitUntil(strconv.Quote(text)+" and Codex idle", replyWait, func(s string) bool {
		return strings.Contains(s, text) && codexIdle(s)
	})
}

// ClaudeHint returns the command line of Claude's last exit hint on screen
// and the ID it resumes, or two empty strings.
func ClaudeHint(screen string) (line, id string) {
	all := claudeHintRE.FindAllStringSubmatch(screen, -1)
	if len(all) == 0 {
		return "", ""
	}
	m := all[len(all)-1]
	return m[1], m[2]
}

// ExitClaude quits a Claude TUI with /exit and returns its exit status and
// last screen.
func ExitClaude(p *Pane) (int, string) {
	p.t.Helper()
	p.WaitUntil("Claude idle", replyWait, claudeIdle)
	p.Submit("/exit", typeWait)
	return p.WaitExit(exitWait)
}

// ClearClaude runs /clear and waits until it has taken effect: the screen
// no longer shows gone (a text of the old conversation) and the input box is
// empty again. Typing on before then can land in the old input line.
func ClearClaude(p *Pane, gone string) {
	p.t.Helper()
	p.WaitUntil("Claude idle", replyWait, claudeIdle)
	p.Submit("/clear", typeWait)
	p.WaitUntil("/clear to take effect", replyWait, func(s string) bool {
		return !strings.Contains(s, gone) && claudeInputEmpty(s)
	})
}

// claudeInputEmpty reports whether Claude's input box is on screen and
// empty: a line holding the prompt sign alone (the terminal shows a
// no-break space after it) between two horizontal rules. Dialogs also use
// the sign, to mark a choice, but not alone and not between rules.
func claudeInputEmpty(screen string) bool {
	lines := strings.Split(screen, "\n")
	for i := len(lines) - 2; i >= 1; i-- {
		if strings.TrimSpace(lines[i]) == "❯" {
			return isNamedRule(lines[i-1]) && isRule(lines[i+1])
		}
	}
	return false
}

// isRule reports whether a line is a horizontal rule of box-drawing dashes.
func isRule(line string) bool {
	l := strings.TrimSpace(line)
	return strings.Count(l, "─") >= 10 && strings.Trim(l, "─") == ""
}

// isNamedRule is isRule for the input box's top rule, which carries the
// conversation's name near its right end once it has one (`──── wren work ─`,
// measured on 2.1.197 and 2.1.332).
func isNamedRule(line string) bool {
	l := strings.TrimSpace(line)
	if isRule(l) {
		return true
	}
	left, name, ok := strings.Cut(l, "─ ")
	name, right, ok2 := strings.Cut(name, " ─")
	return ok && ok2 && name != "" && isRule(left+"──────────") && strings.Trim(right, "─") == ""
}

// codexReady reports whether Codex's input line is the last prompt-sign
// line on screen, with its status line, which names the model, below it.
// Before the session is set up a splash screen already shows the input
// line and a footer, but no status line: quitting then leaves no session.
// Earlier turns shown on resume also start with the sign, but are followed
// by the reply (•); dialog choices are numbered.
func codexReady(screen string) bool {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	status := false
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-6; i-- {
		l := lines[i]
		if strings.HasPrefix(l, "›") {
			return status && !codexMenuRE.MatchString(l)
		}
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "  ") {
			return false
		}
		status = status || strings.HasPrefix(strings.TrimSpace(l), codexModel+" ")
	}
	return false
}

// QuitCodex quits a Codex TUI with /quit and returns its exit status and
// last screen.
func QuitCodex(p *Pane) (int, string) {
	p.t.Helper()
	p.WaitUntil("Codex idle", replyWait, codexIdle)
	p.Submit("/quit", typeWait)
	return p.WaitExit(exitWait)
}

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

// WaitNotifyOf waits until a call after the first skip of the notify
// record names thread, and returns it. Which thread notifies first is not
// fixed (a title thread may finish before the turn's own), so a test looks
// for the thread it means rather than at a position.
func WaitNotifyOf(t testing.TB, record, thread string, skip int) NotifyCall {
	t.Helper()
	var got NotifyCall
	found := eventually(replyWait, func() bool {
		calls := NotifyCalls(record)
		for i := skip; i < len(calls); i++ {
			if calls[i].Payload.ThreadID == thread {
				got = calls[i]
				return true
			}
		}
		return false
	})
	if !found {
		b, _ := os.ReadFile(record)
		t.Fatalf("no notify call for thread %s after the first %d:\n%s", thread, skip, b)
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
