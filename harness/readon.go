package harness

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"slices"
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
// head cuts reaches fn as those 256 KB alone, once the line has ended
// (whatever its length); the rest is read past, never kept, unless the
// bytes the Head names occur in it: then the line is read again, whole,
// as ReadOn would have read it. A reader of a store whose big lines are
// tool output after the fields it reads saves copying and collecting
// megabytes a line.
func ReadOnHeads(path string, offset int64, max int, head func(prefix []byte) Head, fn func(line []byte)) (int64, error) {
	return readOnHeads(path, offset, max, 0, head, func(line []byte) bool {
		fn(line)
		return true
	})
}

// ScanHeads reads the lines of the file at path from its start as
// ReadOnHeads does, until fn returns false or, with limit > 0, once the
// lines read span more than limit bytes: a look for something near a
// file's start that must not cost a file of gigabytes more than its
// first limit bytes.
func ScanHeads(path string, max int, limit int64, head func(prefix []byte) Head, fn func(line []byte) bool) error {
	_, err := readOnHeads(path, 0, max, limit, head, fn)
	return err
}

func readOnHeads(path string, offset int64, max int, limit int64, head func(prefix []byte) Head, fn func(line []byte) bool) (int64, error) {
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
	skipping := false
	var h Head // of the line being read past; h.Cut while it is
	var rest tailScan
	pos := offset
	for {
		if limit > 0 && pos > limit {
			return offset, nil
		}
		chunk, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			pos += int64(len(chunk))
			switch {
			case h.Cut:
				rest.scan(chunk)
			case !skipping && len(long) == 0 && head != nil:
				if h = head(chunk); h.Cut {
					long = append(long, chunk...)
					rest.reset(h.Unless, chunk)
					continue
				}
				fallthrough
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
		case h.Cut && rest.scan(line):
			// What the head could not rule out is in the rest: the whole
			// line after all, read again from the file.
			line, skipping = nil, pos-offset-1 > int64(max)
			if !skipping {
				long = slices.Grow(long[:0], int(pos-offset-1))[:pos-offset-1]
				if _, err := f.ReadAt(long, offset); err != nil {
					return offset, err
				}
				line = long
			}
		case h.Cut:
			line = long
		case len(long) > 0:
			line = append(long, line...)
		}
		more := true
		if !skipping && len(line) <= max {
			more = fn(line)
		}
		long, skipping, h = long[:0], false, Head{}
		offset = pos
		if !more {
			return offset, nil
		}
	}
}

// Head is a reader's answer to the head of a long line (ReadOnHeads).
type Head struct {
	// Cut: the head is all the reader needs of the line.
	Cut bool
	// Unless, when given, is what must not occur in the rest of a line
	// that is cut: if it does, the reader gets the whole line.
	Unless []byte
}

// tailScan looks for a Head's Unless in the rest of a line, piece by
// piece, across the pieces' joins.
type tailScan struct {
	unless []byte
	carry  []byte // the end of the last piece, one byte short of unless
	found  bool
}

func (t *tailScan) reset(unless, head []byte) {
	t.unless, t.found, t.carry = unless, false, t.carry[:0]
	t.keep(head)
}

// scan takes the next piece, and reports whether unless has been seen.
func (t *tailScan) scan(piece []byte) bool {
	if len(t.unless) == 0 || t.found {
		return t.found
	}
	// Across the join: the carried end of the last piece, then as much of
	// this one as can finish a match begun there.
	if len(t.carry) > 0 {
		join := append(t.carry, piece[:min(len(piece), len(t.unless)-1)]...)
		t.found = bytes.Contains(join, t.unless)
	}
	t.found = t.found || bytes.Contains(piece, t.unless)
	t.keep(piece)
	return t.found
}

// keep carries the last len(unless)-1 bytes of a piece over to the next.
func (t *tailScan) keep(piece []byte) {
	n := len(t.unless) - 1
	if n <= 0 {
		return
	}
	if len(piece) >= n {
		t.carry = append(t.carry[:0], piece[len(piece)-n:]...)
		return
	}
	t.carry = append(t.carry, piece...)
	t.carry = t.carry[max(0, len(t.carry)-n):]
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
