package harness

import (
	"strings"
	"testing"
)

func TestPlainText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"a\x1b[31mb\x1b[0mc", "abc"},
		{"a\x1b[2Cb", "a b"},
		{"a\x1b[3;1Hb", "a\nb"},
		{"a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"},
		{"a\x1b(Bb", "ab"},
		{"a\rb\r\nc", "a\nb\n\nc"},
		{"a\x07\x08b", "a  b"},
		{"a\x1b", "a"},
		{"a\x1b[12", "a"},
		{"a\x1b]0;title", "a"},
		{"a\x1b[1;2\x00b", "a b"},
	}
	for _, c := range cases {
		if got := string(PlainText([]byte(c.in))); got != c.want {
			t.Errorf("plainText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A hint under its banner may repeat launch options before its words, up
// to a bound: a line that goes on past it is not a hint.
func TestHintEchoBound(t *testing.T) {
	h := Hint{Spec: &Spec{Name: "fake", ID: &UUID}, Words: [][]string{{"--resume"}}, Banner: "Resume this session with:"}
	line := func(options int) []byte {
		return []byte("Resume this session with:\nfake" + strings.Repeat(" -v", options) + " --resume " + uid + "\n")
	}
	if got := h.Last(line(maxEchoedWords - 1)); got != uid {
		t.Errorf("%d options: %q", maxEchoedWords-1, got)
	}
	if got := h.Last(line(maxEchoedWords + 1)); got != "" {
		t.Errorf("%d options: %q, want none", maxEchoedWords+1, got)
	}
}
