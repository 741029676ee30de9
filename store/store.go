package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Config is what the caller hands Open besides the directory.
type Config struct {
	// Valid is the validation boundary for a record's identity: tool must
	// be a known agent and id an ID of its grammar. It is required: the
	// store knows no agent itself.
	Valid func(tool, id string) bool
	// Warn receives one lowercase message per damaged file an operation skips;
	// nil discards them. It may be called from any goroutine using the Store.
	Warn func(msg string)
	// Now is the clock that stamps Updated; nil means time.Now.
	Now func() time.Time
	// LockWait bounds how long a write waits for a conversation's lock held
	// by another process; zero means defaultLockWait. A write that gives up
	// fails with an error wrapping safe.ErrLockTimeout.
	LockWait time.Duration
	// SkipSync leaves out the fsyncs: a write is still atomic (temp file and
	// rename), so a killed writer never damages the store, but a power cut
	// may lose the latest writes. The shim takes this trade: its writes sit
	// on the path between a command and its prompt.
	SkipSync bool
}

// Store is an open session store; it is safe for concurrent use by goroutines
// and processes.
type Store struct {
	dir string
	cfg Config

	mu    sync.Mutex
	spare *os.File // a temp file made ahead of time by Warm
}

// Open opens the session store in dir, creating it and its folders with mode
// 0700 when missing.
func Open(dir string, cfg Config) (*Store, error) {
	if dir == "" {
		return nil, errors.New("open session store: no directory")
	}
	if cfg.Valid == nil {
		return nil, errors.New("open session store: no validation boundary")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open session store: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open session store: %w", err)
	}
	if err := private(dir); err != nil {
		return nil, err
	}
	for _, sub := range []string{"records", "dirs", "locks"} {
		p := filepath.Join(dir, sub)
		if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("open session store: %w", err)
		}
		if err := private(p); err != nil {
			return nil, err
		}
	}
	return &Store{dir: dir, cfg: cfg}, nil
}

// ErrNotPrivate is returned by Open for a store that someone else could
// write to: a record planted there could name any program.
var ErrNotPrivate = errors.New("session store is not private")

// private checks one folder of the store: a directory (not a symlink) of
// this user that group and others cannot write to.
func private(p string) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("open session store: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("open session store: %s is not a directory", p)
	case ok && int(st.Uid) != os.Getuid():
		return fmt.Errorf("%w: %s belongs to uid %d", ErrNotPrivate, p, st.Uid)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%w: %s is writable by others (mode %04o)", ErrNotPrivate, p, fi.Mode().Perm())
	}
	return nil
}

// Put validates a record, merges it under the conversation's lock with the one
// already stored (see merge for the rules), writes it and returns the result.
// Invalid input is an error and writes nothing; a damaged stored record is
// replaced, with a warning.
func (s *Store) Put(in Record) (Record, error) {
	return s.save(in, "save session", merge)
}

// save validates in, merges it under the conversation's lock with the record
// already stored by mix (the record as it is when none is stored), writes
// the result and returns it; doing names the write in its errors. A record
// whose directory changed (only Refile changes it) leaves its old
// directory's marker last, so it stays reachable throughout.
func (s *Store) save(in Record, doing string, mix func(old, in Record, now time.Time) Record) (Record, error) {
	if err := s.checkInput(in); err != nil {
		return Record{}, fmt.Errorf("%s: %w", doing, err)
	}
	in = normalize(in)
	in.Cwd, _ = safe.Physical(in.Cwd)

	unlock, err := s.lock(in.Tool, in.ID)
	if err != nil {
		return Record{}, err
	}
	defer unlock()

	now := utc(s.now())
	out := in
	out.Updated = now
	old, err := s.load(in.Tool, in.ID)
	switch {
	case err == nil:
		out = mix(old, in, now)
	case !errors.Is(err, fs.ErrNotExist):
		return Record{}, fmt.Errorf("%s: %w", doing, err)
	}
	if err := s.check(out); err != nil {
		return Record{}, fmt.Errorf("%s: %w", doing, err)
	}
	if err := s.ensureMarker(out); err != nil {
		return Record{}, err
	}
	if err := s.writeRecord(out); err != nil {
		return Record{}, err
	}
	if old.Cwd != "" && old.Cwd != out.Cwd {
		os.Remove(filepath.Join(s.dir, "dirs", safe.PathKey(old.Cwd), markerName(in.Tool, in.ID)))
	}
	return out, nil
}

// Get returns the record of one conversation; a missing or damaged record is
// reported as not found (the damage with a warning).
func (s *Store) Get(tool, id string) (Record, bool, error) {
	if err := s.checkKey(tool, id); err != nil {
		return Record{}, false, err
	}
	r, err := s.load(tool, id)
	switch {
	case err == nil:
		return r, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return Record{}, false, nil
	}
	return Record{}, false, err
}

// Forget removes one conversation's record and its index entry, and
// remembers that it was forgotten (Forgotten), so a conversation found in
// its agent's store is not offered again as if it were new. An absent
// record is an error wrapping fs.ErrNotExist (the same as os.ErrNotExist).
func (s *Store) Forget(tool, id string) error {
	if err := s.checkKey(tool, id); err != nil {
		return fmt.Errorf("forget session: %w", err)
	}
	unlock, err := s.lock(tool, id)
	if err != nil {
		return err
	}
	defer unlock()

	p := s.recordPath(tool, id)
	data, err := readFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("forget %s session %s: %w", tool, id, fs.ErrNotExist)
	}
	// A damaged record is removed too: it is what the user asked to drop. Its
	// index entry, if any, cannot be found and stays behind, ignored.
	var cwd string
	if err == nil {
		if r, derr := s.decode(filepath.Base(p), data); derr == nil {
			cwd = r.Cwd
		}
	}
	if err := s.tombstone(tool, id); err != nil {
		return fmt.Errorf("forget session: %w", err)
	}
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("forget session: %w", err)
	}
	s.noteChange(tool, id)
	if cwd != "" {
		m := filepath.Join(s.dir, "dirs", safe.PathKey(cwd), markerName(tool, id))
		if err := os.Remove(m); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("forget session: %w", err)
		}
	}
	return s.syncDir(filepath.Dir(p))
}

func (s *Store) recordPath(tool, id string) string {
	return filepath.Join(s.dir, "records", fileName(tool, id))
}

// load reads one record by identity. Damage is warned about and reported as
// fs.ErrNotExist, so Put overwrites it and readers skip it; other I/O errors
// are returned.
func (s *Store) load(tool, id string) (Record, error) {
	p := s.recordPath(tool, id)
	r, err := s.readRecord(p)
	var d *damage
	if errors.As(err, &d) {
		s.warnDamage(p, d)
		return Record{}, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return r, err
}

// readRecord reads and validates one record file.
func (s *Store) readRecord(path string) (Record, error) {
	data, err := readFile(path)
	if err != nil {
		return Record{}, err
	}
	return s.decode(filepath.Base(path), data)
}

func (s *Store) warnDamage(path string, err error) {
	s.warn("skipping session record " + strconv.Quote(path) + ": " + err.Error())
}

func (s *Store) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now()
	}
	return time.Now()
}

// Refile writes the record of a conversation that moved to another
// directory: in is merged with the stored record as Put merges it, but the
// result is filed under in.Cwd, the one write that changes a record's Cwd.
// It is one atomic write, so a failure leaves the old record as it was; the
// new marker is made before it and the old one removed after, so the record
// is reachable from its directory's index throughout.
func (s *Store) Refile(in Record) (Record, error) {
	return s.save(in, "move session", func(old, in Record, now time.Time) Record {
		out := merge(old, in, now)
		out.Cwd = in.Cwd
		return out
	})
}
