package shim

import (
	"bytes"
	"strings"
	"testing"
)

// TestPassThrough: inside tmux or GNU screen an OSC notice goes wrapped as
// the multiplexer passes it on to the terminal outside; the bell and a
// terminal of its own get the sequence as it is.
func TestPassThrough(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	if m := multiplexer(env(map[string]string{"TMUX": "/tmp/tmux-1000/default,123,0", "STY": "1.pts-0"})); m != "tmux" {
		t.Errorf("tmux inside screen: %q", m)
	}
	if m := multiplexer(env(map[string]string{"STY": "1.pts-0"})); m != "screen" {
		t.Errorf("screen: %q", m)
	}
	if m := multiplexer(env(nil)); m != "" {
		t.Errorf("none: %q", m)
	}

	osc9 := terminalNotice("osc9", "Claude Code is waiting", "~/src/p: turn finished after 1m05s")
	if got, want := string(passThrough("tmux", osc9)), "\x1bPtmux;\x1b\x1b]9;Claude Code is waiting: ~/src/p: turn finished after 1m05s\x07\x1b\\"; got != want {
		t.Errorf("tmux: %q, want %q", got, want)
	}
	osc777 := terminalNotice("osc777", "Codex needs you", "~/q: permission request")
	if got, want := string(passThrough("screen", osc777)), "\x1bP\x1b]777;notify;Codex needs you;~/q: permission request\x07\x1b\\"; got != want {
		t.Errorf("screen: %q, want %q", got, want)
	}
	if got := passThrough("", osc9); !bytes.Equal(got, osc9) {
		t.Errorf("no multiplexer: %q", got)
	}
	bell := terminalNotice("bell", "x", "y")
	for _, m := range []string{"tmux", "screen"} {
		if got := passThrough(m, bell); !bytes.Equal(got, bell) {
			t.Errorf("%s: the bell wrapped: %q", m, got)
		}
	}

	// A long notice reaches screen in pieces it keeps whole, which join
	// back into the notice.
	long := terminalNotice("osc9", clean(strings.Repeat("t", 400)), clean(strings.Repeat("b", 400)))
	wrapped := passThrough("screen", long)
	var joined []byte
	for _, piece := range bytes.Split(wrapped, []byte("\x1b\\")) {
		if len(piece) == 0 {
			continue
		}
		body, ok := bytes.CutPrefix(piece, []byte("\x1bP"))
		if !ok || len(body) > screenPiece {
			t.Fatalf("piece %q", piece)
		}
		joined = append(joined, body...)
	}
	if !bytes.Equal(joined, long) {
		t.Errorf("pieces join into %q", joined)
	}
}
