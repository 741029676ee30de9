package grok

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Grok keeps each session in a directory of its own under a folder named by
// the percent-encoded cwd, so a directory's sessions are one listing and an
// ID's directory is the decoded folder name.

// Discover implements Finder: the conversations under cwd's folder; the
// empty sessions of runs quit before their first prompt are not.
func (grok) Discover(home, cwd, _ string) ([]harness.Found, error) {
	dir := folderOf(home, cwd)
	entries, _ := os.ReadDir(dir)
	var out []harness.Found
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() || !spec.ID.Valid(e.Name()) || !hasConversation(p) {
			continue
		}
		out = append(out, describe(home, cwd, e.Name(), p))
	}
	harness.SortNewest(out)
	return out, nil
}

// describe describes one session directory.
func describe(home, cwd, id, dir string) harness.Found {
	f := harness.Found{Tool: "grok", ID: id, Cwd: cwd, Home: home, Title: readTitle(dir), Modified: lastModified(dir)}
	if s, ok := readSummary(dir); ok {
		f.Started = readTime(s.CreatedAt)
	}
	return f
}

// Lookup implements Finder: the single sessions/*/<id> directory, in the
// directory its folder name encodes.
func (grok) Lookup(home, id string) (harness.Found, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(home, "sessions", "*", id))
	var dirs []string
	for _, m := range matches {
		if fi, err := os.Lstat(m); err == nil && fi.IsDir() {
			dirs = append(dirs, m)
		}
	}
	switch {
	case len(dirs) == 0:
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "no grok session %s in %s", id, filepath.Join(home, "sessions"))
	case len(dirs) > 1:
		return harness.Found{}, harness.Refuse(harness.ErrElsewhere, "grok session %s is in %d folders", id, len(dirs))
	case !hasConversation(dirs[0]):
		return harness.Found{}, harness.Refuse(harness.ErrEmptyConversation, "grok session %s holds no prompt (quit before the first one)", id)
	}
	folder := filepath.Base(filepath.Dir(dirs[0]))
	cwd, ok := decodeDirName(folder)
	if !ok {
		return harness.Found{}, harness.Refuse(harness.ErrElsewhere, "grok session folder %q does not name a directory", folder)
	}
	return describe(home, cwd, id, dirs[0]), nil
}

// Adoptable implements Finder: a conversation under dir's folder.
func (g grok) Adoptable(home, dir, id string) error {
	if err := spec.ValidateID(id); err != nil {
		return harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	p := filepath.Join(folderOf(home, dir), id)
	if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
		if !hasConversation(p) {
			return harness.Refuse(harness.ErrEmptyConversation, "grok session %s holds no prompt (quit before the first one)", id)
		}
		return nil
	}
	f, err := g.Lookup(home, id)
	if err != nil {
		return err
	}
	return harness.Refuse(harness.ErrElsewhere, "grok session %s belongs to %s, not %s", id, f.Cwd, dir)
}

// Holders implements Holder: the processes active_sessions.json names as
// having id open.
func (grok) Holders(home, id string) []int {
	data, err := safe.ReadFile(activeFile(home), 1<<20, 0)
	if err != nil {
		return nil
	}
	var pids []int
	for _, a := range readActive(data) {
		if a.SessionID == id && a.PID > 0 {
			pids = append(pids, a.PID)
		}
	}
	return pids
}

// Active implements Activer: summary.json's last_active_at, which Grok
// moves on with each prompt (updated_at when it has none).
func (grok) Active(home, cwd, id string) time.Time {
	dir, ok := sessionDir(home, cwd, id)
	if !ok {
		return time.Time{}
	}
	var s struct {
		LastActive json.RawMessage `json:"last_active_at"`
		Updated    json.RawMessage `json:"updated_at"`
	}
	if !harness.ReadSmallJSON(filepath.Join(dir, "summary.json"), &s) {
		return time.Time{}
	}
	if t := readTime(s.LastActive); !t.IsZero() {
		return t
	}
	return readTime(s.Updated)
}
