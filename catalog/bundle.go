package catalog

import (
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/harness"
)

// A bundle is one conversation, self-described, in one JSON document: the
// agent, the ID, the agent's version that wrote it, the directory it was
// made in, its title and last activity, and its files exactly as stored
// (base64 in JSON). A bundle is untrusted input: the ID passes its agent's
// grammar, files are named only by the names their agent knows (the agent
// builds every path), sizes are capped, and anything malformed is refused
// before anything is written.

const (
	bundleFormat  = "fleetcom-conversation"
	bundleVersion = 1
	// maxBundle bounds what is read of a bundle (base64 grows data by a
	// third, so this holds some 256 MiB of conversation).
	maxBundle = 352 << 20
	// maxBundleFiles bounds the files of one conversation.
	maxBundleFiles = 64
)

// Bundle is the document export writes and import reads.
type Bundle struct {
	Format     string       `json:"format"`
	Version    int          `json:"version"`
	Tool       string       `json:"tool"`
	ID         string       `json:"id"`
	CLIVersion string       `json:"cli_version,omitempty"`
	Cwd        string       `json:"cwd"`
	Title      string       `json:"title,omitempty"`
	Active     time.Time    `json:"active"`
	Exported   time.Time    `json:"exported"`
	Files      []BundleFile `json:"files"`
}

// BundleFile is one file of the conversation, by the name its agent gives
// it.
type BundleFile struct {
	Name string `json:"name"`
	Data []byte `json:"data"`
}

// WriteBundle encodes b.
func WriteBundle(w io.Writer, b Bundle) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(b)
}

// ReadBundle decodes and checks a bundle; anything malformed is an error
// of kind Invalid, and nothing has been written.
func ReadBundle(r io.Reader) (Bundle, harness.Agent, error) {
	var b Bundle
	lr := &io.LimitedReader{R: r, N: maxBundle + 1}
	dec := json.NewDecoder(lr)
	err := dec.Decode(&b)
	switch {
	case lr.N <= 0:
		return Bundle{}, harness.Agent{}, invalid("the bundle is larger than %d MiB", maxBundle>>20)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return Bundle{}, harness.Agent{}, invalid("the bundle is empty or cut short")
	case err != nil:
		return Bundle{}, harness.Agent{}, invalid("not a conversation bundle: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Bundle{}, harness.Agent{}, invalid("not a conversation bundle: something follows it")
	}
	if b.Format != bundleFormat || b.Version != bundleVersion {
		return Bundle{}, harness.Agent{}, invalid("not a conversation bundle (format %q, version %d; want %q, %d)", b.Format, b.Version, bundleFormat, bundleVersion)
	}
	a, ok := harness.Lookup(b.Tool)
	if !ok {
		return Bundle{}, harness.Agent{}, invalid("the bundle is a conversation of %q, which this fleetcom does not know", b.Tool)
	}
	if _, ok := a.Behaviour.(harness.Mover); !ok {
		return Bundle{}, harness.Agent{}, invalid("%s conversations cannot be imported", b.Tool)
	}
	if err := a.CheckID(b.ID); err != nil {
		return Bundle{}, harness.Agent{}, invalid("the bundle's id: %v", err)
	}
	if !filepath.IsAbs(b.Cwd) || filepath.Clean(b.Cwd) != b.Cwd || !utf8.ValidString(b.Cwd) {
		return Bundle{}, harness.Agent{}, invalid("the bundle's directory %q is not an absolute, clean path", b.Cwd)
	}
	if len(b.Files) == 0 || len(b.Files) > maxBundleFiles {
		return Bundle{}, harness.Agent{}, invalid("the bundle holds %d files", len(b.Files))
	}
	b.Title = harness.CleanTitle(b.Title)
	return b, a, nil
}

// files turns a bundle's files into the agent's.
func (b Bundle) files() []harness.File {
	out := make([]harness.File, len(b.Files))
	for i, f := range b.Files {
		out[i] = harness.File{Name: f.Name, Data: f.Data}
	}
	return out
}

func bundleOf(e Entry, files []harness.File) Bundle {
	b := Bundle{Format: bundleFormat, Version: bundleVersion, Tool: e.Tool, ID: e.ID, CLIVersion: e.Version,
		Cwd: e.Cwd, Title: e.Title, Active: e.Activity().UTC(), Exported: time.Now().UTC()}
	for _, f := range files {
		b.Files = append(b.Files, BundleFile{Name: f.Name, Data: f.Data})
	}
	return b
}
