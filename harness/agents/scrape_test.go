package agents

import (
	"bytes"
	"testing"
)

// tuiTail builds size bytes of output shaped like a TUI's redraws, ending
// in a Claude exit hint.
func tuiTail(size int) []byte {
	var b bytes.Buffer
	frame := "\x1b[H\x1b[2J\x1b[38;5;246m╭────────────╮\x1b[0m\r\n\x1b[1m> \x1b[0mwrite a parser for claude output\x1b[K\r\n" +
		"\x1b[2m  ⎿  Reading harness/claude.go (codex resume in text)\x1b[22m\r\n\x1b]0;✳ Working\x07"
	for b.Len() < size {
		b.WriteString(frame)
	}
	b.WriteString("\r\n\x1b[2mResume this session with:\x1b[22m\r\n\x1b[2mclaude --resume " + uid + "\x1b[22m\r\n")
	return b.Bytes()
}

func BenchmarkScrapeExit1MiB(b *testing.B) {
	tail := tuiTail(1 << 20)
	b.SetBytes(int64(len(tail)))
	for b.Loop() {
		if mustNamed("claude").ScrapeExit(tail) != uid {
			b.Fatal("hint not found")
		}
	}
}

func BenchmarkScrapeExit1MiBNoHint(b *testing.B) {
	tail := tuiTail(1 << 20)
	tail = tail[:bytes.LastIndex(tail, []byte("Resume"))]
	b.SetBytes(int64(len(tail)))
	for b.Loop() {
		if mustNamed("codex").ScrapeExit(tail) != "" {
			b.Fatal("phantom hint")
		}
	}
}
