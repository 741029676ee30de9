package catalog

import (
	"bufio"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
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
	err := d.members("after a value", func(key string) (err error) {
		if seen[key] {
			return invalid("not a conversation bundle: %q twice", key)
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
					return invalid("not a conversation bundle: its %s must come before its files", k)
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
					return invalid("not a conversation bundle: %q", key)
				}
			}
			err = d.value(nil)
		}
		return err
	})
	if err != nil {
		return Bundle{}, d.fail(err)
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
	a, ok := agents.Named(name)
	if !ok {
		return invalid("the bundle is a conversation of %q, which this fleetcom does not know", name)
	}
	if _, ok := a.Behaviour.(harness.Mover); !ok {
		return cannot(a, "import", "")
	}
	d.agent = a
	return nil
}

func (d *bundleDecoder) checkID(id string) error {
	if err := d.agent.ValidateID(id); err != nil {
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
	err := d.members("in a file", func(key string) (err error) {
		switch key {
		case "name":
			if named {
				return invalid("a file of the bundle has two names")
			}
			named = true
			if f.Name, err = d.str(maxHeaderValue); err == nil && !plainName(f.Name) {
				err = invalid("the bundle holds a file named %q: not a plain file name", f.Name)
			}
		case "data":
			if data {
				return invalid("a file of the bundle has two contents")
			}
			data = true
			f.Data, err = d.base64()
		default:
			if strings.EqualFold(key, "name") || strings.EqualFold(key, "data") {
				return invalid("not a conversation bundle: %q in a file", key)
			}
			err = d.value(nil)
		}
		return err
	})
	if err != nil {
		return f, err
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
