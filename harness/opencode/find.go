package opencode

import (
	"errors"
	"os"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// opencode files each session under the directory it ran in (the session
// table's directory); a sub-agent's session has a parent and is not a
// conversation of the user's.

// defaultTitle reports the title opencode gives a session before
// it has generated one: "New session - <ISO time>" ("Child session - …"
// for a sub-agent's).
func defaultTitle(t string) bool {
	for _, p := range []string{"New session - ", "Child session - "} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			_, err := time.Parse("2006-01-02T15:04:05.000Z", rest)
			return err == nil
		}
	}
	return false
}

// titleOf is the session's generated (or renamed) title, else its
// first prompt.
func titleOf(home string, s session) string {
	if t := strings.TrimSpace(s.Title); t != "" && !defaultTitle(t) {
		return harness.CleanTitle(t)
	}
	texts, _ := texts(home, s.ID)
	for _, t := range texts {
		if t.Role == "user" {
			return harness.CleanTitle(t.Text)
		}
	}
	return ""
}

// millis turns opencode's millisecond times into a time; zero for
// none.
func millis(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// found describes a session for discovery and adoption.
func (s session) found(home string) harness.Found {
	mod := millis(s.Last)
	if mod.IsZero() {
		mod = millis(s.Created)
	}
	return harness.Found{Tool: "opencode", ID: s.ID, Cwd: safe.PhysicalOf(s.Directory), Home: home,
		Title: titleOf(home, s), Started: millis(s.Created), Modified: mod}
}

// Title implements Titler.
func (opencode) Title(home, cwd, id string) string {
	s, err := find(home, id)
	if err != nil || cwd != "" && !s.of(cwd) {
		return ""
	}
	return titleOf(home, s)
}

// Active implements Activer: the time of the session's last message.
func (opencode) Active(home, cwd, id string) time.Time {
	s, err := find(home, id)
	if err != nil || cwd != "" && !s.of(cwd) {
		return time.Time{}
	}
	return millis(s.Last)
}

// Discover implements Finder: the sessions of cwd with a message, neither
// a sub-agent's nor archived (opencode's own list hides those).
func (opencode) Discover(home, cwd, _ string) ([]harness.Found, error) {
	list, err := sessions(home)
	if err != nil {
		return nil, err
	}
	var out []harness.Found
	for _, s := range list {
		if s.Parent == "" && s.Archived == 0 && s.conversation() && s.of(cwd) {
			out = append(out, s.found(home))
		}
	}
	harness.SortNewest(out)
	return out, nil
}

// Lookup implements Finder: the session, in the directory it was filed
// under.
func (opencode) Lookup(home, id string) (harness.Found, error) {
	s, err := find(home, id)
	switch {
	case err != nil && absent(err):
		return harness.Found{}, err
	case err != nil:
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "%v", err)
	case s.Parent != "":
		return harness.Found{}, harness.Refuse(harness.ErrNotUsers, "opencode session %s is a sub-agent's, of session %s", id, s.Parent)
	case !s.conversation():
		return harness.Found{}, harness.Refuse(harness.ErrEmptyConversation, "opencode session %s holds no message", id)
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
		return harness.Refuse(harness.ErrElsewhere, "opencode session %s belongs to %s, not %s", id, f.Cwd, dir)
	}
	return nil
}

// Correlate implements Correlator: the single session of cwd, not a
// sub-agent's, created since the spawn and holding a message.
func (opencode) Correlate(home, cwd string, spawn time.Time) string {
	list, err := sessions(home)
	if err != nil {
		return ""
	}
	found := ""
	for _, s := range list {
		if s.Parent != "" || !s.conversation() || !s.of(cwd) || millis(s.Created).Before(spawn.Add(-harness.SpawnSlack)) {
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
func (opencode) Excerpt(home, cwd, id string, n, m int) harness.Excerpt {
	x := harness.NewExcerptBuilder(n, m)
	if s, err := find(home, id); err != nil || cwd != "" && !s.of(cwd) {
		return x.Excerpt()
	}
	texts, _ := texts(home, id)
	for _, t := range texts {
		x.Add(t.Role, t.Text)
	}
	return x.Excerpt()
}

// Diagnose implements Diagnoser: whether fleetcom can read opencode's
// store, and whether it is the one opencode uses.
func (opencode) Diagnose(home string) []harness.Note {
	store := harness.Note{Name: "opencode.store", OK: true, Detail: "fleetcom reads opencode's sessions from " + dbPath(home) + " with sqlite3"}
	var missing error
	if harness.OpenDB == nil {
		_, missing = sqlitePath()
	} else {
		store.Detail = "fleetcom reads opencode's sessions from " + dbPath(home)
	}
	if missing != nil {
		store.OK = false
		store.Detail = "fleetcom reads opencode's sessions with the sqlite3 program, which is not on PATH: without it " +
			"opencode conversations have no titles, are not found when started without fleetcom, and are not " +
			"resumed; install sqlite3"
	} else if _, err := sessions(home); err != nil && !errors.Is(err, harness.ErrNoConversation) {
		store.OK = false
		store.Detail = err.Error()
	}
	notes := []harness.Note{store}
	if db := os.Getenv("OPENCODE_DB"); db != "" {
		notes = append(notes, harness.Note{Name: "opencode.db", OK: false,
			Detail: "OPENCODE_DB is set: opencode keeps its sessions there, and fleetcom reads only " + dbPath(home)})
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
