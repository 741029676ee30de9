package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// A forgotten conversation leaves a tombstone, forgotten/<tool>-<id>, an
// empty file: discovery skips what the user asked to drop. A tombstone is
// only a name, so it costs an inode and nothing else, and it never hides a
// record: a conversation recorded again (the user resumed it by hand) is a
// record like any other.

// Tombstone marks a conversation forgotten without a record to drop: one
// found in its agent's store that the user does not want offered.
func (s *Store) Tombstone(tool, id string) error {
	if err := s.checkKey(tool, id); err != nil {
		return err
	}
	return s.tombstone(tool, id)
}

func (s *Store) tombstone(tool, id string) error {
	dir := filepath.Join(s.dir, "forgotten")
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	// A FIFO in the tombstone's place is refused, never waited on.
	if err := safe.Touch(filepath.Join(dir, markerName(tool, id)), 0o600); err != nil {
		return err
	}
	s.noteChange(tool, id)
	return nil
}

// Forgotten returns the conversations forgotten in this store, as
// "<tool>-<id>" keys.
func (s *Store) Forgotten() map[string]bool {
	entries, _ := os.ReadDir(filepath.Join(s.dir, "forgotten"))
	out := make(map[string]bool, len(entries))
	for _, e := range entries {
		if tool, id, ok := s.parseKey(e.Name()); ok && e.Type().IsRegular() {
			out[tool+"-"+id] = true
		}
	}
	return out
}

// Remember undoes Forget's tombstone for a conversation the user asked for
// by its full ID.
func (s *Store) Remember(tool, id string) {
	if s.checkKey(tool, id) == nil && os.Remove(filepath.Join(s.dir, "forgotten", markerName(tool, id))) == nil {
		s.noteChange(tool, id)
	}
}
