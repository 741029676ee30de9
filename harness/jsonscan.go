package harness

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// The index reads gigabytes of transcript lines of which it keeps a few
// per cent: prompts and replies. Most of a line is a tool's output, which
// the index skips. Members and Elements walk a line's JSON structure
// without decoding it, so that a reader finds the few fields it wants and
// passes over the rest at the speed of bytes.IndexByte, where
// json.Unmarshal would validate and decode every byte of it.
//
// They check the structure they walk (keys, colons, commas, brackets,
// strings closed), not the values they skip: a reader decodes each value it
// keeps, with StringValue or json.Unmarshal, and that decoding checks it.

// Members calls fn with the key (as written, between its quotes) and the raw
// value of each member of the JSON object in data, in order, until fn
// returns false. It reports whether data is an object that could be walked
// to its end, or fn stopped it.
func Members(data []byte, fn func(key, value []byte) bool) bool {
	return walk(data, '{', '}', fn)
}

// Elements calls fn with each raw element of the JSON array in data, in
// order, until fn returns false; it reports as Members does.
func Elements(data []byte, fn func(value []byte) bool) bool {
	return walk(data, '[', ']', func(_, value []byte) bool { return fn(value) })
}

// walk is Members for an object ({ }) and Elements for an array ([ ]),
// whose items have no key.
func walk(data []byte, open, close byte, fn func(key, value []byte) bool) bool {
	i := skipSpaceAt(data, 0)
	if i >= len(data) || data[i] != open {
		return false
	}
	i = skipSpaceAt(data, i+1)
	if i < len(data) && data[i] == close {
		return onlySpace(data, i+1)
	}
	for i < len(data) {
		var key []byte
		if open == '{' {
			if data[i] != '"' {
				return false
			}
			end := skipString(data, i)
			if end < 0 {
				return false
			}
			key = data[i+1 : end-1]
			i = skipSpaceAt(data, end)
			if i >= len(data) || data[i] != ':' {
				return false
			}
			i = skipSpaceAt(data, i+1)
		}
		end := skipValue(data, i)
		if end < 0 {
			return false
		}
		if !fn(key, data[i:end]) {
			return true
		}
		i = skipSpaceAt(data, end)
		switch {
		case i >= len(data):
			return false
		case data[i] == close:
			return onlySpace(data, i+1)
		case data[i] != ',':
			return false
		}
		i = skipSpaceAt(data, i+1)
	}
	return false
}

// StringValue decodes a raw JSON string value; ok is false for anything
// else. A string without escapes, control characters or invalid UTF-8,
// which is most of them, is copied without going through encoding/json.
func StringValue(raw []byte) (string, bool) {
	raw = trimSpace(raw)
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	plain := true
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 {
			plain = false
			break
		}
	}
	if plain && utf8.Valid(body) {
		return string(body), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// NullableString decodes a raw string value as encoding/json decodes it into
// a string field: null leaves the field empty.
func NullableString(raw []byte) (string, bool) {
	if string(trimSpace(raw)) == "null" {
		return "", true
	}
	return StringValue(raw)
}

// IsTrue reports whether a raw value is the literal true.
func IsTrue(raw []byte) bool { return string(trimSpace(raw)) == "true" }

// trimSpace cuts JSON white space (not every Unicode space) off both ends.
func trimSpace(raw []byte) []byte { return bytes.Trim(raw, " \t\n\r") }

// skipSpaceAt returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpaceAt(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func onlySpace(data []byte, i int) bool { return skipSpaceAt(data, i) == len(data) }

// skipString returns the index just past the string that opens at data[i],
// or -1 if it is not closed. Its closing quote is the first one not escaped
// by an odd run of backslashes.
func skipString(data []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		n := 0
		for j-1-n > i && data[j-1-n] == '\\' {
			n++
		}
		j++
		if n%2 == 0 {
			return j
		}
	}
}

// skipValue returns the index just past the value that starts at data[i],
// or -1 if there is none or it is not closed. Inside an object or an array
// it follows strings and brackets only.
func skipValue(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
	default:
		j := i
		for j < len(data) {
			switch data[j] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				if j == i {
					return -1
				}
				return j
			case '"', '{', '[', ':':
				return -1
			}
			j++
		}
		return j
	}
	var owed [32]byte
	stack := owed[:0] // the closing brackets still owed, innermost last
	for j := i; j < len(data); j++ {
		switch c := data[j]; c {
		case '"':
			end := skipString(data, j)
			if end < 0 {
				return -1
			}
			j = end - 1
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return -1
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return j + 1
			}
		}
	}
	return -1
}
