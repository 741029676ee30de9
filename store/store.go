package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Config is what the caller hands Open besides the directory.
type Config struct {
	// Warn receives one lowercase message per damaged file an operation skips;
	// nil discards them. It may be called from any goroutine using the Store.
	Warn func(msg string)
	// ResumeLine rebuilds a record's canonical resume line from its Tool,
	// Program, ID and Options. The store never returns the line found on disk:
	// it sets Resume from this function on every record it returns, and skips
	// records it fails on. Nil leaves Resume empty.
	ResumeLine func(r Record) (string, error)
	// Now is the clock that stamps Updated; nil means time.Now.
	Now func() time.Time
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
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open session store: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open session store: %w", err)
	}
	for _, sub := range []string{"records", "dirs", "locks"} {
		p := filepath.Join(dir, sub)
		if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("open session store: %w", err)
		}
		if fi, err := os.Lstat(p); err != nil {
			return nil, fmt.Errorf("open session store: %w", err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("open session store: %s is not a directory", p)
		}
	}
	return &Store{dir: dir, cfg: cfg}, nil
}

// Physical returns the form of a directory that records and lookups use: made
// absolute and with symlinks resolved, or only made absolute and clean when it
// cannot be resolved (it may no longer exist).
func Physical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if p, err := filepath.EvalSymlinks(abs); err == nil {
		return p, nil
	}
	return abs, nil
}

// Put validates a record, merges it under the conversation's lock with the one
// already stored (see merge for the rules), writes it and returns the result.
// Invalid input is an error and writes nothing; a damaged stored record is
// replaced, with a warning.
func (s *Store) Put(in Record) (Record, error) {
	if err := s.checkInput(in); err != nil {
		return Record{}, fmt.Errorf("save session: %w", err)
	}
	in = normalize(in)
	in.Resume = ""
	in.Cwd, _ = Physical(in.Cwd)

	unlock, err := s.lock(in.Tool, in.ID)
	if err != nil {
		return Record{}, err
	}
	defer unlock()

	now := utc(s.now())
	out := in
	out.Updated = now
	old, err := s.load(in.Tool, in.ID, false)
	switch {
	case err == nil:
		out = merge(old, in, now)
	case !errors.Is(err, fs.ErrNotExist):
		return Record{}, fmt.Errorf("save session: %w", err)
	}
	if err := check(out); err != nil {
		return Record{}, fmt.Errorf("save session: %w", err)
	}
	if out.Resume, err = s.resumeLine(out); err != nil {
		return Record{}, fmt.Errorf("save session: %w", err)
	}
	if err := s.ensureMarker(out); err != nil {
		return Record{}, err
	}
	if err := s.writeRecord(out); err != nil {
		return Record{}, err
	}
	return out, nil
}

// checkInput holds a caller's record to the rules that the merge cannot
// repair; the merged result is checked in full afterwards.
func (s *Store) checkInput(r Record) error {
	if err := checkKey(r.Tool, r.ID); err != nil {
		return err
	}
	if err := checkPath("cwd", r.Cwd, false); err != nil {
		return err
	}
	if err := checkPath("home", r.Home, true); err != nil {
		return err
	}
	if r.Source != "" && !validSource(r.Source) {
		return invalid("unknown source %q", r.Source)
	}
	if err := checkOptions(r.Options); err != nil {
		return err
	}
	return checkProgram(r.Tool, r.Program)
}

// Get returns the record of one conversation; a missing or damaged record is
// reported as not found (the damage with a warning).
func (s *Store) Get(tool, id string) (Record, bool, error) {
	if err := checkKey(tool, id); err != nil {
		return Record{}, false, err
	}
	r, err := s.load(tool, id, true)
	switch {
	case err == nil:
		return r, true, nil
	case errors.Is(err, fs.ErrNotExist):
		return Record{}, false, nil
	}
	return Record{}, false, err
}

// Forget removes one conversation's record and its index entry. An absent
// record is an error wrapping fs.ErrNotExist (the same as os.ErrNotExist).
func (s *Store) Forget(tool, id string) error {
	if err := checkKey(tool, id); err != nil {
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
		if r, derr := decode(filepath.Base(p), data); derr == nil {
			cwd = r.Cwd
		}
	}
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("forget session: %w", err)
	}
	if cwd != "" {
		m := filepath.Join(s.dir, "dirs", dirKey(cwd), markerName(tool, id))
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
// are returned. withResume rebuilds Resume, which a failing ResumeLine turns
// into damage.
func (s *Store) load(tool, id string, withResume bool) (Record, error) {
	p := s.recordPath(tool, id)
	r, err := s.readRecord(p, withResume)
	var d *damage
	if errors.As(err, &d) {
		s.warnDamage(p, d)
		return Record{}, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return r, err
}

// readRecord reads and validates one record file.
func (s *Store) readRecord(path string, withResume bool) (Record, error) {
	data, err := readFile(path)
	if err != nil {
		return Record{}, err
	}
	r, err := decode(filepath.Base(path), data)
	if err != nil {
		return Record{}, err
	}
	if withResume {
		if r.Resume, err = s.resumeLine(r); err != nil {
			return Record{}, damaged("%v", err)
		}
	}
	return r, nil
}

func (s *Store) resumeLine(r Record) (string, error) {
	if s.cfg.ResumeLine == nil {
		return "", nil
	}
	line, err := s.cfg.ResumeLine(r)
	if err != nil {
		return "", fmt.Errorf("build resume line for %s session %s: %w", r.Tool, r.ID, err)
	}
	return line, nil
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
