package safe

import "fmt"

// TOMLDepth checks that no array or inline table in a TOML document nests
// deeper than max, before any decoder recurses into it: a document of a
// million brackets would otherwise cost a decoder its stack. It follows
// strings (basic, literal and multi-line, with escapes) and comments, so
// brackets inside them do not count; it does not validate anything else.
func TOMLDepth(data []byte, max int) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case '"', '\'':
			i = skipTOMLString(data, i)
		case '[', '{':
			if depth++; depth > max {
				return fmt.Errorf("toml nests deeper than %d levels", max)
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// skipTOMLString returns the index of the last byte of the string starting
// at data[i] (a quote), or the end of data when it is not closed.
func skipTOMLString(data []byte, i int) int {
	q := data[i]
	multi := i+2 < len(data) && data[i+1] == q && data[i+2] == q
	if multi {
		i += 3
	} else {
		i++
	}
	for ; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\\' && q == '"':
			i++
		case c == '\n' && !multi:
			return i // an unterminated string ends with its line
		case c == q && !multi:
			return i
		case c == q && multi && i+2 < len(data) && data[i+1] == q && data[i+2] == q:
			// Up to two more quotes may belong to the string.
			i += 2
			for i+1 < len(data) && data[i+1] == q {
				i++
			}
			return i
		}
	}
	return len(data)
}
