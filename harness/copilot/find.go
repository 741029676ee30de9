package copilot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Copilot files sessions by ID, not by directory: a directory's sessions
// are the folders whose workspace.yaml names it, so discovery reads each
// folder's small workspace.yaml (and, for the ones of the directory, the
// top of its log).

// describe describes one session.
func describe(home string, s session, cwd string) harness.Found {
	return harness.Found{Tool: "copilot", ID: s.id, Cwd: cwd, Home: home, Title: harness.CleanTitle(s.head.prompt),
		Started: s.head.started, Modified: lastModified(s.dir)}
}

// Discover implements Finder: the sessions of cwd that hold a prompt.
func (copilot) Discover(home, cwd, _ string) ([]harness.Found, error) {
	root := sessionsDir(home)
	entries, _ := os.ReadDir(root)
	var out []harness.Found
	// Many sessions share a few directories: each is resolved once.
	same := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() || !spec.ID.Valid(e.Name()) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		// workspace.yaml first: it is small, and names the directory.
		if ws := readWorkspace(dir); ws.ok {
			ok, seen := same[ws.cwd]
			if !seen {
				ok = ws.cwd != "" && safe.SameDir(ws.cwd, cwd)
				same[ws.cwd] = ok
			}
			if !ok {
				continue
			}
		}
		s, ok := readSession(dir, e.Name())
		if !ok || !s.head.ok || !s.belongs(cwd) {
			continue
		}
		out = append(out, describe(home, s, cwd))
	}
	harness.SortNewest(out)
	return out, nil
}

// Lookup implements Finder: the folder of id, in the directory its
// workspace.yaml names.
func (copilot) Lookup(home, id string) (harness.Found, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	dir, ok := sessionDir(home, id)
	if !ok {
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "no copilot session %s in %s", id, sessionsDir(home))
	}
	s, ok := readSession(dir, id)
	switch {
	case !ok:
		return harness.Found{}, harness.Refuse(harness.ErrElsewhere, "copilot session folder %s holds another session", dir)
	case !s.head.ok:
		return harness.Found{}, harness.Refuse(harness.ErrEmptyConversation, "copilot session %s holds no prompt (quit before the first one)", id)
	case !filepath.IsAbs(s.cwd):
		return harness.Found{}, harness.Refuse(harness.ErrElsewhere, "copilot session %s names no directory", id)
	}
	return describe(home, s, safe.PhysicalOf(s.cwd)), nil
}

// Adoptable implements Finder: a session holding a prompt, of dir.
func (c copilot) Adoptable(home, dir, id string) error {
	f, err := c.Lookup(home, id)
	if err != nil {
		return err
	}
	if !safe.SameDir(f.Cwd, dir) {
		return harness.Refuse(harness.ErrElsewhere, "copilot session %s belongs to %s, not %s", id, f.Cwd, dir)
	}
	return nil
}

// Holders implements Holder: the processes whose inuse.<pid>.lock is in the
// session's folder, holding that pid. Copilot writes it from the start of a
// new session and from the first prompt of a resumed one; a shim's run of
// a resume names the ID on its command line before that.
func (copilot) Holders(home, id string) []int {
	dir, ok := sessionDir(home, id)
	if !ok {
		return nil
	}
	entries, _ := os.ReadDir(dir)
	var pids []int
	for _, e := range entries {
		name, ok := strings.CutPrefix(e.Name(), "inuse.")
		if !ok {
			continue
		}
		name, ok = strings.CutSuffix(name, ".lock")
		pid, err := strconv.Atoi(name)
		if !ok || err != nil || pid <= 0 || strconv.Itoa(pid) != name || !e.Type().IsRegular() {
			continue
		}
		b, err := safe.ReadFile(filepath.Join(dir, e.Name()), 64, 0)
		if err == nil && strings.TrimSpace(string(b)) == name {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Active implements Activer: the time of the log's last message.
func (copilot) Active(home, cwd, id string) time.Time {
	s, ok := sessionOf(home, cwd, id)
	if !ok {
		return time.Time{}
	}
	var at time.Time
	harness.FindLastLine(filepath.Join(s.dir, "events.jsonl"), func(line []byte) bool {
		if !isMessage(line) {
			return false
		}
		var e event
		if json.Unmarshal(line, &e) != nil || e.Type != "user.message" && e.Type != "assistant.message" {
			return false
		}
		t, err := time.Parse(time.RFC3339Nano, e.Timestamp)
		at = t
		return err == nil
	})
	return at
}

// Copilot names a session with `--name NAME` (`-n`) at launch or `/rename
// NAME` inside it (measured on 1.0.102): workspace.yaml's name becomes it,
// with user_named: true; otherwise name is the first prompt, which is the
// title already, not a name.

// ConversationName implements Namer.
func (copilot) ConversationName(home, cwd, id string) string {
	s, ok := sessionOf(home, cwd, id)
	if !ok || !s.ws.userNamed {
		return ""
	}
	return harness.CleanName(s.ws.name)
}

// Branch implements Brancher: workspace.yaml's branch, the checkout's when
// the session started in a repository (measured on 1.0.102).
func (copilot) Branch(home, cwd, id string) string {
	s, ok := sessionOf(home, cwd, id)
	if !ok {
		return ""
	}
	return s.ws.branch
}
