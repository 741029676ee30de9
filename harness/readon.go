package harness

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// ReadOn reads the whole lines of the file at path that begin at or after
// offset, passing each to fn without its newline, and returns the offset
// just past the last whole line: where the next read goes on. A last line
// without its newline is being written and is left for later. A line longer
// than max bytes is skipped: its bytes are read, never kept, so memory stays
// bounded whatever the file holds. The file is opened as safe.Open opens
// it: never a FIFO, never blocking.
func ReadOn(path string, offset int64, max int, fn func(line []byte)) (int64, error) {
	return ReadOnHeads(path, offset, max, nil, fn)
}

// ReadOnHeads is ReadOn for a reader that needs only the head of some long
// lines. A line longer than the read buffer (256 KB) whose first 256 KB
// head accepts reaches fn as those 256 KB alone, once the line has ended
// (whatever its length); the rest is read past, never kept. A reader of a
// store whose big lines are tool output after the fields it reads saves
// copying and collecting megabytes a line.
func ReadOnHeads(path string, offset int64, max int, head func(prefix []byte) bool, fn func(line []byte)) (int64, error) {
	f, err := safe.Open(path, safe.NoFollow)
	if err != nil {
		return offset, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return offset, err
	}
	br := readers.Get().(*bufio.Reader)
	br.Reset(f)
	defer func() {
		br.Reset(nil)
		readers.Put(br)
	}()
	var long []byte
	skipping, cut := false, false
	pos := offset
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			pos += int64(len(chunk))
			switch {
			case cut:
			case !skipping && len(long) == 0 && head != nil && head(chunk):
				long, cut = append(long, chunk...), true
			case !skipping:
				long = append(long, chunk...)
				if len(long) > max {
					long, skipping = nil, true
				}
			}
			continue
		case err != nil:
			// EOF: a line not ended is not whole yet, and its bytes (and those
			// of a long line around it) are read again next time.
			if errors.Is(err, io.EOF) {
				return offset, nil
			}
			return offset, err
		}
		pos += int64(len(chunk))
		line := chunk[:len(chunk)-1]
		switch {
		case cut:
			line = long
		case len(long) > 0:
			line = append(long, line...)
		}
		if !skipping && len(line) <= max {
			fn(line)
		}
		long, skipping, cut = long[:0], false, false
		offset = pos
	}
}

// readers keeps ReadOn's buffers for the next file: a cold build reads
// thousands of files on every core, and a new 256 KB buffer for each was
// most of its allocation, zeroed and faulted in every time.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 256<<10) }}

// StringField returns the value of the first "key":"…" string field in
// data, decoded; ok is false when there is none. It looks for the field's
// text, not at the JSON's structure: a reader uses it on lines whose shape
// it knows, to skip decoding the rest (a tool's output of megabytes).
func StringField(data []byte, key string) (string, bool) {
	pat := `"` + key + `":"`
	i := bytes.Index(data, []byte(pat))
	if i < 0 {
		return "", false
	}
	start := i + len(pat) - 1
	end := skipString(data, start)
	if end < 0 {
		return "", false
	}
	return StringValue(data[start:end])
}

// ClipText cuts text to at most n bytes (n <= 0: no limit), on a rune
// boundary: a reader cuts each message to Limits.Message with it.
func ClipText(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}
