package store

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Every write of a record, and every forget, appends the conversation's
// "<tool>-<id>" key to one file, changes, so that a reader which keeps a
// copy of the records (the index) reads only what changed since it last
// looked, instead of every record. Each changes file starts with a line of
// its own, '#' and a random token, and a reader's mark is that token and
// the offset it read up to; a file that is gone, replaced or shorter than
// the mark means the changes since are unknown, and the reader reads every
// record again. (An inode number would not do: a file removed and made
// again often gets the same one, and a mark would then read on in a file
// that missed changes.) The file is replaced by a new one when it grows
// past maxChanges; a write that cannot be noted removes the file, so that
// no reader trusts it to be complete, and only a reader makes it again,
// reading everything as it does.

const (
	changesFile = "changes"
	// maxChanges is the size past which the file starts over.
	maxChanges = 1 << 20
	// maxChangesRead is the most a reader reads of it at once: past that,
	// reading every record is not much dearer.
	maxChangesRead = 4 << 20
)

// noteChange appends one conversation's key to the changes file.
func (s *Store) noteChange(tool, id string) {
	p := filepath.Join(s.dir, changesFile)
	size, err := safe.AppendExisting(p, []byte(tool+"-"+id+"\n"))
	if errors.Is(err, fs.ErrNotExist) {
		return // its absence says the changes are unknown already
	}
	if err != nil {
		os.Remove(p)
		return
	}
	if size > maxChanges {
		s.restartChanges()
	}
}

// restartChanges replaces the changes file by a new one, which holds only
// its token line: a token no reader's mark names.
func (s *Store) restartChanges() {
	f, err := os.CreateTemp(s.dir, tempPrefix+"*")
	if err != nil {
		return
	}
	_, werr := f.WriteString("#" + rand.Text() + "\n")
	if f.Close() != nil || werr != nil || os.Rename(f.Name(), filepath.Join(s.dir, changesFile)) != nil {
		os.Remove(f.Name())
	}
}

// changesToken reads the token line a changes file starts with, and
// returns the token and the line's length; ok is false for a file without
// one (made before tokens, or cut short).
func changesToken(f *os.File) (token string, n int64, ok bool) {
	head := make([]byte, 64)
	k, _ := f.ReadAt(head, 0)
	line, _, found := bytes.Cut(head[:k], []byte("\n"))
	if !found || len(line) < 2 || line[0] != '#' || bytes.IndexByte(line, ':') >= 0 {
		return "", 0, false
	}
	return string(line[1:]), int64(len(line) + 1), true
}

// Changed returns the keys ("<tool>-<id>") of the conversations whose
// records were written or forgotten after mark (a value Changed returned
// before; "" for none), each once, and the mark to give next time. all
// says that the changes since mark are not known: the caller reads every
// record again.
func (s *Store) Changed(mark string) (keys []string, next string, all bool, err error) {
	p := filepath.Join(s.dir, changesFile)
	f, err := safe.Open(p, safe.NoFollow)
	var token string
	var head int64
	if err == nil {
		var ok bool
		if token, head, ok = changesToken(f); !ok {
			f.Close()
			err = fs.ErrNotExist
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		// No file (a store written before it existed, or a change that
		// could not be noted), or one from before tokens: start one, and
		// read everything this time.
		s.restartChanges()
		if f, err = safe.Open(p, safe.NoFollow); err != nil {
			return nil, "", true, nil
		}
		var ok bool
		if token, head, ok = changesToken(f); !ok {
			f.Close()
			return nil, "", true, nil
		}
		mark = ""
	}
	if err != nil {
		return nil, "", true, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, "", true, err
	}
	at := func(off int64) string { return token + ":" + strconv.FormatInt(off, 10) }
	mtoken, moff, ok := parseMark(mark)
	if !ok || mtoken != token || moff < head || moff > fi.Size() || fi.Size()-moff > maxChangesRead {
		return nil, at(fi.Size()), true, nil
	}
	data := make([]byte, fi.Size()-moff)
	n, err := f.ReadAt(data, moff)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, "", true, err
	}
	data = data[:n]
	end := bytes.LastIndexByte(data, '\n') + 1
	seen := map[string]bool{}
	for _, line := range strings.Split(string(data[:end]), "\n") {
		if tool, id, ok := s.parseKey(line); ok && !seen[line] {
			seen[line] = true
			keys = append(keys, tool+"-"+id)
		}
	}
	return keys, at(moff + int64(end)), false, nil
}

// parseMark reads a mark Changed made.
func parseMark(mark string) (token string, off int64, ok bool) {
	token, b, found := strings.Cut(mark, ":")
	if !found || token == "" {
		return "", 0, false
	}
	off, err := strconv.ParseInt(b, 10, 64)
	return token, off, err == nil && off >= 0
}
