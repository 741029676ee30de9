package catalog

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
)

// The scanning a bundle is read with: one byte at a time where the
// document's structure is, bulk where a file's base64 is, and
// encoding/json for each header value, so a value means what it means to
// encoding/json.

// base64 decodes a JSON string of base64 (or null) as it is read, the way
// encoding/json decodes a []byte: standard encoding with padding, line
// breaks ignored.
func (d *bundleDecoder) base64() ([]byte, error) {
	c, err := d.next()
	if err != nil {
		return nil, err
	}
	if c == 'n' {
		return nil, d.literal("ull")
	}
	if c != '"' {
		return nil, invalid("not a conversation bundle: a file's data is not a string")
	}
	// Decoded data goes into chunks joined once at the end: a growing
	// buffer would hold up to twice its contents at every doubling.
	var chunks [][]byte
	var chunk []byte
	total := 0
	quad := make([]byte, 0, 80<<10)
	ended := false
	flush := func(final bool) error {
		n := len(quad) &^ 3
		if final {
			n = len(quad)
		}
		if n == 0 {
			return nil
		}
		if ended {
			return invalid("not a conversation bundle: a file's data goes on after its padding")
		}
		need := base64.StdEncoding.DecodedLen(n)
		if cap(chunk)-len(chunk) < need {
			if len(chunk) > 0 {
				chunks = append(chunks, chunk)
			}
			chunk = make([]byte, 0, max(need, 1<<20))
		}
		k, err := base64.StdEncoding.Decode(chunk[len(chunk):len(chunk)+need], quad[:n])
		if err != nil {
			return invalid("not a conversation bundle: a file's data is not base64: %v", err)
		}
		chunk = chunk[:len(chunk)+k]
		total += k
		ended = bytes.IndexByte(quad[:n], '=') >= 0
		quad = append(quad[:0], quad[n:]...)
		return nil
	}
	for {
		// Runs of base64 go over in bulk; anything else (an escape, a line
		// break, the closing quote) one byte at a time.
		if _, err := d.r.Peek(1); err != nil {
			return nil, err
		}
		buf, _ := d.r.Peek(d.r.Buffered())
		n := 0
		for n < len(buf) && isBase64(buf[n]) {
			n++
		}
		if n > 0 {
			quad = append(quad, buf[:n]...)
			d.r.Discard(n)
			if len(quad) >= 64<<10 {
				if err := flush(false); err != nil {
					return nil, err
				}
			}
			continue
		}
		c, err := d.strByte()
		if err != nil {
			return nil, err
		}
		if c < 0 {
			break
		}
		if c == '\r' || c == '\n' {
			continue
		}
		if c >= 0x80 {
			return nil, invalid("not a conversation bundle: a file's data is not base64")
		}
		quad = append(quad, byte(c))
	}
	if err := flush(true); err != nil {
		return nil, err
	}
	out := make([]byte, 0, total)
	for _, c := range append(chunks, chunk) {
		out = append(out, c...)
	}
	return out, nil
}

// isBase64 reports a byte of the standard base64 alphabet or its padding.
func isBase64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '='
}

// strByte returns the next byte of a string's value after its opening
// quote, escapes decoded (a \u escape beyond ASCII as 0x80), and -1 at the
// closing quote.
func (d *bundleDecoder) strByte() (int, error) {
	c, err := d.r.ReadByte()
	if err != nil {
		return 0, err
	}
	switch {
	case c == '"':
		return -1, nil
	case c < 0x20:
		return 0, invalid("not a conversation bundle: a control character in a string")
	case c != '\\':
		return int(c), nil
	}
	c, err = d.r.ReadByte()
	if err != nil {
		return 0, err
	}
	switch c {
	case '"', '\\', '/':
		return int(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		var h [4]byte
		if _, err := io.ReadFull(d.r, h[:]); err != nil {
			return 0, err
		}
		var v rune
		if err := json.Unmarshal([]byte(`"\u`+string(h[:])+`"`), new(string)); err != nil {
			return 0, invalid("not a conversation bundle: a bad escape in a string")
		}
		for _, x := range h {
			v = v<<4 | rune(hexVal(x))
		}
		if v >= 0x80 {
			return 0x80, nil
		}
		return int(v), nil
	}
	return 0, invalid("not a conversation bundle: a bad escape in a string")
}

func hexVal(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// str reads a JSON string of at most max bytes as encoding/json decodes it.
func (d *bundleDecoder) str(max int) (string, error) {
	var s string
	if err := d.value(&s); err != nil {
		return "", err
	}
	if len(s) > max {
		return "", invalid("not a conversation bundle: a value longer than %d bytes", max)
	}
	return s, nil
}

// value reads one JSON value of at most maxHeaderValue bytes and decodes it
// into v (nil: skip it).
func (d *bundleDecoder) value(v any) error {
	if _, err := d.peek(); err != nil {
		return err
	}
	var raw []byte
	depth := 0
	inStr, esc := false, false
	for {
		c, err := d.r.ReadByte()
		if err != nil {
			return err
		}
		raw = append(raw, c)
		if len(raw) > maxHeaderValue {
			return invalid("not a conversation bundle: a value longer than %d bytes", maxHeaderValue)
		}
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
		if depth < 0 {
			return invalid("not a conversation bundle: %q where a value belongs", c)
		}
		if inStr || depth > 0 {
			continue
		}
		// A scalar ends before the byte that follows it.
		if n, err := d.r.Peek(1); raw[0] != '"' && raw[0] != '{' && raw[0] != '[' && err == nil && !isDelim(n[0]) {
			continue
		}
		break
	}
	if v == nil {
		if !json.Valid(raw) {
			return invalid("not a conversation bundle: a malformed value")
		}
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return invalid("not a conversation bundle: %v", err)
	}
	return nil
}

func isDelim(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// peek skips white space and returns the next byte without reading it.
func (d *bundleDecoder) peek() (byte, error) {
	for {
		b, err := d.r.Peek(1)
		if err != nil {
			return 0, err
		}
		switch b[0] {
		case ' ', '\t', '\n', '\r':
			d.r.ReadByte()
			continue
		}
		return b[0], nil
	}
}

// next skips white space and reads the next byte.
func (d *bundleDecoder) next() (byte, error) {
	if _, err := d.peek(); err != nil {
		return 0, err
	}
	return d.r.ReadByte()
}

func (d *bundleDecoder) expect(want byte) error {
	c, err := d.next()
	if err != nil {
		return err
	}
	if c != want {
		return invalid("not a conversation bundle: %q where %q belongs", c, want)
	}
	return nil
}

func (d *bundleDecoder) literal(rest string) error {
	for i := 0; i < len(rest); i++ {
		c, err := d.r.ReadByte()
		if err != nil {
			return err
		}
		if c != rest[i] {
			return invalid("not a conversation bundle: a malformed value")
		}
	}
	return nil
}

// members reads an object's members after its '{': member is handed each
// key and reads its value. where says, in the error for anything but a ','
// or '}' after a value, where it stands.
func (d *bundleDecoder) members(where string, member func(key string) error) error {
	for first := true; ; first = false {
		c, err := d.peek()
		if err != nil {
			return err
		}
		if c == '}' && first {
			d.r.ReadByte()
			return nil
		}
		key, err := d.str(maxHeaderValue)
		if err == nil {
			err = d.expect(':')
		}
		if err == nil {
			err = member(key)
		}
		if err != nil {
			return err
		}
		if c, err = d.next(); err != nil {
			return err
		}
		if c == '}' {
			return nil
		}
		if c != ',' {
			return invalid("not a conversation bundle: %q %s", c, where)
		}
	}
}
