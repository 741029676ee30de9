package harness

import (
	"errors"
	"os"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// opencode files each session under the directory it ran in (the session
// table's directory); a sub-agent's session has a parent and is not a
// conversation of the user's.

// opencodeDefaultTitle reports the title opencode gives a session before
// it has generated one: "New session - <ISO time>" ("Child session - …"
// for a sub-agent's).
func opencodeDefaultTitle(t string) bool {
	for _, p := range []string{"New session - ", "Child session - "} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			_, err := time.Parse("2006-01-02T15:04:05.000Z", rest)
			return err == nil
		}
	}
	return false
}

// opencodeTitle is the session's generated (or renamed) title, else its
// first prompt.
func opencodeTitle(home string, s opencodeSession) string {
	if t := strings.TrimSpace(s.Title); t != "" && !opencodeDefaultTitle(t) {
		return CleanTitle(t)
	}
	texts, _ := opencodeTexts(home, s.ID)
	for _, t := range texts {
		if t.Role == "user" {
			return CleanTitle(t.Text)
		}
	}
	return ""
}

// opencodeMillis turns opencode's millisecond times into a time; zero for
// none.
func opencodeMillis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// found describes a session for discovery and adoption.
func (s opencodeSession) found(home string) Found {
	mod := opencodeMillis(s.Last)
	if mod.IsZero() {
		mod = opencodeMillis(s.Created)
	}
	return Found{Tool: "opencode", ID: s.ID, Cwd: safe.PhysicalOf(s.Directory), Home: home,
		Title: opencodeTitle(home, s), Started: opencodeMillis(s.Created), Modified: mod}
}

// Title implements Titler.
func (opencode) Title(home, cwd, id string) string {
	s, err := opencodeFind(home, id)
	if err != nil || cwd != "" && !s.of(cwd) {
		return ""
	}
	return opencodeTitle(home, s)
}

// Active implements Activer: the time of the session's last message.
func (opencode) Active(home, cwd, id string) time.Time {
	s, err := opencodeFind(home, id)
	if err != nil || cwd != "" && !s.of(cwd) {
		return time.Time{}
	}
	return opencodeMillis(s.Last)
}

// Discover implements Finder: the sessions of cwd with a message, neither
// a sub-agent's nor archived (opencode's own list hides those).
func (opencode) Discover(home, cwd, _ string) ([]Found, error) {
	list, err := opencodeSessions(home)
	if err != nil {
		return nil, err
	}
	var out []Found
	for _, s := range list {
		if s.Parent == "" && s.Archived == 0 && s.conversation() && s.of(cwd) {
			out = append(out, s.found(home))
		}
	}
	SortNewest(out)
	return out, nil
}

// Lookup implements Finder: the session, in the directory it was filed
// under.
func (opencode) Lookup(home, id string) (Found, error) {
	s, err := opencodeFind(home, id)
	switch {
	case err != nil && opencodeAbsent(err):
		return Found{}, err
	case err != nil:
		return Found{}, Refuse(ErrNoConversation, "%v", err)
	case s.Parent != "":
		return Found{}, Refuse(ErrNotUsers, "opencode session %s is a sub-agent's, of session %s", id, s.Parent)
	case !s.conversation():
		return Found{}, Refuse(ErrEmptyConversation, "opencode session %s holds no message", id)
	}
	return s.found(home), nil
}

// Adoptable implements Finder: a session of dir with a message.
func (o opencode) Adoptable(home, dir, id string) error {
	f, err := o.Lookup(home, id)
	if err != nil {
		return err
	}
	if !safe.SameDir(f.Cwd, dir) {
		return Refuse(ErrElsewhere, "opencode session %s belongs to %s, not %s", id, f.Cwd, dir)
	}
	return nil
}

// Correlate implements Correlator: the single session of cwd, not a
// sub-agent's, created since the spawn and holding a message.
func (opencode) Correlate(home, cwd string, spawn time.Time) string {
	list, err := opencodeSessions(home)
	if err != nil {
		return ""
	}
	found := ""
	for _, s := range list {
		if s.Parent != "" || !s.conversation() || !s.of(cwd) || opencodeMillis(s.Created).Before(spawn.Add(-SpawnSlack)) {
			continue
		}
		if found != "" {
			return ""
		}
		found = s.ID
	}
	return found
}

// Excerpt implements Excerpter: the prompts and the answers' text.
func (opencode) Excerpt(home, cwd, id string, n, m int) Excerpt {
	x := NewExcerptBuilder(n, m)
	if s, err := opencodeFind(home, id); err != nil || cwd != "" && !s.of(cwd) {
		return x.Excerpt()
	}
	texts, _ := opencodeTexts(home, id)
	for _, t := range texts {
		x.Add(t.Role, t.Text)
	}
	return x.Excerpt()
}

// Diagnose implements Diagnoser: whether fleetcom can read opencode's
// store, and whether it is the one opencode uses.
func (opencode) Diagnose(home string) []Note {
	store := Note{Name: "opencode.store", OK: true, Detail: "fleetcom reads opencode's sessions from " + opencodeDB(home) + " with sqlite3"}
	if _, err := opencodeSQLite(); err != nil {
		store.OK = false
		store.Detail = "fleetcom reads opencode's sessions with the sqlite3 program, which is not on PATH: without it " +
			"opencode conversations have no titles, are not found when started without fleetcom, and are not " +
			"resumed; install sqlite3"
	} else if _, err := opencodeSessions(home); err != nil && !errors.Is(err, ErrNoConversation) {
		store.OK = false
		store.Detail = err.Error()
	}
	notes := []Note{store}
	if db := os.Getenv("OPENCODE_DB"); db != "" {
		notes = append(notes, Note{Name: "opencode.db", OK: false,
			Detail: "OPENCODE_DB is set: opencode keeps its sessions there, and fleetcom reads only " + opencodeDB(home)})
	}
	return notes
}

// Unmovable implements Unmovable: opencode's sessions are rows of its
// database, which fleetcom never writes. opencode moves them itself: its
// export writes a session as JSON, and its import files it under the
// directory it runs in, with the same ID (measured on 1.18.33: on the
// same machine, that moves it; on another, it is a copy).
func (opencode) Unmovable(op, id string) (string, string) {
	why := "opencode keeps its conversations in one SQLite database, which fleetcom does not write"
	export := "opencode export " + safe.QuoteAlways(id) + " > " + id + ".json"
	switch op {
	case "import":
		return why, "import what 'opencode export ID > FILE' wrote with 'opencode import FILE' in the directory it belongs to"
	case "export":
		return why, "run '" + export + "', then 'opencode import " + id + ".json' in the directory it belongs to"
	}
	return why, "run '" + export + "', then 'opencode import " + id + ".json' in the new directory: opencode files it there"
}
