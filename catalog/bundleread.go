package catalog

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/harness"
)

// ReadBundle decodes and checks a bundle as a stream: the header (format,
// version, tool, ID, directory) must come before the files, as WriteBundle
// writes it, and is checked as soon as it is read; each file's data is
// decoded from base64 as it arrives. So a malformed bundle is refused once
// what is wrong has been read, not after reading all of it, and memory
// holds the files' contents, never the document's text. Anything malformed
// is an error of kind Invalid, and nothing has been written.
func ReadBundle(r io.Reader) (Bundle, harness.Agent, error) {
	lr := &io.LimitedReader{R: r, N: maxBundle + 1}
	d := &bundleDecoder{r: bufio.NewReaderSize(lr, 64<<10), lr: lr}
	b, err := d.bundle()
	if err != nil {
		return Bundle{}, harness.Agent{}, err
	}
	return b, d.agent, nil
}

// bundleDecoder reads one bundle document.
type bundleDecoder struct {
	r     *bufio.Reader
	lr    *io.LimitedReader
	agent harness.Agent
}

// maxHeaderValue bounds one header value (a title, a time, a key).
const maxHeaderValue = 64 << 10

// fail turns a read error into the refusal it means.
func (d *bundleDecoder) fail(err error) error {
	var ce *Error
	switch {
	case errors.As(err, &ce):
		return err
	case d.lr.N <= 0:
		return invalid("the bundle is larger than %d MiB", maxBundle>>20)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return invalid("the bundle is empty or cut short")
	}
	return invalid("not a conversation bundle: %v", err)
}

func (d *bundleDecoder) bundle() (Bundle, error) {
	var b Bundle
	if err := d.expect('{'); err != nil {
		return Bundle{}, d.fail(err)
	}
	seen := map[string]bool{}
	header := func() error {
		switch {
		case b.Format != bundleFormat || b.Version != bundleVersion:
			return invalid("not a conversation bundle (format %q, version %d; want %q, %d)", b.Format, b.Version, bundleFormat, bundleVersion)
		case b.Tool == "":
			return invalid("the bundle names no tool")
		}
		return nil
	}
	for first := true; ; first = false {
		c, err := d.peek()
		if err != nil {
			return Bundle{}, d.fail(err)
		}
		if c == '}' && first {
			d.r.ReadByte()
			break
		}
		key, err := d.str(maxHeaderValue)
		if err == nil {
			err = d.expect(':')
		}
		if err != nil {
			return Bundle{}, d.fail(err)
		}
		if seen[key] {
			return Bundle{}, invalid("not a conversation bundle: %q twice", key)
		}
		seen[key] = true
		switch key {
		case "format":
			if b.Format, err = d.str(maxHeaderValue); err == nil && b.Format != bundleFormat {
				err = header()
			}
		case "version":
			err = d.value(&b.Version)
			if err == nil && b.Version != bundleVersion {
				err = header()
			}
		case "tool":
			if b.Tool, err = d.str(maxHeaderValue); err == nil {
				err = d.tool(b.Tool)
			}
		case "id":
			b.ID, err = d.str(maxHeaderValue)
		case "cwd":
			if b.Cwd, err = d.str(maxHeaderValue); err == nil && !cleanAbs(b.Cwd) {
				err = invalid("the bundle's directory %q is not an absolute, clean path", b.Cwd)
			}
		case "cli_version":
			b.CLIVersion, err = d.str(maxHeaderValue)
		case "title":
			b.Title, err = d.str(maxHeaderValue)
		case "active":
			err = d.value(&b.Active)
		case "exported":
			err = d.value(&b.Exported)
		case "files":
			for _, k := range []string{"format", "version", "tool", "id", "cwd"} {
				if !seen[k] {
					return Bundle{}, invalid("not a conversation bundle: its %s must come before its files", k)
				}
			}
			if err = header(); err == nil {
				err = d.checkID(b.ID)
			}
			if err == nil {
				b.Files, err = d.files()
			}
		default:
			// encoding/json matches keys regardless of case: a key that
			// differs from one of these only in case is refused, not
			// skipped, so no reader of the same bundle sees other fields.
			for _, k := range []string{"format", "version", "tool", "id", "cwd", "cli_version", "title", "active", "exported", "files"} {
				if strings.EqualFold(key, k) {
					return Bundle{}, invalid("not a conversation bundle: %q", key)
				}
			}
			err = d.value(nil)
		}
		if err != nil {
			return Bundle{}, d.fail(err)
		}
		c, err = d.next()
		if err != nil {
			return Bundle{}, d.fail(err)
		}
		if c == '}' {
			break
		}
		if c != ',' {
			return Bundle{}, invalid("not a conversation bundle: %q after a value", c)
		}
	}
	if _, err := d.next(); !errors.Is(err, io.EOF) {
		if d.lr.N <= 0 {
			return Bundle{}, invalid("the bundle is larger than %d MiB", maxBundle>>20)
		}
		return Bundle{}, invalid("not a conversation bundle: something follows it")
	}
	if err := header(); err != nil {
		return Bundle{}, err
	}
	if err := d.checkID(b.ID); err != nil {
		return Bundle{}, err
	}
	if !cleanAbs(b.Cwd) {
		return Bundle{}, invalid("the bundle's directory %q is not an absolute, clean path", b.Cwd)
	}
	if len(b.Files) == 0 {
		return Bundle{}, invalid("the bundle holds 0 files")
	}
	b.Title = harness.CleanTitle(b.Title)
	return b, nil
}

// tool checks the bundle's agent as soon as it is named.
func (d *bundleDecoder) tool(name string) error {
	a, ok := harness.Lookup(name)
	if !ok {
		return invalid("the bundle is a conversation of %q, which this fleetcom does not know", name)
	}
	if _, ok := a.Behaviour.(harness.Mover); !ok {
		return invalid("%s conversations cannot be imported", name)
	}
	d.agent = a
	return nil
}

func (d *bundleDecoder) checkID(id string) error {
	if err := d.agent.CheckID(id); err != nil {
		return invalid("the bundle's id: %v", err)
	}
	return nil
}

func cleanAbs(p string) bool {
	return filepath.IsAbs(p) && filepath.Clean(p) == p && utf8.ValidString(p)
}

// files reads the files array, each file's data decoded as it streams in.
func (d *bundleDecoder) files() ([]BundleFile, error) {
	if c, err := d.next(); err != nil || c == 'n' {
		if err == nil {
			err = d.literal("ull")
		}
		return nil, err
	} else if c != '[' {
		return nil, invalid("not a conversation bundle: its files are not a list")
	}
	var out []BundleFile
	names := map[string]bool{}
	for {
		c, err := d.next()
		if err != nil {
			return nil, err
		}
		if c == ']' && len(out) == 0 {
			return out, nil
		}
		if c != '{' {
			return nil, invalid("not a conversation bundle: a file is not an object")
		}
		if len(out) == maxBundleFiles {
			return nil, invalid("the bundle holds more than %d files", maxBundleFiles)
		}
		f, err := d.file()
		if err != nil {
			return nil, err
		}
		if names[f.Name] {
			return nil, invalid("the bundle holds %q twice", f.Name)
		}
		names[f.Name] = true
		out = append(out, f)
		if c, err = d.next(); err != nil {
			return nil, err
		}
		if c == ']' {
			return out, nil
		}
		if c != ',' {
			return nil, invalid("not a conversation bundle: %q in its files", c)
		}
	}
}

// file reads one file object, after its '{'.
func (d *bundleDecoder) file() (BundleFile, error) {
	var f BundleFile
	var named, data bool
	for first := true; ; first = false {
		c, err := d.peek()
		if err != nil {
			return f, err
		}
		if c == '}' && first {
			d.r.ReadByte()
			break
		}
		key, err := d.str(maxHeaderValue)
		if err == nil {
			err = d.expect(':')
		}
		if err != nil {
			return f, err
		}
		switch key {
		case "name":
			if named {
				return f, invalid("a file of the bundle has two names")
			}
			named = true
			if f.Name, err = d.str(maxHeaderValue); err == nil && !plainName(f.Name) {
				err = invalid("the bundle holds a file named %q: not a plain file name", f.Name)
			}
		case "data":
			if data {
				return f, invalid("a file of the bundle has two contents")
			}
			data = true
			f.Data, err = d.base64()
		default:
			if strings.EqualFold(key, "name") || strings.EqualFold(key, "data") {
				return f, invalid("not a conversation bundle: %q in a file", key)
			}
			err = d.value(nil)
		}
		if err != nil {
			return f, err
		}
		if c, err = d.next(); err != nil {
			return f, err
		}
		if c == '}' {
			break
		}
		if c != ',' {
			return f, invalid("not a conversation bundle: %q in a file", c)
		}
	}
	if !named {
		return f, invalid("a file of the bundle has no name")
	}
	return f, nil
}

// plainName is a file name a bundle may hold: one path element, nothing
// hidden (the agent then decides which names it knows).
func plainName(name string) bool {
	return name != "" && len(name) <= 128 && !strings.HasPrefix(name, ".") && !strings.ContainsAny(name, "/\\\x00")
}

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
