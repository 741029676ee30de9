package copilot

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Copilot keeps a session's directory and name in workspace.yaml, a flat
// YAML mapping of scalars, as its YAML writer sets them out (measured on
// 1.0.102): plain (`cwd: /tmp/my proj`), single-quoted when plain would
// read as something else (`cwd: '/tmp/a: b #c'`, `name: 'it''s'`),
// double-quoted with escapes for control characters (`cwd: "/tmp/a\tb"`),
// and a literal block for text with line breaks (`name: |-` and the lines
// indented by two). fleetcom reads those shapes only: a value in any other
// shape reads as absent, never as something else.

// yamlValue returns the value of the top-level key in data, and where its
// text starts and ends in data (the end being past its last line's
// newline, or the end of data).
func yamlValue(data []byte, key string) (value string, start, end int, ok bool) {
	prefix := []byte(key + ":")
	for pos := 0; pos < len(data); {
		eol := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if eol >= 0 {
			next = pos + eol + 1
		}
		line := bytes.TrimRight(data[pos:next], "\r\n")
		if !bytes.HasPrefix(line, prefix) {
			pos = next
			continue
		}
		rest := string(line[len(prefix):])
		if rest != "" && rest[0] != ' ' {
			pos = next // another key that begins with this one
			continue
		}
		rest = strings.TrimSpace(rest)
		if rest == "|" || rest == "|-" {
			v, end := yamlBlock(data, next)
			if rest == "|-" {
				v = strings.TrimRight(v, "\n")
			}
			return v, pos, end, true
		}
		v, ok := yamlScalar(rest)
		return v, pos, next, ok
	}
	return "", 0, 0, false
}

// yamlBlock reads the lines of a literal block from pos, indented by at
// least two spaces, each with its newline, and returns where they end.
func yamlBlock(data []byte, pos int) (string, int) {
	var b strings.Builder
	for pos < len(data) {
		eol := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if eol >= 0 {
			next = pos + eol + 1
		}
		line := strings.TrimRight(string(data[pos:next]), "\r\n")
		if line != "" && !strings.HasPrefix(line, "  ") {
			break
		}
		b.WriteString(strings.TrimPrefix(line, "  "))
		b.WriteByte('\n')
		pos = next
	}
	return b.String(), pos
}

// yamlScalar reads a scalar written on one line: plain, single- or
// double-quoted.
func yamlScalar(s string) (string, bool) {
	switch {
	case s == "":
		return "", true
	case s[0] == '\'':
		if len(s) < 2 || s[len(s)-1] != '\'' {
			return "", false
		}
		in := s[1 : len(s)-1]
		if strings.Count(in, "'")%2 != 0 {
			return "", false
		}
		return strings.ReplaceAll(in, "''", "'"), true
	case s[0] == '"':
		return yamlDoubleQuoted(s)
	case strings.ContainsAny(s[:1], "|>&*!%@`{[,]}#"):
		return "", false // a YAML construct, not a plain scalar
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimRight(s[:i], " ")
	}
	return s, true
}

// yamlDoubleQuoted reads a double-quoted scalar: JSON's escapes and YAML's
// \xXX, \UXXXXXXXX, \0, \a, \e, \v, \N, \_, \L, \P and \ followed by a
// space.
func yamlDoubleQuoted(s string) (string, bool) {
	if len(s) < 2 || s[len(s)-1] != '"' {
		return "", false
	}
	in := s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c == '"' {
			return "", false
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(in) {
			return "", false
		}
		hex := 0
		switch in[i] {
		case '\\', '"', '/', ' ':
			b.WriteByte(in[i])
		case 'n':
			b.WriteByte('\n')
		case 't', '\t':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case '0':
			b.WriteByte(0)
		case 'a':
			b.WriteByte(7)
		case 'e':
			b.WriteByte(0x1b)
		case 'v':
			b.WriteByte('\v')
		case 'N':
			b.WriteRune(0x85)
		case '_':
			b.WriteRune(0xa0)
		case 'L':
			b.WriteRune(0x2028)
		case 'P':
			b.WriteRune(0x2029)
		case 'x':
			hex = 2
		case 'u':
			hex = 4
		case 'U':
			hex = 8
		default:
			return "", false
		}
		if hex > 0 {
			if i+hex >= len(in) {
				return "", false
			}
			n, err := strconv.ParseUint(in[i+1:i+1+hex], 16, 32)
			if err != nil || n > unicode.MaxRune {
				return "", false
			}
			b.WriteRune(rune(n))
			i += hex
		}
	}
	return b.String(), true
}

// yamlQuote writes s as a one-line YAML scalar that reads back as s: plain
// when that is unambiguous (a path: it starts with '/'), else
// double-quoted. ok is false for text YAML cannot hold (invalid UTF-8).
func yamlQuote(s string) (string, bool) {
	if !utf8.ValidString(s) {
		return "", false
	}
	if yamlPlainPath(s) {
		return s, true
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f || !unicode.IsPrint(r) && r != ' ':
			h := strconv.FormatInt(int64(r), 16)
			if r > 0xffff {
				b.WriteString(`\U` + strings.Repeat("0", 8-len(h)) + h)
			} else {
				b.WriteString(`\u` + strings.Repeat("0", 4-len(h)) + h)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String(), true
}

// yamlPlainPath reports a path that YAML reads plain as itself: it starts
// with '/', holds printable characters only, no ": " or " #", and does not
// end in a space or ':'.
func yamlPlainPath(s string) bool {
	if !strings.HasPrefix(s, "/") || strings.Contains(s, ": ") || strings.Contains(s, " #") ||
		strings.HasSuffix(s, " ") || strings.HasSuffix(s, ":") {
		return false
	}
	for _, r := range s {
		if r == '\t' || !unicode.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}

// yamlSet replaces the value of the top-level key in data with value, when
// its value is exactly from; anything else comes back unchanged.
func yamlSet(data []byte, key, from, value string) []byte {
	v, start, end, ok := yamlValue(data, key)
	if !ok || v != from {
		return data
	}
	q, ok := yamlQuote(value)
	if !ok {
		return data
	}
	line := key + ": " + q + "\n"
	if end == len(data) && (end == 0 || data[end-1] != '\n') {
		line = strings.TrimSuffix(line, "\n")
	}
	out := make([]byte, 0, len(data)+len(value))
	out = append(out, data[:start]...)
	out = append(out, line...)
	return append(out, data[end:]...)
}
