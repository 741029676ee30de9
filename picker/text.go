package picker

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns s as it can be shown on a terminal: nothing in it can
// act on the terminal. Titles and directories come from files anyone could
// have written, so they may hold escape sequences, other control characters,
// invalid UTF-8 or bidirectional overrides. Tabs and line breaks become
// spaces (a multi-line prompt reads as one line), other C0 controls and DEL
// are shown in caret notation (ESC is "^["), and C1 controls, invalid bytes
// and bidirectional controls become U+FFFD.
func Printable(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case 0x20 <= r && r < 0x7f:
			b.WriteByte(byte(r))
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case r < 0x20:
			b.WriteByte('^')
			b.WriteByte(byte(r) + '@')
		case r == 0x7f:
			b.WriteString("^?")
		case r == 0x85:
			b.WriteByte(' ') // NEL, a line break
		case 0x80 <= r && r < 0xa0, bidi(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// bidi reports the bidirectional formatting characters, which reorder what
// follows them on screen and so could make one title look like another.
func bidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}

// runeWidth is the number of terminal cells r takes: 0 for combining marks
// and other zero-width characters, 2 for East Asian wide and fullwidth
// characters and emoji, 1 otherwise. Ambiguous-width characters count as 1,
// as in every terminal's default setting.
func runeWidth(r rune) int {
	switch {
	case r < 0x20 || r == 0x7f:
		return 0 // never printed: Printable has replaced them
	case r < 0x300:
		return 1
	case r == 0x200b || r == 0x200c || r == 0x200d || r == 0x2060 || r == 0xfeff:
		return 0
	case 0x1160 <= r && r <= 0x11ff: // Hangul medial vowels and final consonants
		return 0
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 0
	case wide(r):
		return 2
	}
	return 1
}

// width is the number of terminal cells s takes.
func width(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

// cut returns s in at most w cells: s itself when it fits, else its head
// with an ellipsis in the last cell. A character is never split from the
// combining marks that follow it, and a wide character that would straddle
// the limit is left out.
func cut(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	room := w - 1 // the ellipsis takes one cell
	used, end := 0, 0
	for end < len(s) {
		r, n := utf8.DecodeRuneInString(s[end:])
		rw := runeWidth(r)
		if used+rw > room {
			break
		}
		used += rw
		end += n
	}
	return s[:end] + "…"
}

// cutLeft is cut from the other end: it keeps the tail of s, for a filter
// longer than the prompt line, where the end is what is being typed.
func cutLeft(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	room := w - 1
	used, start := 0, len(s)
	for start > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:start])
		rw := runeWidth(r)
		if used+rw > room {
			break
		}
		used += rw
		start -= n
	}
	// A mark must not be shown without the character it belongs to.
	for start < len(s) {
		r, n := utf8.DecodeRuneInString(s[start:])
		if runeWidth(r) != 0 {
			break
		}
		start += n
	}
	return "…" + s[start:]
}

// pad returns s followed by spaces up to w cells; s must fit in w.
func pad(s string, w int) string {
	if n := w - width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}
