package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Every write of a record, and every forget, appends the conversation's
// "<tool>-<id>" key to one file, changes, so that a reader which keeps a
// copy of the records (the index) reads only what changed since it last
// looked, instead of every record. A reader's mark is the file's inode and
// the offset it read up to; a file that is gone, replaced or shorter than
// the mark means the changes since are unknown, and the reader reads every
// record again. The file is replaced by an empty one when it grows past
// maxChanges; a write that cannot be noted removes the file, so that no
// reader trusts it to be complete.

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
	size, err := safe.AppendFile(p, []byte(tool+"-"+id+"\n"), 0o600)
	if err != nil {
		os.Remove(p)
		return
	}
	if size > maxChanges {
		s.restartChanges()
	}
}

// restartChanges replaces the changes file by an empty one (a new inode,
// which every reader's mark misses).
func (s *Store) restartChanges() {
	f, err := os.CreateTemp(s.dir, tempPrefix+"*")
	if err != nil {
		return
	}
	f.Close()
	if os.Rename(f.Name(), filepath.Join(s.dir, changesFile)) != nil {
		os.Remove(f.Name())
	}
}

// Changed returns the keys ("<tool>-<id>") of the conversations whose
// records were written or forgotten after mark (a value Changed returned
// before; "" for none), each once, and the mark to give next time. all
// says that the changes since mark are not known: the caller reads every
// record again.
func (s *Store) Changed(mark string) (keys []string, next string, all bool, err error) {
	p := filepath.Join(s.dir, changesFile)
	f, err := safe.Open(p, safe.NoFollow)
	if errors.Is(err, fs.ErrNotExist) {
		// No file (a store written before it existed, or a change that
		// could not be noted): start one, and read everything this time.
		if err := safe.Touch(p, 0o600); err != nil {
			return nil, "", true, nil
		}
		f, err = safe.Open(p, safe.NoFollow)
	}
	if err != nil {
		return nil, "", true, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, "", true, err
	}
	var ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		ino = uint64(st.Ino)
	}
	at := func(off int64) string { return fmt.Sprintf("%d:%d", ino, off) }
	mino, moff, ok := parseMark(mark)
	if !ok || mino != ino || moff > fi.Size() || fi.Size()-moff > maxChangesRead {
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
func parseMark(mark string) (ino uint64, off int64, ok bool) {
	a, b, found := strings.Cut(mark, ":")
	if !found {
		return 0, 0, false
	}
	ino, err1 := strconv.ParseUint(a, 10, 64)
	off, err2 := strconv.ParseInt(b, 10, 64)
	return ino, off, err1 == nil && err2 == nil && off >= 0
}
