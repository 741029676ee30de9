package grok

import (
	"bytes"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/harness"
)

// Grok keeps its state in the terminal's title (OSC 0), measured with
// 1.0.41 in its default mode:
//
//	Fake session title - grok                               it waits for a prompt
//	⠙ - Waiting for response… - Fake session title - grok   a turn runs (a spinner)
//	⚠ Action Required - ⠙ - Create a file… - … - grok        a command waits for approval
//
// It asks before a command outside what it deems safe (rm, curl: not a
// bare touch), and not at all in its always-approve mode. The
// conversation's title is the model's words: only the title's start and
// its " - grok" end are read.
var (
	grokAsks  = []byte("\u26a0 Action Required - ")
	grokEnd   = []byte(" - grok")
	grokTitle = []byte("grok")
)

// Signal implements harness.Signaller.
func (grok) Signal(osc []byte) (harness.State, string, bool) {
	title, ok := bytes.CutPrefix(osc, []byte("0;"))
	if !ok || !bytes.HasSuffix(title, grokEnd) && !bytes.Equal(title, grokTitle) {
		return "", "", false
	}
	if bytes.HasPrefix(title, grokAsks) {
		return harness.NeedsYou, "approval request", true
	}
	// A spinner is a braille pattern (U+2800-U+28FF), then " - ".
	if r, n := utf8.DecodeRune(title); r >= 0x2800 && r <= 0x28ff && bytes.HasPrefix(title[n:], []byte(" - ")) {
		return harness.Working, "", true
	}
	return harness.Waiting, "", true
}

// NeedsYouFrom implements harness.NeedsYouTeller.
func (grok) NeedsYouFrom(string, harness.HookPolicy) string {
	return `Grok's window title ("Action Required"), where it asks: never in its always-approve mode`
}
