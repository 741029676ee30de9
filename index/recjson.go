package index

import (
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/store"
)

// decodeRecord reads a record as the index stores it (encoding/json's
// compact form of store.Record) without reflection: encoding/json takes
// some 7 µs a record, most of a listing of thousands of recorded
// conversations. It takes only what json.Marshal writes, each key once,
// spelt as the struct tags spell it, no space between tokens, and says
// ok only when json.Unmarshal would have read the same record; on
// anything else ok is false and the caller asks encoding/json.
// FuzzDecodeRecord holds the two to each other.
func decodeRecord(s string) (r store.Record, ok bool) {
	d := recDecoder{s: s}
	if !d.byte('{') {
		return store.Record{}, false
	}
	var seen uint32
	for first := true; ; first = false {
		if d.byte('}') {
			break
		}
		if !first && !d.byte(',') {
			return store.Record{}, false
		}
		key, ok := d.str()
		if !ok || !d.byte(':') {
			return store.Record{}, false
		}
		bit, ok := d.field(&r, key)
		if !ok || seen&bit != 0 {
			return store.Record{}, false
		}
		seen |= bit
	}
	return r, d.i == len(d.s)
}

// recDecoder reads s from i on.
type recDecoder struct {
	s string
	i int
}

// field reads the value of key into r, and returns key's bit.
func (d *recDecoder) field(r *store.Record, key string) (uint32, bool) {
	var ok bool
	switch key {
	case "tool":
		r.Tool, ok = d.str()
		return 1 << 0, ok
	case "id":
		r.ID, ok = d.str()
		return 1 << 1, ok
	case "cwd":
		r.Cwd, ok = d.str()
		return 1 << 2, ok
	case "command":
		r.Command, ok = d.str()
		return 1 << 3, ok
	case "program":
		r.Program, ok = d.str()
		return 1 << 4, ok
	case "source":
		r.Source, ok = d.str()
		return 1 << 5, ok
	case "started":
		r.Started, ok = d.time()
		return 1 << 6, ok
	case "ended":
		r.Ended, ok = d.timeOrNull()
		return 1 << 7, ok
	case "active":
		r.Active, ok = d.timeOrNull()
		return 1 << 8, ok
	case "exit":
		r.Exit, ok = d.intOrNull()
		return 1 << 9, ok
	case "resumable":
		r.Resumable, ok = d.bool()
		return 1 << 10, ok
	case "home":
		r.Home, ok = d.str()
		return 1 << 11, ok
	case "title":
		r.Title, ok = d.str()
		return 1 << 12, ok
	case "updated":
		r.Updated, ok = d.time()
		return 1 << 13, ok
	case "options":
		r.Options, ok = d.strs()
		return 1 << 14, ok
	case "version":
		r.Version, ok = d.str()
		return 1 << 15, ok
	case "evidence":
		r.Evidence, ok = d.strs()
		return 1 << 16, ok
	case "disagreed":
		r.Disagreed, ok = d.strs()
		return 1 << 17, ok
	}
	return 0, false
}

// byte takes c when it comes next.
func (d *recDecoder) byte(c byte) bool {
	if d.i < len(d.s) && d.s[d.i] == c {
		d.i++
		return true
	}
	return false
}

// word takes w when it comes next.
func (d *recDecoder) word(w string) bool {
	if len(d.s)-d.i >= len(w) && d.s[d.i:d.i+len(w)] == w {
		d.i += len(w)
		return true
	}
	return false
}

// str reads a string. One without escapes is a part of s; escapes are
// read as encoding/json reads them, and a string with bytes that are not
// UTF-8 is left to it.
func (d *recDecoder) str() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	start := d.i
	ascii := true
	for d.i < len(d.s) {
		switch c := d.s[d.i]; {
		case c == '"':
			v := d.s[start:d.i]
			d.i++
			return v, ascii || utf8.ValidString(v)
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
		d.i++
	}
	return "", false
}

// escaped reads the rest of a string that has an escape at d.i, begun at
// start.
func (d *recDecoder) escaped(start int) (string, bool) {
	b := []byte(d.s[start:d.i])
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return string(b), utf8.Valid(b)
		case c < 0x20:
			return "", false
		case c != '\\':
			b = append(b, c)
			d.i++
			continue
		}
		if d.i+1 >= len(d.s) {
			return "", false
		}
		e := d.s[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				r2, ok := rune(-1), false
				if d.word(`\u`) {
					r2, ok = d.hex4()
				}
				if !ok {
					return "", false // a lone surrogate: encoding/json's own rules
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					return "", false
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", false
		}
	}
	return "", false
}

// hex4 reads the four hexadecimal digits of a \u escape.
func (d *recDecoder) hex4() (rune, bool) {
	if len(d.s)-d.i < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(d.s[d.i:d.i+4], 16, 16)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(v), true
}

// time reads a time as encoding/json does: time.Time's UnmarshalJSON
// parses the string's bytes as they are, escapes and all, so a time with
// an escape in it is left to encoding/json.
func (d *recDecoder) time() (time.Time, bool) {
	start := d.i
	s, ok := d.str()
	var t time.Time
	if !ok || d.i-start != len(s)+2 {
		return t, false
	}
	return t, t.UnmarshalText([]byte(s)) == nil
}

func (d *recDecoder) timeOrNull() (*time.Time, bool) {
	if d.word("null") {
		return nil, true
	}
	t, ok := d.time()
	return &t, ok
}

// intOrNull reads null or an integer as JSON writes one: no fraction, no
// exponent, no leading zero.
func (d *recDecoder) intOrNull() (*int, bool) {
	if d.word("null") {
		return nil, true
	}
	start := d.i
	d.byte('-')
	digits := d.i
	for d.i < len(d.s) && '0' <= d.s[d.i] && d.s[d.i] <= '9' {
		d.i++
	}
	if d.i == digits || d.s[digits] == '0' && d.i-digits > 1 {
		return nil, false
	}
	n, err := strconv.Atoi(d.s[start:d.i])
	return &n, err == nil
}

func (d *recDecoder) bool() (bool, bool) {
	switch {
	case d.word("true"):
		return true, true
	case d.word("false"):
		return false, true
	}
	return false, false
}

// strs reads null or an array of strings.
func (d *recDecoder) strs() ([]string, bool) {
	if d.word("null") {
		return nil, true
	}
	if !d.byte('[') {
		return nil, false
	}
	out := []string{}
	for first := true; ; first = false {
		if d.byte(']') {
			return out, true
		}
		if !first && !d.byte(',') {
			return nil, false
		}
		s, ok := d.str()
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
}
