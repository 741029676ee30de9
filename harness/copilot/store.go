package copilot

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Copilot keeps each session in a folder of its own,
// <home>/session-state/<id>/ (measured on 1.0.102), whatever its directory:
//
//   - events.jsonl, the log a resume replays: first a session.start event
//     ({"type":"session.start","data":{"sessionId","startTime","context":
//     {"cwd"}}}), then user.message and assistant.message events with the
//     text in data.content, hook runs, session.resume at each resume and
//     session.shutdown at each exit. It appears at the first prompt: a
//     session quit before one has none, and cannot be resumed.
//   - workspace.yaml: id, cwd (the directory a resume runs in: Copilot
//     changes to it), name (the first prompt, or the user's /rename or
//     --name, then user_named: true), created_at, updated_at; in a
//     repository also git_root and branch, the checkout's.
//   - inuse.<pid>.lock (the pid inside) and inuse.<pid>.hold while a
//     process has the session open: from the start of a new session, from
//     the first prompt of a resumed one.
//   - checkpoints/, files/, research/, rewind-file-snapshots/: what the
//     agent keeps for the session; nothing fleetcom reads.
//
// A SQLite index, session-store.db, sits beside the folders; resume does not
// need it (a folder copied into another home resumes), and fleetcom does
// not read or write it.

// sessionsDir is the folder of a home's sessions.
func sessionsDir(home string) string { return filepath.Join(home, "session-state") }

// sessionDir is the folder of session id, when it is one.
func sessionDir(home, id string) (string, bool) {
	if !spec.ID.Valid(id) {
		return "", false
	}
	dir := filepath.Join(sessionsDir(home), id)
	fi, err := os.Lstat(dir)
	return dir, err == nil && fi.IsDir()
}

// event is the part of an events.jsonl line fleetcom reads.
type event struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      struct {
		SessionID string `json:"sessionId"`
		StartTime string `json:"startTime"`
		Content   string `json:"content"`
		Context   struct {
			Cwd string `json:"cwd"`
		} `json:"context"`
	} `json:"data"`
}

// isMessage reports a line that is a message of the conversation.
func isMessage(line []byte) bool {
	return bytes.Contains(line, []byte(`"type":"user.message"`)) || bytes.Contains(line, []byte(`"type":"assistant.message"`))
}

// sessionHead is what one pass over the top of events.jsonl learns.
type sessionHead struct {
	id, cwd string    // session.start's
	started time.Time // session.start's
	prompt  string    // the first user.message's text
	ok      bool      // a user.message is there: a conversation to resume
}

func readHead(dir string) sessionHead {
	var h sessionHead
	first := true
	harness.EachLine(filepath.Join(dir, "events.jsonl"), func(line []byte) bool {
		if first {
			first = false
			var e event
			if json.Unmarshal(line, &e) == nil && e.Type == "session.start" {
				h.id, h.cwd = e.Data.SessionID, e.Data.Context.Cwd
				h.started, _ = time.Parse(time.RFC3339Nano, e.Data.StartTime)
			}
			return true
		}
		if !bytes.Contains(line, []byte(`"type":"user.message"`)) {
			return true
		}
		var e event
		if json.Unmarshal(line, &e) == nil && e.Type == "user.message" {
			h.prompt, h.ok = e.Data.Content, true
			return false
		}
		return true
	})
	return h
}

// workspace is what workspace.yaml says.
type workspace struct {
	id, cwd, name, branch string
	userNamed             bool
	ok                    bool // read
}

func readWorkspace(dir string) workspace {
	data, err := safe.ReadFile(filepath.Join(dir, "workspace.yaml"), 64<<10, 0)
	if err != nil {
		return workspace{}
	}
	w := workspace{ok: true}
	w.id, _, _, _ = yamlValue(data, "id")
	w.cwd, _, _, _ = yamlValue(data, "cwd")
	w.name, _, _, _ = yamlValue(data, "name")
	w.branch, _, _, _ = yamlValue(data, "branch")
	named, _, _, _ := yamlValue(data, "user_named")
	w.userNamed = named == "true"
	return w
}

// session is one session folder as fleetcom sees it.
type session struct {
	dir  string
	id   string
	cwd  string // the directory it belongs to
	head sessionHead
	ws   workspace
}

// readSession reads the session folder of id. Its directory is the
// one workspace.yaml names, where Copilot resumes it, else the one it
// started in; a folder whose files name another session is none.
func readSession(dir, id string) (session, bool) {
	s := session{dir: dir, id: id, head: readHead(dir), ws: readWorkspace(dir)}
	if s.head.id != "" && s.head.id != id || s.ws.id != "" && s.ws.id != id {
		return s, false
	}
	s.cwd = s.ws.cwd
	if s.cwd == "" {
		s.cwd = s.head.cwd
	}
	return s, true
}

// belongs reports whether the session belongs to the physical directory
// dir.
func (s session) belongs(dir string) bool {
	return s.cwd != "" && filepath.IsAbs(s.cwd) && safe.SameDir(s.cwd, dir)
}

// lastModified is when the conversation last changed: its log.
func lastModified(dir string) time.Time {
	return harness.ModTime(filepath.Join(dir, "events.jsonl"))
}

// find reads session id of home, when it has a folder.
func find(home, id string) (session, bool) {
	dir, ok := sessionDir(home, id)
	if !ok {
		return session{}, false
	}
	return readSession(dir, id)
}

// sessionOf reads session id when it holds a conversation that belongs to
// cwd (any directory when cwd is "").
func sessionOf(home, cwd, id string) (session, bool) {
	s, ok := find(home, id)
	if !ok || !s.head.ok || cwd != "" && !s.belongs(cwd) {
		return session{}, false
	}
	return s, true
}
