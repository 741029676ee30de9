package harness

import (
	"strings"
	"testing"
)

const other = "2a2b2c2d-3e3f-4a4b-8c5d-6e6f6a6b6c6d"

func TestScrapeExit(t *testing.T) {
	const (
		esc  = "\x1b"
		dim  = esc + "[2m"
		off  = esc + "[22m"
		rst  = esc + "[0m"
		osc  = esc + "]0;✳ Claude Code\x07"
		home = esc + "[H" + esc + "[2J"
	)
	cases := []struct {
		name string
		h    Agent
		tail string
		want string
	}{
		{"claude plain", claudeA(), "Resume this session with:\nclaude --resume " + uid + "\n", uid},
		{"claude dim two lines", claudeA(), osc + "\r\n" + dim + "Resume this session with:" + off + "\r\n" +
			dim + "claude --resume " + uid + off + "\r\n" + rst, uid},
		{"claude styled words", claudeA(), dim + "claude" + rst + " " + esc + "[1m--resume" + rst + " " + esc + "[36m" + uid + rst, uid},
		{"claude cursor moves between words", claudeA(), "claude" + esc + "[1C--resume" + esc + "[1C" + uid, uid},
		{"claude hint split over two lines", claudeA(), "Resume this session with: claude --resume\r\n" + uid + "\r\n", uid},
		{"claude last hint wins", claudeA(), "claude --resume " + other + "\n... later ...\nclaude --resume " + uid + "\n", uid},
		{"claude quoted", claudeA(), "claude --resume '" + uid + "'\n", uid},
		{"claude uppercase ignored", claudeA(), "claude --resume " + strings.ToUpper(uid) + "\n", ""},
		{"claude uppercase last falls back to earlier valid", claudeA(), "claude --resume " + uid + "\nclaude --resume " + strings.ToUpper(other), uid},
		{"claude braced ignored", claudeA(), "claude --resume {" + uid + "}\n", ""},
		{"claude id runs on", claudeA(), "claude --resume " + uid + "0\n", ""},
		{"claude id with trailing word", claudeA(), "claude --resume " + uid + "x\n", ""},
		{"claude short id", claudeA(), "claude --resume " + uid[:30] + "\n", ""},
		{"claude other spelling", claudeA(), "claude -r " + uid + "\n", ""},
		{"claude inside another word", claudeA(), "myclaude --resume " + uid + "\n", ""},
		{"claude path program", claudeA(), "/usr/bin/claude --resume " + uid + "\n", uid},
		{"claude never takes codex's", claudeA(), "To continue this session, run:\n  codex resume " + uid + "\n", ""},
		{"claude never takes grok's", claudeA(), "grok --resume " + uid + "\n", ""},
		{"claude truncated escape at start", claudeA(), "38;5;246mclaude --resume " + uid + "\n", uid},
		{"claude truncated bracket escape", claudeA(), "[2mclaude --resume " + uid + "\n", uid},
		{"claude truncated utf8 at start", claudeA(), "\x9c\xa8 claude --resume " + uid + "\n", uid},
		{"claude utf8 around", claudeA(), "✻ Résumé — claude --resume " + uid + " ✓\n", uid},
		{"claude incomplete escape at end", claudeA(), "claude --resume " + uid + "\n" + esc + "[", uid},
		{"claude redraw with cr", claudeA(), "Working…\rclaude --resume " + uid + "\r\n", uid},
		{"claude cleared screen after", claudeA(), "claude --resume " + uid + home, uid},
		{"claude nothing", claudeA(), "Bye!\n", ""},
		{"claude id split by a control byte", claudeA(), "claude --resume " + uid[:30] + "\x04" + uid[30:] + "\n", ""},
		{"claude id styled piece by piece", claudeA(), "claude --resume " + uid[:30] + "\x1b[1m" + uid[30:] + "\n", uid},
		{"claude echoed model", claudeA(), dim + "Resume this session with:" + off + "\r\n" + dim + "claude --model opus --resume " + uid + off + "\r\n", uid},
		{"claude echoed equals and short options", claudeA(), "Resume this session with:\nclaude --model=opus -d --permission-mode default --resume " + uid + "\n", uid},
		{"claude echoed settings path", claudeA(), "Resume this session with:\r\nclaude --settings /run/user/1000/fleetcom/4242-9f3c/claude-settings.json --add-dir /srv/a@b:c+d --resume " + uid + "\r\n", uid},
		{"claude echoed and wrapped inside a word", claudeA(), "Resume this session with:\r\nclaude --append-system-prompt " + strings.Repeat("b", 150) + "\r\n" + strings.Repeat("b", 30) + " --resume " + uid + "\r\n", uid},
		{"claude echoed banner placed by cursor moves", claudeA(), "Resume" + esc + "[1Cthis" + esc + "[1Csession" + esc + "[1Cwith:" + esc + "[2;1Hclaude --model opus --resume " + uid, uid},
		{"claude options without the banner", claudeA(), "claude --model opus --resume " + uid + "\n", ""},
		{"claude options not right under the banner", claudeA(), "Resume this session with:\nrun this: claude --model opus --resume " + uid + "\n", ""},
		{"claude echoed quoted value", claudeA(), "Resume this session with:\nclaude --append-system-prompt 'be brief' --resume " + uid + "\n", ""},
		{"claude echoed shell text", claudeA(), "Resume this session with:\nclaude --x $(touch) --resume " + uid + "\n", ""},
		{"claude echoed line goes on", claudeA(), "Resume this session with:\nclaude --model opus --resume " + uid + " --fork-session\n", ""},
		{"claude echoed too many words", claudeA(), "Resume this session with:\nclaude" + strings.Repeat(" -v", maxEchoedWords+1) + " --resume " + uid + "\n", ""},
		{"claude echoed after an earlier bare hint", claudeA(), "claude --resume " + other + "\nResume this session with:\nclaude --model opus --resume " + uid + "\n", uid},
		{"claude bare after an echoed hint", claudeA(), "Resume this session with:\nclaude --model opus --resume " + other + "\n/clear\nclaude --resume " + uid + "\n", uid},
		{"claude echoed hint uppercase", claudeA(), "Resume this session with:\nclaude --model opus --resume " + strings.ToUpper(uid) + "\n", ""},
	}
	for _, c := range cases {
		if got := c.h.ScrapeExit([]byte(c.tail)); got != c.want {
			t.Errorf("%s: ScrapeExit = %q, want %q (plain %q)", c.name, got, c.want, PlainText([]byte(c.tail)))
		}
	}
}

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
