package gemini

import (
	"os"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// Gemini files a directory's sessions in one folder, tmp/<slug>/chats, so a
// directory's conversations are one listing, and an ID's folder is found
// by the first eight characters its files are named by.

// Discover implements Finder: the conversations of cwd's folder. Sessions
// without a message to resume (quit before the first prompt, the stub a
// resume leaves) and subagents' sessions are not.
func (gemini) Discover(home, cwd, _ string) ([]harness.Found, error) {
	chats := chatsDir(home, cwd)
	if chats == "" {
		return nil, nil
	}
	entries, _ := os.ReadDir(chats)
	byID := map[string][]string{}
	var order []string
	for _, e := range entries {
		if _, ok := fileID(e.Name()); !ok || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(chats, e.Name())
		h, ok := readHead(p)
		if !ok {
			continue
		}
		if byID[h.SessionID] == nil {
			order = append(order, h.SessionID)
		}
		byID[h.SessionID] = append(byID[h.SessionID], p)
	}
	var out []harness.Found
	for _, id := range order {
		if p, c, ok := conversation(byID[id]); ok {
			out = append(out, describe(home, cwd, p, c))
		}
	}
	harness.SortNewest(out)
	return out, nil
}

// describe describes one session file.
func describe(home, cwd, path string, c session) harness.Found {
	return harness.Found{Tool: "gemini", ID: c.ID, Cwd: cwd, Home: home, Title: c.Title, Started: c.Started, Modified: harness.ModTime(path)}
}

// Lookup implements Finder: the single folder holding conversation id, in
// the directory its marker (or projects.json entry) names.
func (gemini) Lookup(home, id string) (harness.Found, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	var paths []string
	var chats []session
	empty := false
	for _, dir := range allChats(home, id) {
		files := sessionFiles(dir, id)
		if p, c, ok := conversation(files); ok {
			paths, chats = append(paths, p), append(chats, c)
		} else if len(files) > 0 {
			empty = true
		}
	}
	switch {
	case len(paths) == 0 && empty:
		return harness.Found{}, harness.Refuse(harness.ErrEmptyConversation, "gemini session %s holds no prompt (quit before the first one, or only the stub a resume leaves)", id)
	case len(paths) == 0:
		return harness.Found{}, harness.Refuse(harness.ErrNoConversation, "no gemini session %s in %s", id, filepath.Join(home, "tmp"))
	case len(paths) > 1:
		return harness.Found{}, harness.Refuse(harness.ErrElsewhere, "gemini session %s is in %d folders", id, len(paths))
	}
	slug := filepath.Base(filepath.Dir(filepath.Dir(paths[0])))
	cwd := dirOf(home, slug)
	if cwd == "" {
		return harness.Found{}, harness.Refuse(harness.ErrElsewhere, "gemini folder %q names no directory", slug)
	}
	return describe(home, cwd, paths[0], chats[0]), nil
}

// Adoptable implements Finder: a conversation in dir's folder.
func (g gemini) Adoptable(home, dir, id string) error {
	if err := spec.ValidateID(id); err != nil {
		return harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	files := sessionFiles(chatsDir(home, dir), id)
	if _, _, ok := conversation(files); ok {
		return nil
	}
	f, err := g.Lookup(home, id)
	if err != nil {
		return err
	}
	return harness.Refuse(harness.ErrElsewhere, "gemini session %s belongs to %s, not %s", id, f.Cwd, dir)
}

// AdoptableIndexed implements harness.IndexAdopter. Adoptable replays
// each of the session's files in dir's folder with the index's reader
// (readConversation); a file the index read whole and that is unchanged
// since says the same in the reader's state, without a byte read: a
// session that began there, with a message left after every rewind, not a
// subagent's. One such file settles it, as it does for conversation.
func (gemini) AdoptableIndexed(home, dir, id string, files []harness.IndexedFile) bool {
	if !spec.ID.Valid(id) {
		return false
	}
	chats := chatsDir(home, dir)
	if chats == "" {
		return false
	}
	for _, f := range files {
		if short, ok := fileID(filepath.Base(f.Path)); !ok || short != id[:8] || filepath.Dir(f.Path) != chats || f.Cursor.Offset != f.Size {
			continue
		}
		if s, ok := fromState(f.Cursor.State, ""); ok && !s.Side && s.ID == id {
			return true
		}
	}
	return false
}

// Title implements Titler: the summary Gemini writes (at the start of a
// later session in the same directory), else the first prompt.
func (g gemini) Title(home, cwd, id string) string {
	_, c, _ := sessionOf(home, cwd, id)
	return c.Title
}

// Excerpt implements Excerpter: the prompts typed and Gemini's answers,
// never its context blocks.
func (gemini) Excerpt(home, cwd, id string, n, m int) harness.Excerpt {
	x := harness.NewExcerptBuilder(n, m)
	p, ok := sessionPath(home, cwd, id)
	if !ok {
		return x.Excerpt()
	}
	c, _ := readSession(p, true)
	for _, msg := range c.messages {
		switch {
		case msg.Type == "user" && msg.Resumable:
			x.Add("user", msg.Text)
		case msg.Type == "gemini":
			x.Add("assistant", msg.Text)
		}
	}
	return x.Excerpt()
}

// Correlate implements Correlator: the single session of cwd's folder that
// began since the spawn and holds a conversation.
func (gemini) Correlate(home, cwd string, spawn time.Time) string {
	found := ""
	for _, path := range writtenSince(home, cwd, spawn) {
		h, ok := readHead(path)
		if !ok || !begunSince(h, spawn) {
			continue
		}
		if c, ok := readConversation(path); !ok || c.ID != h.SessionID {
			continue
		}
		if found != "" && found != h.SessionID {
			return ""
		}
		found = h.SessionID
	}
	return found
}

// writtenSince lists the session files of cwd's folder last written at or
// after since (less the slack of file times).
func writtenSince(home, cwd string, since time.Time) []string {
	chats := chatsDir(home, cwd)
	if chats == "" {
		return nil
	}
	entries, _ := os.ReadDir(chats)
	var out []string
	for _, e := range entries {
		if _, ok := fileID(e.Name()); !ok {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(since.Add(-harness.SpawnSlack)) {
			continue
		}
		out = append(out, filepath.Join(chats, e.Name()))
	}
	return out
}

// begunSince reports a main session (not a sub-agent's) that began at or
// after spawn: one a run started then could have created.
func begunSince(h sessionHead, spawn time.Time) bool {
	t, err := time.Parse(time.RFC3339Nano, h.StartTime)
	return err == nil && !t.Before(spawn.Add(-harness.SpawnSlack)) && h.Kind != "subagent"
}
