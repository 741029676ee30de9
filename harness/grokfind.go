package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Grok keeps each session in a directory of its own under a folder named by
// the percent-encoded cwd, so a directory's sessions are one listing and an
// ID's directory is the decoded folder name.

// Discover implements Finder: the conversations under cwd's folder; the
// empty sessions of runs quit before their first prompt are not.
func (grok) Discover(home, cwd, _ string) ([]Found, error) {
	dir := grokFolder(home, cwd)
	entries, _ := os.ReadDir(dir)
	var out []Found
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if !e.IsDir() || !grokSpec.ID.Valid(e.Name()) || !grokConversation(p) {
			continue
		}
		out = append(out, grokFound(home, cwd, e.Name(), p))
	}
	SortNewest(out)
	return out, nil
}

// grokFound describes one session directory.
func grokFound(home, cwd, id, dir string) Found {
	f := Found{Tool: "grok", ID: id, Cwd: cwd, Home: home, Title: grokTitle(dir), Modified: grokModified(dir)}
	if s, ok := readGrokSummary(dir); ok {
		f.Started = grokTime(s.CreatedAt)
	}
	return f
}

// Lookup implements Finder: the single sessions/*/<id> directory, in the
// directory its folder name encodes.
func (grok) Lookup(home, id string) (Found, error) {
	if err := grokSpec.ValidateID(id); err != nil {
		return Found{}, Refuse(ErrNoConversation, "%v", err)
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
		return Found{}, Refuse(ErrNoConversation, "no grok session %s in %s", id, filepath.Join(home, "sessions"))
	case len(dirs) > 1:
		return Found{}, Refuse(ErrElsewhere, "grok session %s is in %d folders", id, len(dirs))
	case !grokConversation(dirs[0]):
		return Found{}, Refuse(ErrEmptyConversation, "grok session %s holds no prompt (quit before the first one)", id)
	}
	folder := filepath.Base(filepath.Dir(dirs[0]))
	cwd, ok := grokDecode(folder)
	if !ok {
		return Found{}, Refuse(ErrElsewhere, "grok session folder %q does not name a directory", folder)
	}
	return grokFound(home, cwd, id, dirs[0]), nil
}

// Adoptable implements Finder: a conversation under dir's folder.
func (g grok) Adoptable(home, dir, id string) error {
	if err := grokSpec.ValidateID(id); err != nil {
		return Refuse(ErrNoConversation, "%v", err)
	}
	p := filepath.Join(grokFolder(home, dir), id)
	if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
		if !grokConversation(p) {
			return Refuse(ErrEmptyConversation, "grok session %s holds no prompt (quit before the first one)", id)
		}
		return nil
	}
	f, err := g.Lookup(home, id)
	if err != nil {
		return err
	}
	return Refuse(ErrElsewhere, "grok session %s belongs to %s, not %s", id, f.Cwd, dir)
}

// Holders implements Holder: the processes active_sessions.json names as
// having id open.
func (grok) Holders(home, id string) []int {
	data, err := safe.ReadFile(grokActiveFile(home), 1<<20, 0)
	if err != nil {
		return nil
	}
	var pids []int
	for _, a := range readGrokActive(data) {
		if a.SessionID == id && a.PID > 0 {
			pids = append(pids, a.PID)
		}
	}
	return pids
}

// Active implements Activer: summary.json's last_active_at, which Grok
// moves on with each prompt (updated_at when it has none).
func (grok) Active(home, cwd, id string) time.Time {
	dir, ok := grokSession(home, cwd, id)
	if !ok {
		return time.Time{}
	}
	var s struct {
		LastActive json.RawMessage `json:"last_active_at"`
		Updated    json.RawMessage `json:"updated_at"`
	}
	if !ReadSmallJSON(filepath.Join(dir, "summary.json"), &s) {
		return time.Time{}
	}
	if t := grokTime(s.LastActive); !t.IsZero() {
		return t
	}
	return grokTime(s.Updated)
}
