package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Dir returns the records that belong to the physical form of cwd, newest
// first. It reads one index folder and the records it names, so its cost
// follows the directory, not the store.
func (s *Store) Dir(cwd string) ([]Record, error) {
	p, err := safe.Physical(cwd)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	idx := filepath.Join(s.dir, "dirs", safe.PathKey(p))
	entries, err := os.ReadDir(idx)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []Record
	for _, e := range entries {
		tool, id, ok := s.parseKey(e.Name())
		if !ok {
			s.warn("skipping session index entry " + strconv.Quote(filepath.Join(idx, e.Name())) + ": not a session name")
			continue
		}
		path := s.recordPath(tool, id)
		r, err := s.readRecord(path)
		// A marker whose record is missing or lives elsewhere is the harmless
		// trace of a crash between the two writes, or of a hash collision.
		if !s.usable(path, err) || r.Cwd != p {
			continue
		}
		out = append(out, r)
	}
	slices.SortFunc(out, NewestFirst)
	return out, nil
}

// All returns every valid record in the store, newest first.
func (s *Store) All() ([]Record, error) {
	return s.scan(nil)
}

// Find returns the records whose ID is idOrPrefix or begins with it, in every
// directory, newest first. The caller decides which prefixes are worth
// looking for; the prefix is only ever compared with the IDs of valid record
// names, never made into a path.
func (s *Store) Find(idOrPrefix string) ([]Record, error) {
	if idOrPrefix == "" || strings.Trim(idOrPrefix, idChars) != "" {
		return nil, fmt.Errorf("find session: %w", invalid("%q cannot begin a session id", idOrPrefix))
	}
	return s.scan(func(id string) bool { return strings.HasPrefix(id, idOrPrefix) })
}

// idChars are the bytes an ID of any agent's grammar may hold.
const idChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"

// scan reads the records whose file names pass match (all when match is nil).
// Only the matching files are opened. A full scan also warns about entries
// that are not record names and removes temp files left by killed writers.
func (s *Store) scan(match func(id string) bool) ([]Record, error) {
	dir := filepath.Join(s.dir, "records")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	now := time.Now()
	var out []Record
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, tempPrefix) {
			if match == nil {
				removeStaleTemp(dir, e, now)
			}
			continue
		}
		key, isJSON := strings.CutSuffix(name, ".json")
		_, id, ok := s.parseKey(key)
		if !ok || !isJSON {
			if match == nil {
				s.warn("skipping " + strconv.Quote(filepath.Join(dir, name)) + ": not a session record name")
			}
			continue
		}
		if match != nil && !match(id) {
			continue
		}
		path := filepath.Join(dir, name)
		if r, err := s.readRecord(path); s.usable(path, err) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, NewestFirst)
	return out, nil
}

// usable reports whether a read succeeded. A file that vanished since the
// folder was listed (a concurrent Forget) is skipped silently; anything else
// is skipped with one warning.
func (s *Store) usable(path string, err error) bool {
	switch {
	case err == nil:
		return true
	case errors.Is(err, fs.ErrNotExist):
		return false
	}
	s.warnDamage(path, err)
	return false
}

func (s *Store) warn(msg string) {
	if s.cfg.Warn != nil {
		s.cfg.Warn(msg)
	}
}
