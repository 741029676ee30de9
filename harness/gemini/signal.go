package gemini

import (
	"bytes"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/harness"
)

// Gemini CLI keeps its state in the terminal's title (OSC 0), an icon and
// a word before the project's folder, measured with 0.61.0 in its default
// settings:
//
//	◇  Ready (p)              it waits for a prompt
//	✦  Working… (p)           a turn runs
//	✋  Action Required (p)    a confirmation (run a command, edit a file) waits
//
// Only the words count, at the start of the title: the folder's name, in
// brackets after them, never does. A user who turned the title off has
// none, and the terminal decides as for any agent.
var titleStates = []struct {
	word  string
	state harness.State
	why   string
}{
	{"Action Required", harness.NeedsYou, "action required"},
	{"Working", harness.Working, ""},
	{"Ready", harness.Waiting, ""},
}

// Signal implements harness.Signaller.
func (gemini) Signal(osc []byte) (harness.State, string, bool) {
	title, ok := bytes.CutPrefix(osc, []byte("0;"))
	if !ok {
		if title, ok = bytes.CutPrefix(osc, []byte("2;")); !ok {
			return "", "", false
		}
	}
	// The icon: one symbol, then spaces.
	if r, n := utf8.DecodeRune(title); n > 0 && r >= utf8.RuneSelf {
		title = title[n:]
	}
	title = bytes.TrimLeft(title, " ")
	for _, t := range titleStates {
		if rest, ok := bytes.CutPrefix(title, []byte(t.word)); ok && (len(rest) == 0 || rest[0] == ' ' || rest[0] >= utf8.RuneSelf) {
			return t.state, t.why, true
		}
	}
	return "", "", false
}

// NeedsYouFrom implements harness.NeedsYouTeller.
func (gemini) NeedsYouFrom(string, harness.HookPolicy) string {
	return `Gemini CLI's window title ("Action Required"); none when its title is turned off`
}
