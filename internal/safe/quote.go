package safe

import "strings"

// Quote returns s as one shell word that bash, zsh, dash and fish all read
// back as exactly s. Words made only of characters no shell interprets stay
// bare; anything else is quoted by QuoteAlways.
func Quote(s string) string {
	if s != "" && bare(s) {
		return s
	}
	return QuoteAlways(s)
}

// QuoteAlways quotes s whatever it holds, in the one form all four shells
// agree on. POSIX single quotes take everything but ' literally; fish's also
// treat \' and \\ as escapes, so a backslash inside them could end the word
// early. Each ' and \ is therefore written between double quotes ("'" and
// "\\"), which mean the same in every shell, and the runs between them go in
// single quotes; the pieces join into one word.
func QuoteAlways(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	open := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' || c == '\\' {
			if open {
				b.WriteByte('\'')
				open = false
			}
			if c == '\'' {
				b.WriteString(`"'"`)
			} else {
				b.WriteString(`"\\"`)
			}
			continue
		}
		if !open {
			b.WriteByte('\'')
			open = true
		}
		b.WriteByte(c)
	}
	if open || b.Len() == 0 {
		if !open {
			b.WriteByte('\'')
		}
		b.WriteByte('\'')
	}
	return b.String()
}

// ProgramByte reports the bytes a program word may hold and still be read
// by every shell as itself: letters, digits and / . _ + -.
func ProgramByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case c == '/', c == '.', c == '_', c == '+', c == '-':
		return true
	}
	return false
}

// Program reports whether w is a program word no shell would interpret:
// made of ProgramByte bytes, not empty and not ending in a slash.
func Program(w string) bool {
	if w == "" || w[len(w)-1] == '/' {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !ProgramByte(w[i]) {
			return false
		}
	}
	return true
}

// bare reports whether s can stand unquoted in every shell: ProgramByte
// bytes plus = , : @, and not starting with = (zsh expands =cmd).
func bare(s string) bool {
	if s[0] == '=' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !ProgramByte(c) && c != '=' && c != ',' && c != ':' && c != '@' {
			return false
		}
	}
	return true
}
