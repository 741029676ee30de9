package copilot

import (
	"encoding/json"
	"github.com/fleetcom/fleetcom/harness"
	"path/filepath"
	"time"
)

// The index reads a Copilot session's log, events.jsonl, line by line from
// where it stopped: session.start first (the session's ID, directory and
// start), then the user.message and assistant.message events that are the
// conversation, among hook runs, tool runs, the system message (25 KB)
// and the rest, which are skipped before any decoding. The log appears at
// the first prompt: a session quit before one has no log, and is not in
// the index at all.
//
// workspace.yaml, beside the log, holds what Copilot rewrites in place: the
// directory a resume runs in (which fleetcom's move rewrites too) and the
// name the user gave (/rename, --name). It is read whole, a few hundred
// bytes, with every read of the log. A tree of its own would list the same
// folders as the logs', so a rename shows once the log next changes: at
// the next prompt, or when Copilot exits.

// A method that drifts from harness.Indexer fails the build here.
var _ harness.Indexer = copilot{}

// Trees implements harness.Indexer: one log per session folder.
func (copilot) Trees(home string) []harness.Tree {
	return []harness.Tree{{Root: sessionsDir(home), Levels: []string{"*", "events.jsonl"}, Owns: true}}
}

// Near implements harness.Indexer: Copilot files sessions by ID, in no folder of
// their directory.
func (copilot) Near(string, string) []string { return nil }

// The reader's state.
const (
	// copilotHeadRead: the log's first line was read.
	copilotHeadRead = 1 << iota
	// copilotOther: the first line is the session.start of another
	// session; nothing in the log counts.
	copilotOther
	// copilotTitled: the first prompt was seen (and is the title).
	copilotTitled
)

// Read implements harness.Indexer.
func (copilot) Read(path string, c harness.Cursor, l harness.Limits) (harness.Delta, harness.Cursor, error) {
	dir := filepath.Dir(path)
	id := filepath.Base(dir)
	if filepath.Base(path) != "events.jsonl" || !spec.ID.Valid(id) {
		return nil, c, nil
	}
	var flags byte
	if len(c.State) == 1 {
		flags = c.State[0]
	}
	if c.Offset > 0 && flags&copilotHeadRead == 0 {
		// Read before, but its state is lost: the first line again.
		flags |= copilotHeadRead
		if line, ok := harness.FirstLine(path); ok && copilotOtherHead(line, id) {
			flags |= copilotOther
		}
	}
	if flags&copilotOther != 0 {
		return nil, harness.Cursor{Offset: c.Offset, State: []byte{flags}}, nil
	}
	ws := readWorkspace(dir)
	if ws.id != "" && ws.id != id {
		// workspace.yaml names another session: none, until it changes.
		return nil, c, nil
	}
	out := harness.Learned{ID: id}
	headCwd := ""
	off, err := harness.ReadOn(path, c.Offset, l.Line, func(line []byte) {
		if flags&copilotOther != 0 {
			return
		}
		if flags&copilotHeadRead == 0 {
			// The first line is the head, whatever it is, as copilot's
			// readers take it.
			flags |= copilotHeadRead
			if copilotOtherHead(line, id) {
				flags |= copilotOther
				return
			}
			var e event
			if json.Unmarshal(line, &e) == nil && e.Type == "session.start" {
				headCwd = e.Data.Context.Cwd
				out.Started, _ = time.Parse(time.RFC3339Nano, e.Data.StartTime)
			}
			return
		}
		if !isMessage(line) {
			return
		}
		var e event
		if json.Unmarshal(line, &e) != nil {
			return
		}
		switch e.Type {
		case "user.message":
			out.Turns++
			if flags&copilotTitled == 0 {
				out.Title = harness.CleanTitle(e.Data.Content)
				flags |= copilotTitled
			}
		case "assistant.message":
		default:
			return
		}
		out.Messages++
		if t, err := time.Parse(time.RFC3339Nano, e.Timestamp); err == nil {
			out.Active = t
		}
		if l.Text && e.Data.Content != "" {
			out.Texts = append(out.Texts, harness.ClipText(e.Data.Content, l.Message))
		}
	})
	next := harness.Cursor{Offset: off, State: []byte{flags}}
	if flags&copilotOther != 0 || flags&copilotHeadRead == 0 {
		// Another session's log, or an empty one: nothing to learn yet.
		return nil, next, err
	}
	// The directory is workspace.yaml's, where a resume runs, else the
	// one the session started in; the name is the user's only.
	out.Cwd = ws.cwd
	if out.Cwd == "" {
		out.Cwd = headCwd
	}
	if !filepath.IsAbs(out.Cwd) {
		out.Cwd = ""
	}
	out.Named = true
	if ws.userNamed {
		out.Name = harness.CleanName(ws.name)
	}
	return harness.Delta{out}, next, err
}

// copilotOtherHead reports a log's first line that is the session.start of
// another session than id.
func copilotOtherHead(line []byte, id string) bool {
	var e event
	return json.Unmarshal(line, &e) == nil && e.Type == "session.start" && e.Data.SessionID != "" && e.Data.SessionID != id
}
