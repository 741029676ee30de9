package catalog

import (
	"encoding/json"
	"io"
	"time"

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
