package harness

import (
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Grok keeps each session in a directory of its own under a folder named by
// the percent-encoded cwd, so a directory's sessions are one listing and an
// ID's directory is the decoded folder name.

// Discover implements Finder: the session directories under cwd's folder.
func (grok) Discover(home, cwd, _ string) ([]Found, error) {
	dir := filepath.Join(home, "sessions", GrokDirName(cwd))
	entries, _ := os.ReadDir(dir)
	var out []Found
	for _, e := range entries {
		if !e.IsDir() || !safe.UUID(e.Name()) {
			continue
		}
		out = append(out, grokFound(home, cwd, e.Name(), filepath.Join(dir, e.Name())))
	}
	newestFound(out)
	return out, nil
}

// grokFound describes one session directory. Its files are appended to in
// place, so the newest of their times is the session's. Grok records no
// creation time fleetcom relies on, so Started stays zero.
func grokFound(home, cwd, id, dir string) Found {
	mod := modTime(dir)
	for _, name := range []string{"chat_history.jsonl", "summary.json"} {
		if t := modTime(filepath.Join(dir, name)); t.After(mod) {
			mod = t
		}
	}
	return Found{Tool: "grok", ID: id, Cwd: cwd, Home: home, Title: grokTitle(dir), Modified: mod}
}

// Lookup implements Finder: the single sessions/*/<id> directory, in the
// directory its folder name encodes.
func (grok) Lookup(home, id string) (Found, error) {
	if err := grokSpec.CheckID(id); err != nil {
		return Found{}, refuse(ErrNoConversation, "%v", err)
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
		return Found{}, refuse(ErrNoConversation, "no grok session %s in %s", id, filepath.Join(home, "sessions"))
	case len(dirs) > 1:
		return Found{}, refuse(ErrElsewhere, "grok session %s is in %d folders", id, len(dirs))
	}
	folder := filepath.Base(filepath.Dir(dirs[0]))
	cwd, ok := grokDecode(folder)
	if !ok {
		return Found{}, refuse(ErrElsewhere, "grok session folder %q does not name a directory", folder)
	}
	return grokFound(home, cwd, id, dirs[0]), nil
}

// Check implements Finder: the session directory under dir's folder.
func (g grok) Check(home, dir, id string) error {
	if err := grokSpec.CheckID(id); err != nil {
		return refuse(ErrNoConversation, "%v", err)
	}
	if fi, err := os.Lstat(filepath.Join(home, "sessions", GrokDirName(dir), id)); err == nil && fi.IsDir() {
		return nil
	}
	f, err := g.Lookup(home, id)
	if err != nil {
		return err
	}
	return refuse(ErrElsewhere, "grok session %s belongs to %s, not %s", id, f.Cwd, dir)
}

// Holders implements Finder: Grok keeps no record of running sessions.
func (grok) Holders(string, string) []int { return nil }

// grokDecode inverts GrokDirName; a folder name GrokDirName would not have
// produced, or one that is not an absolute clean path, is refused.
func grokDecode(name string) (string, bool) {
	var b []byte
	for i := 0; i < len(name); i++ {
		if name[i] != '%' {
			b = append(b, name[i])
			continue
		}
		if i+2 >= len(name) {
			return "", false
		}
		switch name[i+1 : i+3] {
		case "2F":
			b = append(b, '/')
		case "25":
			b = append(b, '%')
		default:
			return "", false
		}
		i += 2
	}
	cwd := string(b)
	if !filepath.IsAbs(cwd) || filepath.Clean(cwd) != cwd || GrokDirName(cwd) != name {
		return "", false
	}
	return cwd, true
}
