package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

const (
	// maxRecordSize caps what is read of one record file; a real record is a
	// few hundred bytes, so anything near this is damage or hostility.
	maxRecordSize = 1 << 20
	// lockStripes bounds the number of lock files: writers of different
	// conversations rarely share a stripe and never wait on each other long.
	lockStripes = 64
	// tempPrefix names files that are not yet records; readers skip them.
	tempPrefix = ".tmp-"
	// staleTemp is the age after which an unlocked temp file can only belong
	// to a writer that was killed, since a write lasts milliseconds (a
	// warmed file, held for a whole run, is locked: see lockTemp).
	staleTemp = 10 * time.Minute
	// defaultLockWait bounds a wait for other processes' writes: each lasts
	// milliseconds, so even a crowd of writers is through well within it,
	// and a lock held longer belongs to a process that is stuck.
	defaultLockWait = 10 * time.Second
)

// damage is a file whose content cannot be a record: the caller skips it with
// one warning rather than failing the whole operation.
type damage struct{ reason string }

func (d *damage) Error() string { return d.reason }

func damaged(format string, args ...any) error {
	return &damage{reason: fmt.Sprintf(format, args...)}
}

func stripe(tool, id string) int {
	h := fnv.New32a()
	h.Write([]byte(tool + "-" + id))
	return int(h.Sum32() % lockStripes)
}

// stripePath is the lock file of one conversation's stripe.
func (s *Store) stripePath(tool, id string) string {
	return filepath.Join(s.dir, "locks", fmt.Sprintf("%02d", stripe(tool, id)))
}

// lock holds the stripe lock of one conversation until the returned function
// is called. flock is released by the kernel when a holder dies, so a killed
// writer never wedges the store; a live holder is waited for at most
// Config.LockWait.
func (s *Store) lock(tool, id string) (unlock func(), err error) {
	wait := s.cfg.LockWait
	if wait <= 0 {
		wait = defaultLockWait
	}
	unlock, err = safe.Lock(s.stripePath(tool, id), wait)
	if err != nil {
		return nil, fmt.Errorf("lock session store: %w", err)
	}
	return unlock, nil
}

// readFile returns the bytes of one record file without following a symlink,
// blocking on a FIFO, or reading more than maxRecordSize. A missing file is an
// error wrapping fs.ErrNotExist; unusable content is a *damage.
func readFile(path string) ([]byte, error) {
	data, err := safe.ReadFile(path, maxRecordSize, safe.NoFollow)
	switch {
	case errors.Is(err, safe.ErrNotRegular):
		return nil, damaged("is not a regular file")
	case errors.Is(err, safe.ErrTooLarge):
		return nil, damaged("is larger than %d bytes", maxRecordSize)
	}
	return data, err
}

// decode turns file bytes into a record that passed check and whose file name
// matches its identity.
func (s *Store) decode(base string, data []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return Record{}, damaged("is not a session record: %v", err)
	}
	r = normalize(r)
	if err := s.check(r); err != nil {
		return Record{}, damaged("%v", err)
	}
	if base != fileName(r.Tool, r.ID) {
		return Record{}, damaged("holds %s session %s under another name", r.Tool, r.ID)
	}
	return r, nil
}

// writeRecord replaces a record file atomically: readers see the old record
// or the new one, never a part of either, and a crash leaves only a temp file.
// A temp file that vanished before its rename (removed by hand, or by a
// fleetcom older than the temp-file lock) costs a second attempt with a new
// one, never the record.
func (s *Store) writeRecord(r Record) error {
	data, err := encodeRecord(r)
	if err != nil {
		return fmt.Errorf("encode session record: %w", err)
	}
	data = append(data, '\n')
	dir := filepath.Join(s.dir, "records")
	for attempt := 0; ; attempt++ {
		err := s.writeOnce(dir, fileName(r.Tool, r.ID), data)
		if errors.Is(err, errTempGone) && attempt == 0 {
			continue
		}
		if err != nil {
			return fmt.Errorf("write session record: %w", err)
		}
		s.noteChange(r.Tool, r.ID)
		return s.syncDir(dir)
	}
}

// errTempGone marks a write whose temp file was no longer there to rename.
var errTempGone = errors.New("temp file vanished before its rename")

// writeOnce fills a temp file with data and renames it to name in dir.
// The file is closed only after the rename, so its lock (see lockTemp)
// covers it for as long as it is a temp file.
func (s *Store) writeOnce(dir, name string, data []byte) error {
	f, err := s.tempFile(dir)
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil && !s.cfg.SkipSync {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("%w: %w", errTempGone, err)
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// Warm creates the temp file the next write will fill, so that write costs
// no file creation. The shim warms the store while its child starts, which
// takes the slowest part of a write off the path between the child's exit
// and the user's prompt; it then holds the file for the whole run, hours
// maybe, locked (see lockTemp) so that no sweep of stale temp files takes
// it meanwhile. A warmed file whose process died unused is a stale temp
// file, removed like any other.
func (s *Store) Warm() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.spare != nil {
		return nil
	}
	f, err := newTemp(filepath.Join(s.dir, "records"))
	if err != nil {
		return fmt.Errorf("prepare session record: %w", err)
	}
	s.spare = f
	return nil
}

// Release removes a warmed temp file that no write used.
func (s *Store) Release() {
	s.mu.Lock()
	f := s.spare
	s.spare = nil
	s.mu.Unlock()
	if f != nil {
		os.Remove(f.Name())
		f.Close()
	}
}

// tempFile returns the warmed temp file, or a new one.
func (s *Store) tempFile(dir string) (*os.File, error) {
	s.mu.Lock()
	f := s.spare
	s.spare = nil
	s.mu.Unlock()
	if f != nil {
		return f, nil
	}
	return newTemp(dir)
}

// newTemp creates a temp file in dir and locks it (lockTemp).
func newTemp(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return nil, err
	}
	lockTemp(f)
	return f, nil
}

// lockTemp marks a temp file as owned by a live writer: an exclusive flock
// held through the open descriptor until the writer renames the file and
// closes it, or dies. Age cannot tell a killed writer's file from the file
// a shim warmed at the start of a long run; the lock can, and the kernel
// drops it the moment its holder dies, however it died, with no process
// identity to read or to be fooled by a reused PID. The descriptor is
// close-on-exec, so no child keeps the lock past its writer. A file system
// without flock leaves the file unlocked: the sweep then goes by age alone,
// and the writer's retry (writeRecord) still saves the record.
func lockTemp(f *os.File) {
	syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// ensureMarker makes sure the index of a record's directory names it. It runs
// before the record is renamed into place, so a crash can leave a marker
// without a record (ignored by readers) but never a record without a marker.
func (s *Store) ensureMarker(r Record) error {
	dir := filepath.Join(s.dir, "dirs", safe.PathKey(r.Cwd))
	p := filepath.Join(dir, markerName(r.Tool, r.ID))
	if _, err := os.Lstat(p); err == nil {
		return nil
	}
	err := os.Mkdir(dir, 0o700)
	switch {
	case err == nil:
		err = s.syncDir(filepath.Dir(dir))
	case errors.Is(err, fs.ErrExist):
		err = nil
	}
	if err == nil {
		err = s.newMarker(p, r)
	}
	if err == nil {
		err = s.syncDir(dir)
	}
	if err != nil {
		return fmt.Errorf("index session record: %w", err)
	}
	return nil
}

// newMarker creates the marker p. A marker is only a name, so it is made as
// one more hard link to the record's lock stripe file: linking costs a
// directory entry, where creating an empty file costs an inode, which on
// some disks is a millisecond on the way to the user's prompt. A stripe
// that has run out of links (tens of thousands of records on one stripe)
// gets an empty file instead.
func (s *Store) newMarker(p string, r Record) error {
	err := os.Link(s.stripePath(r.Tool, r.ID), p)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return nil
	}
	return safe.Touch(p, 0o600)
}

// syncDir makes the entries just created or renamed in dir durable, so a
// record whose Put returned survives a power loss too (unless the caller
// chose SkipSync).
func (s *Store) syncDir(dir string) error {
	if s.cfg.SkipSync {
		return nil
	}
	// Only a directory: a FIFO in its place is refused, not waited on.
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	err = f.Sync()
	f.Close()
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// removeStaleTemp deletes a temp file left by a writer that died. A file
// younger than staleTemp may belong to a writer in the middle of a write,
// and one whose lock is held (lockTemp) belongs to a live writer, however
// old it is: both are left alone.
func removeStaleTemp(dir string, e fs.DirEntry, now time.Time) {
	if !strings.HasPrefix(e.Name(), tempPrefix) {
		return
	}
	fi, err := e.Info()
	if err != nil || now.Sub(fi.ModTime()) <= staleTemp {
		return
	}
	p := filepath.Join(dir, e.Name())
	if !fi.Mode().IsRegular() {
		os.Remove(p) // no writer makes one of those: nothing to open
		return
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return // gone meanwhile, or not ours to judge
	}
	defer f.Close()
	switch err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err {
	case nil:
	case syscall.EWOULDBLOCK, syscall.EINTR:
		return // a live writer holds it
	default:
		// A file system without flock: no writer could lock it either,
		// so its age is all there is to go by.
	}
	// The name may have gone to another file since it was opened (the
	// writer renamed it and a new one took it): only this file is removed.
	held, err1 := f.Stat()
	named, err2 := os.Lstat(p)
	if err1 == nil && err2 == nil && os.SameFile(held, named) {
		os.Remove(p)
	}
}
