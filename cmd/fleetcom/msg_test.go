package main

import (
	"io"
	"strings"
	"testing"
)

// Text read from the tools' stores (a recorded directory, a folder name)
// can hold escape sequences; nothing of it may reach the terminal raw.
func TestMessagesEscapeControls(t *testing.T) {
	var b strings.Builder
	stderr = &b
	defer func(w io.Writer) { stderr = w }(stderr)
	errorf("no session in %s", "/w/\x1b]0;pwned\x07\x1b[2J\u009b31m\u202edir\r")
	got := b.String()
	if strings.ContainsAny(got, "\x1b\x07\r\u009b\u202e") {
		t.Errorf("raw control characters reached stderr: %q", got)
	}
	if !strings.Contains(got, `\x1b]0;pwned\a\x1b[2J`) || !strings.HasSuffix(got, "\n") {
		t.Errorf("message = %q", got)
	}
	b.Reset()
	errorf("matches 2 sessions:\n  a\n  b")
	if strings.Count(b.String(), "\n") != 3 {
		t.Errorf("the lines of a list were not kept: %q", b.String())
	}
}
