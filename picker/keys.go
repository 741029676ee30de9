package picker

import (
	"bytes"
	"unicode/utf8"
)

// keyKind names what a key press means to the decoder; the model decides
// what each one does.
type keyKind int

const (
	keyNone keyKind = iota // a sequence that was read and means nothing here
	keyRune                // a character to add to the filter
	keyCtrl                // Ctrl and a letter, in r ('a' for 0x01); Tab is Ctrl-I
	keyEnter
	keyEsc
	keyBackspace
	keyUp
	keyDown
	keyPgUp
	keyPgDn
	keyHome
	keyEnd
	keyBacktab
)

type key struct {
	kind keyKind
	r    rune
}

// maxSeq bounds an escape sequence: anything longer is garbage, dropped.
const maxSeq = 32

// decoder turns the bytes read from a terminal into keys. Reads split keys
// anywhere (an arrow's ESC [ B can arrive one byte at a time), so what is
// incomplete at the end of a read stays pending until more bytes come or
// the caller decides, after a short wait, that nothing more is coming
// (flush): then a pending ESC alone is the Esc key.
//
// Bracketed paste is understood: text between ESC [200~ and ESC [201~ only
// ever adds to the filter, so pasting a line that ends in a newline does not
// also choose a row.
type decoder struct {
	pending []byte
	paste   bool
}

// feed decodes b after what was pending and returns the complete keys.
func (d *decoder) feed(b []byte) []key {
	d.pending = append(d.pending, b...)
	return d.decode(false)
}

// flush decodes everything pending as if no more bytes were coming.
func (d *decoder) flush() []key { return d.decode(true) }

// waiting reports whether bytes are pending, so the caller knows to flush
// them if nothing follows soon.
func (d *decoder) waiting() bool { return len(d.pending) > 0 }

func (d *decoder) decode(final bool) []key {
	var keys []key
	buf := d.pending
	for len(buf) > 0 {
		k, n := parseKey(buf, final)
		if n == 0 {
			break
		}
		buf = buf[n:]
		switch {
		case k.kind == keyNone:
		case k.kind == keyPaste:
			d.paste = k.r == 1
		case d.paste:
			switch k.kind {
			case keyRune:
				keys = append(keys, k)
			case keyEnter, keyCtrl:
				keys = append(keys, key{keyRune, ' '}) // a pasted line break or tab
			}
		default:
			keys = append(keys, k)
		}
	}
	d.pending = append(d.pending[:0], buf...)
	return keys
}

// keyPaste marks the start (r == 1) or end of a bracketed paste; decode
// consumes it.
const keyPaste keyKind = -1

// parseKey decodes the key at the start of buf and returns it with the
// number of bytes it took; 0 bytes means buf holds only the beginning of a
// key and final is false.
func parseKey(buf []byte, final bool) (key, int) {
	c := buf[0]
	switch {
	case c == 0x1b:
		return parseEsc(buf, final)
	case c == '\r':
		return key{kind: keyEnter}, 1
	case c == 0x7f || c == 0x08:
		return key{kind: keyBackspace}, 1
	case c == 0:
		return key{}, 1
	case c < 0x20:
		return key{keyCtrl, rune(c) + 'a' - 1}, 1
	case c < 0x80:
		return key{keyRune, rune(c)}, 1
	}
	if !final && !utf8.FullRune(buf) {
		return key{}, 0
	}
	r, n := utf8.DecodeRune(buf)
	if r == utf8.RuneError && n == 1 || r < 0xa0 || bidi(r) {
		return key{}, n
	}
	return key{keyRune, r}, n
}

// parseEsc decodes what starts with ESC: a CSI or SS3 sequence, ESC alone,
// or ESC and a key (Alt and that key, ignored).
func parseEsc(buf []byte, final bool) (key, int) {
	if len(buf) == 1 {
		if final {
			return key{kind: keyEsc}, 1
		}
		return key{}, 0
	}
	switch buf[1] {
	case 0x1b:
		return key{kind: keyEsc}, 1 // the second ESC starts the next key
	case '[':
		return parseCSI(buf, final)
	case 'O':
		if len(buf) < 3 {
			if final {
				return key{}, len(buf)
			}
			return key{}, 0
		}
		switch buf[2] {
		case 'A':
			return key{kind: keyUp}, 3
		case 'B':
			return key{kind: keyDown}, 3
		case 'H':
			return key{kind: keyHome}, 3
		case 'F':
			return key{kind: keyEnd}, 3
		case 'M':
			return key{kind: keyEnter}, 3
		}
		return key{}, 3
	}
	// Alt and a key: skip both, the key whole if it is a multibyte one.
	if _, n := parseKey(buf[1:], final); n > 0 {
		return key{}, 1 + n
	}
	return key{}, 0
}

// parseCSI decodes ESC [ parameters intermediates final.
func parseCSI(buf []byte, final bool) (key, int) {
	i := 2
	for i < len(buf) && i < maxSeq && buf[i] >= 0x20 && buf[i] <= 0x3f {
		i++
	}
	if i == len(buf) && i < maxSeq {
		if final {
			return key{}, len(buf)
		}
		return key{}, 0
	}
	if i == maxSeq || buf[i] < 0x40 || buf[i] > 0x7e {
		return key{}, i // malformed: drop what was read, keep the byte that broke it
	}
	params, n := buf[2:i], i+1
	if j := bytes.IndexByte(params, ';'); j >= 0 {
		params = params[:j] // modifiers (Ctrl-Up is ESC [1;5A) change nothing here
	}
	switch buf[i] {
	case 'A':
		return key{kind: keyUp}, n
	case 'B':
		return key{kind: keyDown}, n
	case 'H':
		return key{kind: keyHome}, n
	case 'F':
		return key{kind: keyEnd}, n
	case 'Z':
		return key{kind: keyBacktab}, n
	case '~':
		switch string(params) {
		case "1", "7":
			return key{kind: keyHome}, n
		case "4", "8":
			return key{kind: keyEnd}, n
		case "5":
			return key{kind: keyPgUp}, n
		case "6":
			return key{kind: keyPgDn}, n
		case "200":
			return key{keyPaste, 1}, n
		case "201":
			return key{keyPaste, 0}, n
		}
	}
	return key{}, n
}
