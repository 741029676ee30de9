package catalog

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// bigBundle is a bundle of a header, then one file of n bytes of base64,
// produced as it is read and counting what was read.
type bigBundle struct {
	head, tail string
	n, at      int
	read       int
}

func (b *bigBundle) Read(p []byte) (int, error) {
	k := 0
	for k < len(p) {
		switch {
		case b.at < len(b.head):
			c := copy(p[k:], b.head[b.at:])
			k, b.at = k+c, b.at+c
		case b.at < len(b.head)+b.n:
			c := min(len(p)-k, len(b.head)+b.n-b.at)
			for i := range c {
				p[k+i] = 'Q'
			}
			k, b.at = k+c, b.at+c
		case b.at < len(b.head)+b.n+len(b.tail):
			off := b.at - len(b.head) - b.n
			c := copy(p[k:], b.tail[off:])
			k, b.at = k+c, b.at+c
		default:
			b.read += k
			if k == 0 {
				return 0, io.EOF
			}
			return k, nil
		}
	}
	b.read += k
	return k, nil
}

// TestReadBundleStopsEarly: a malformed bundle is refused as soon as what
// is wrong has been read, not after the whole of it (issue 21, item 13).
func TestReadBundleStopsEarly(t *testing.T) {
	const id = "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"
	header := func(format, tool, id, cwd string) string {
		return `{"format":"` + format + `","version":1,"tool":"` + tool + `","id":"` + id + `","cwd":"` + cwd + `","files":[`
	}
	const big = 300 << 20
	for name, b := range map[string]*bigBundle{
		"other format":  {head: header("tarball", "claude", id, "/p") + `{"name":"transcript.jsonl","data":"`, n: big, tail: `"}]}`},
		"unknown tool":  {head: header(bundleFormat, "nosuchagent", id, "/p") + `{"name":"transcript.jsonl","data":"`, n: big, tail: `"}]}`},
		"bad id":        {head: header(bundleFormat, "claude", "../x", "/p") + `{"name":"transcript.jsonl","data":"`, n: big, tail: `"}]}`},
		"relative cwd":  {head: header(bundleFormat, "claude", id, "p") + `{"name":"transcript.jsonl","data":"`, n: big, tail: `"}]}`},
		"a path name":   {head: header(bundleFormat, "claude", id, "/p") + `{"name":"../../.bashrc","data":"`, n: big, tail: `"}]}`},
		"not base64":    {head: header(bundleFormat, "claude", id, "/p") + `{"name":"transcript.jsonl","data":"**`, n: big, tail: `"}]}`},
		"files first":   {head: `{"files":[{"name":"transcript.jsonl","data":"`, n: big, tail: `"}],` + header(bundleFormat, "claude", id, "/p")[1:] + `]}`},
		"not an object": {head: `["`, n: big, tail: `"]`},
	} {
		_, _, err := ReadBundle(b)
		var ce *Error
		if !errors.As(err, &ce) || ce.Kind != Invalid {
			t.Errorf("%s: %v, want an invalid-input error", name, err)
		}
		if b.read > 1<<20 {
			t.Errorf("%s: read %d bytes before refusing it (%v)", name, b.read, err)
		}
	}
	// A well-formed bundle of the same shape is read whole.
	ok := &bigBundle{head: header(bundleFormat, "claude", id, "/p") + `{"name":"transcript.jsonl","data":"`, n: 4 << 20, tail: `"}]}`}
	b, _, err := ReadBundle(ok)
	if err != nil || len(b.Files) != 1 || len(b.Files[0].Data) != 3<<20 || strings.Trim(string(b.Files[0].Data[:3]), "\x41\x04\x10") != "" {
		t.Errorf("a good bundle: %v, %d files", err, len(b.Files))
	}
}
