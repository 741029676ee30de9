package harness

import (
	"bytes"
	"strings"
)

// Exit hints are read from the raw tail of what the child wrote to its
// terminal. TUIs style and position that text with escape sequences, redraw
// with carriage returns and may wrap a hint over two lines, and the tail may
// begin in the middle of a sequence. PlainText reduces all of that to text in
// which the words of a hint are separated by whitespace, then each harness
// looks for its own hint shapes from the end backwards.

// BannerShown reports whether the end of the terminal output shows one of
// the agent's exit banners, words separated by any whitespace.
func (a *Spec) BannerShown(tail []byte) bool {
	if len(tail) > scrapeWindow {
		tail = tail[len(tail)-scrapeWindow:]
	}
	text := bytes.Join(bytes.Fields(PlainText(tail)), []byte(" "))
	for _, b := range a.Banners {
		if bytes.Contains(text, []byte(b)) {
			return true
		}
	}
	return false
}

// BannerLine returns the plain text of the line under the last banner in
// the end of the terminal output, up to its line break: where a CLI prints
// its hint. false when the banner is not there.
func BannerLine(tail []byte, banner string) ([]byte, bool) {
	if len(tail) > scrapeWindow {
		tail = tail[len(tail)-scrapeWindow:]
	}
	text := PlainText(tail)
	b := lastPhrase(text, banner)
	if b < 0 {
		return nil, false
	}
	p, _ := skipSpace(text, b)
	line := text[p:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return line, true
}

// scrapeWindow is how much of the end of a tail is searched first: exit
// hints are the last thing a CLI prints.
const scrapeWindow = 32 << 10

// ScrapeTail runs find over the plain text of the end of tail, and over the
// whole tail only when the end holds no hint.
func ScrapeTail(tail []byte, find func(text []byte) string) string {
	if len(tail) > scrapeWindow {
		if id := find(PlainText(tail[len(tail)-scrapeWindow:])); id != "" {
			return id
		}
	}
	return find(PlainText(tail))
}

// PlainText strips terminal control sequences from b. Cursor movements become
// whitespace (a forward move is a space, anything that changes the line a
// newline) so words a TUI placed apart stay apart; styling disappears.
func PlainText(b []byte) []byte {
	b = skipTruncatedStart(b)
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c == 0x1b:
			n, sep := escapeSequence(b[i:])
			if n == 0 { // incomplete at the end of the buffer
				return out
			}
			if sep != 0 {
				out = append(out, sep)
			}
			i += n
			continue
		case c == '\r' || c == '\n' || c == '\v' || c == '\f':
			out = append(out, '\n')
		case c == '\t':
			out = append(out, ' ')
		case c < 0x20 || c == 0x7f:
			// Other C0 controls (bell, backspace, NUL…) carry no text, but
			// they still separate what stands on either side: an ID is
			// never glued together across one.
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
		i++
	}
	return out
}

// escapeSequence measures the escape sequence at the start of b (b[0] is
// ESC). It returns its length, or 0 when b ends inside it, and the separator
// it stands for in plain text (0 for none).
func escapeSequence(b []byte) (int, byte) {
	if len(b) < 2 {
		return 0, 0
	}
	switch b[1] {
	case '[': // CSI: parameters, intermediates, one final byte
		for j := 2; j < len(b); j++ {
			c := b[j]
			if c >= 0x40 && c <= 0x7e {
				return j + 1, csiSeparator(c)
			}
			if c < 0x20 || c > 0x7e {
				return j, 0 // malformed: drop what we have
			}
		}
		return 0, 0
	case ']', 'P', 'X', '^', '_': // strings ended by BEL or ST
		for j := 2; j < len(b); j++ {
			if b[j] == 0x07 {
				return j + 1, 0
			}
			if b[j] == 0x1b {
				if j+1 < len(b) && b[j+1] == '\\' {
					return j + 2, 0
				}
				return j, 0 // unterminated: stop before the next ESC
			}
		}
		return 0, 0
	case '(', ')', '*', '+', '-', '.', '/', '#', '%', ' ':
		if len(b) < 3 {
			return 0, 0
		}
		return 3, 0
	case 'E', 'D', 'M':
		return 2, '\n'
	}
	return 2, 0
}

// csiSeparator maps a CSI final byte to the whitespace it stands for.
func csiSeparator(final byte) byte {
	switch final {
	case 'C', 'G', '`', 'a', 'I', 'X': // forward, to column, tab, erase chars
		return ' '
	case 'A', 'B', 'E', 'F', 'H', 'f', 'd', 'e', 'J':
		return '\n'
	}
	return 0
}

// skipTruncatedStart drops what a bounded tail may begin with when it was cut
// inside a character or an escape sequence: UTF-8 continuation bytes, and the
// remainder of a CSI ("[38;5;12m" or "5;12m") or of an OSC ended by BEL.
func skipTruncatedStart(b []byte) []byte {
	for len(b) > 0 && b[0]&0xc0 == 0x80 {
		b = b[1:]
	}
	if len(b) == 0 {
		return b
	}
	if b[0] == ']' {
		if j := bytes.IndexByte(b, 0x07); j >= 0 && bytes.IndexByte(b[:j], 0x1b) < 0 {
			return b[j+1:]
		}
	}
	j := 0
	if b[0] == '[' {
		j = 1
	}
	params := 0
	for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == ';' || b[j] == ':' || b[j] == '?') {
		j++
		params++
	}
	if (j > 1 || params > 0) && j < len(b) && b[j] >= 0x40 && b[j] <= 0x7e {
		return b[j+1:]
	}
	return b
}

// Hint is one shape of an agent's exit hint in plain text: the program
// word, then the given words, then an ID. Last reads the ID of its last
// occurrence. The program word is the Spec's Name and the ID passes its
// grammar, so a Hint declared at package level is static data.
type Hint struct {
	Spec  *Spec
	Words [][]string // alternatives for each word after the program
	// ReadID reads the ID where the words end; nil means IDAt, an ID right
	// there, bare or quoted.
	ReadID func(text []byte, p int, valid func(string) bool) string
	// Joined: the last word and the ID are one word, joined by '='
	// (Copilot's --resume=<id>).
	Joined bool
	// Banner, when set, is the line a CLI prints above a hint that may
	// repeat launch options between the program word and the words
	// (Claude Code from 2.1.332: `claude --model opus --resume <id>`).
	// Options are accepted only there, right under the banner, and only
	// as plain words; nothing but the ID is ever taken from the line.
	Banner string
}

// Echoed options are bounded: Claude repeats a handful, and a line that
// goes on past these is not a hint.
const (
	maxEchoedWords = 64
	maxEchoedBytes = 4096
)

// Last returns the ID of the last occurrence of the hint in text, "" when
// there is none.
func (m Hint) Last(text []byte) string {
	id, _ := m.LastAt(text)
	return id
}

// LastAt is Last with where that occurrence starts in text (-1 for none),
// for an agent whose hint has two shapes, to take the later. The
// occurrence is the bare shape anywhere, or the shape with options under
// the banner, whichever comes later.
func (m Hint) LastAt(text []byte) (string, int) {
	id, at := m.lastBare(text)
	if m.Banner == "" {
		return id, at
	}
	if eid, eat := m.underBanner(text); eid != "" && eat > at {
		return eid, eat
	}
	return id, at
}

// underBanner reads the hint on the line after the last banner: the
// program word, plain words, then the words and the ID.
func (m Hint) underBanner(text []byte) (string, int) {
	b := lastPhrase(text, m.Banner)
	if b < 0 {
		return "", -1
	}
	p, _ := skipSpace(text, b)
	if !bytes.HasPrefix(text[p:], []byte(m.Spec.Name)) {
		return "", -1
	}
	at := p
	pos := p + len(m.Spec.Name)
	for range maxEchoedWords {
		if id := m.matchAt(text, pos); id != "" {
			if !endsLine(text, pos, id) {
				return "", -1
			}
			return id, at
		}
		w, ok := skipSpace(text, pos)
		if !ok {
			return "", -1
		}
		end := w
		for end < len(text) && plainWordByte(text[end]) && end-at < maxEchoedBytes {
			end++
		}
		if end == w || end < len(text) && text[end] != ' ' && text[end] != '\n' {
			return "", -1
		}
		pos = end
	}
	return "", -1
}

// endsLine reports whether the first id after pos ends its line (a closing
// quote and spaces aside): the hint under a banner ends in its ID.
func endsLine(text []byte, pos int, id string) bool {
	i := bytes.Index(text[pos:], []byte(id))
	if i < 0 {
		return false
	}
	p := pos + i + len(id)
	if p < len(text) && (text[p] == '\'' || text[p] == '"') {
		p++
	}
	for p < len(text) && text[p] == ' ' {
		p++
	}
	return p == len(text) || text[p] == '\n'
}

// lastPhrase returns where the last occurrence of phrase in text ends, its
// words separated by any run of whitespace (a TUI may place them with
// cursor moves), or -1.
func lastPhrase(text []byte, phrase string) int {
	words := strings.Fields(phrase)
	if len(words) == 0 {
		return -1
	}
	first := []byte(words[0])
	for end := len(text); end > 0; {
		i := bytes.LastIndex(text[:end], first)
		if i < 0 {
			return -1
		}
		end = i
		p, ok := i+len(first), true
		for _, w := range words[1:] {
			if p, ok = skipSpace(text, p); !ok || !bytes.HasPrefix(text[p:], []byte(w)) {
				ok = false
				break
			}
			p += len(w)
		}
		if ok {
			return p
		}
	}
	return -1
}

// plainWordByte reports the bytes Claude Code allows in an option it
// repeats in its hint: letters, digits and _ . / : + - @ =.
func plainWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '.' || c == '/' || c == ':' || c == '+' || c == '-' || c == '@' || c == '='
}

// lastBare returns the ID of the last program-words-ID occurrence and
// where it starts, or -1.
func (m Hint) lastBare(text []byte) (string, int) {
	prog := []byte(m.Spec.Name)
	end := len(text)
	for end > 0 {
		i := bytes.LastIndex(text[:end], prog)
		if i < 0 {
			return "", -1
		}
		end = i
		if i > 0 && wordByte(text[i-1]) {
			continue // part of a longer word, e.g. "myclaude"
		}
		if id := m.matchAt(text, i+len(prog)); id != "" {
			return id, i
		}
	}
	return "", -1
}

// matchAt matches the words and the ID starting at pos, just after the
// program word.
func (m Hint) matchAt(text []byte, pos int) string {
	for _, alts := range m.Words {
		p, ok := skipSpace(text, pos)
		if !ok {
			return ""
		}
		pos = -1
		for _, w := range alts {
			if bytes.HasPrefix(text[p:], []byte(w)) {
				pos = p + len(w)
				break
			}
		}
		if pos < 0 {
			return ""
		}
	}
	if m.Joined {
		if pos >= len(text) || text[pos] != '=' {
			return ""
		}
		return IDAt(text, pos+1, m.Spec.ID.Valid)
	}
	p, ok := skipSpace(text, pos)
	if !ok {
		return ""
	}
	if m.ReadID != nil {
		return m.ReadID(text, p, m.Spec.ID.Valid)
	}
	return IDAt(text, p, m.Spec.ID.Valid)
}

// IDAt reads an ID at p, optionally in quotes: the longest run of ID
// characters there, which must be a whole valid ID. An ID that runs on into
// more word characters is not that ID.
func IDAt(text []byte, p int, valid func(string) bool) string {
	if p < len(text) && (text[p] == '\'' || text[p] == '"') {
		p++
	}
	end := p
	for end < len(text) && IDByte(text[end]) {
		end++
	}
	if id := string(text[p:end]); valid(id) {
		return id
	}
	return ""
}

// IDByte reports the bytes an ID of any grammar may hold.
func IDByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// skipSpace skips at least one whitespace byte.
func skipSpace(text []byte, p int) (int, bool) {
	start := p
	for p < len(text) && (text[p] == ' ' || text[p] == '\n') {
		p++
	}
	return p, p > start
}

// wordByte reports bytes that continue a program word.
func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '.'
}
