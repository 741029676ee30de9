package store

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// encodeRecord is json.MarshalIndent(r, "", "  "), byte for byte, written
// out: encoding/json works out how to encode a struct type by reflection the
// first time it meets one, which cost every shim run about 0.17 ms of CPU on
// its way to the user's prompt. FuzzEncodeRecord holds the two to the same
// bytes. A time encoding/json would refuse (a year outside 0-9999) goes to
// encoding/json, for its error.
func encodeRecord(r Record) ([]byte, error) {
	for _, t := range []*time.Time{&r.Started, r.Ended, r.Active, &r.Updated} {
		if t != nil && (t.Year() < 0 || t.Year() > 9999) {
			return json.MarshalIndent(r, "", "  ")
		}
	}
	b := make([]byte, 0, 512+len(r.Command)+len(r.Title)+len(r.Cwd)+len(r.Home))
	b = append(b, "{\n"...)
	b = stringField(b, "tool", r.Tool)
	b = stringField(b, "id", r.ID)
	b = stringField(b, "cwd", r.Cwd)
	b = stringField(b, "command", r.Command)
	b = stringField(b, "program", r.Program)
	b = stringField(b, "source", r.Source)
	b = timeField(b, "started", &r.Started)
	b = timeField(b, "ended", r.Ended)
	if r.Active != nil {
		b = timeField(b, "active", r.Active)
	}
	b = key(b, "exit")
	if r.Exit == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*r.Exit), 10)
	}
	b = append(b, ",\n"...)
	b = key(b, "resumable")
	b = strconv.AppendBool(b, r.Resumable)
	b = append(b, ",\n"...)
	b = stringField(b, "home", r.Home)
	b = stringField(b, "title", r.Title)
	b = timeField(b, "updated", &r.Updated)
	b = listField(b, "options", r.Options)
	if r.Version != "" {
		b = stringField(b, "version", r.Version)
	}
	b = listField(b, "evidence", r.Evidence)
	b = listField(b, "disagreed", r.Disagreed)
	// Every field ended with ",\n": the last comma goes.
	b = append(b[:len(b)-2], "\n}"...)
	return b, nil
}

func key(b []byte, name string) []byte {
	b = append(b, `  "`...)
	b = append(b, name...)
	return append(b, `": `...)
}

func stringField(b []byte, name, v string) []byte {
	b = appendString(key(b, name), v)
	return append(b, ",\n"...)
}

func timeField(b []byte, name string, t *time.Time) []byte {
	b = key(b, name)
	if t == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = t.AppendFormat(b, time.RFC3339Nano)
		b = append(b, '"')
	}
	return append(b, ",\n"...)
}

// listField writes a list, or nothing for an empty one (omitempty).
func listField(b []byte, name string, v []string) []byte {
	if len(v) == 0 {
		return b
	}
	b = append(key(b, name), "[\n"...)
	for i, s := range v {
		b = appendString(append(b, "    "...), s)
		if i < len(v)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	return append(b, "  ],\n"...)
}

// appendString quotes s as encoding/json does: HTML-safe, with U+2028 and
// U+2029 escaped and invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
