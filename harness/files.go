package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"unicode"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// ReadSmallJSON decodes a regular file of at most 64 KiB into v; false
// when it cannot be read or decoded.
func ReadSmallJSON(path string, v any) bool {
	data, err := safe.ReadFile(path, 64<<10, 0)
	return err == nil && json.Unmarshal(data, v) == nil
}

// MaxLine bounds one JSON line read from a tool's store. Longer lines (huge
// tool outputs) are skipped, not loaded.
const MaxLine = 16 << 20

// EachLine calls fn with each complete line of the file at path, without the
// newline, until fn returns false. A final line without a newline is still
// being written and is not passed on; lines over MaxLine are skipped.
func EachLine(path string, fn func(line []byte) bool) error {
	f, err := safe.Open(path, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return ScanLines(f, fn)
}

// lineBuffer is how much ScanLines reads at a time; a longer line is put
// together from its pieces.
const lineBuffer = 64 << 10

// ScanLines is EachLine over a reader.
func ScanLines(r io.Reader, fn func(line []byte) bool) error {
	br := bufio.NewReaderSize(r, lineBuffer)
	var long []byte
	skipping := false
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			if !skipping {
				long = append(long, chunk...)
				if len(long) > MaxLine {
					long, skipping = long[:0], true
				}
			}
			continue
		case err != nil:
			if err == io.EOF {
				return nil
			}
			return err
		}
		line := chunk[:len(chunk)-1]
		if len(long)+len(line) > MaxLine {
			// Its last piece took it over.
			skipping = true
		} else if len(long) > 0 {
			line = append(long, line...)
		}
		if !skipping && !fn(line) {
			return nil
		}
		long, skipping = long[:0], false
	}
}

// FirstLine returns the first complete line of the file at path.
func FirstLine(path string) ([]byte, bool) {
	var out []byte
	err := EachLine(path, func(line []byte) bool {
		out = append([]byte(nil), line...)
		return false
	})
	return out, err == nil && out != nil
}

// titleLen is how many characters of a first prompt a title keeps.
const titleLen = 60

// CleanTitle turns a prompt into a one-line title: control characters and
// runs of whitespace become one space, and long text is cut with an ellipsis.
func CleanTitle(s string) string { return cleanTo(s, titleLen) }

// cleanTo is CleanTitle cutting at max characters.
func cleanTo(s string, max int) string {
	var b bytes.Buffer
	space := false
	n := 0
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.IsSpace(r) ||
			r >= 0x200b && r <= 0x200f || r >= 0x2028 && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			space = b.Len() > 0
			continue
		}
		need := 1
		if space {
			need = 2
		}
		if n+need > max {
			b.WriteString("…")
			break
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
