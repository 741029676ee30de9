package harness

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Codex files a rollout by the day it began, not by directory: the
// directory is the "cwd" of its session_meta, of the turn_context lines and
// of the thread_settings_applied events that follow (every "cwd" key is
// rewritten), and the file's name and day come from session_meta's
// timestamp, in local time. Codex 0.171.0 also keeps each thread's
// directory in its state database: see codexStateKnows.

const codexRolloutFile = "rollout.jsonl"

// Pack implements Mover.
func (codex) Pack(home, _ string, id string) ([]File, error) {
	p, _, ok := codexRollout(home, id)
	if !ok {
		return nil, Refuse(ErrNoConversation, "no codex rollout of %s in %s", id, filepath.Join(home, "sessions"))
	}
	data, err := safe.ReadFile(p, MaxConversationFile, safe.NoFollow)
	if err != nil {
		return nil, err
	}
	return []File{{Name: codexRolloutFile, Mode: 0o600, Data: data}}, nil
}

// Place implements Mover: the rollout under the day of its session_meta's
// timestamp (today when it has none), each cwd rewritten.
func (codex) Place(home, dir, id, from string, files []File) (Placement, error) {
	if err := codexSpec.ValidateID(id); err != nil {
		return Placement{}, err
	}
	if len(files) != 1 || files[0].Name != codexRolloutFile {
		return Placement{}, fmt.Errorf("a codex conversation is one %s", codexRolloutFile)
	}
	data := files[0].Data
	first, _, _ := bytes.Cut(data, []byte("\n"))
	meta, ok := parseCodexMeta(first, id)
	if !ok || meta.Payload.ID != id {
		return Placement{}, fmt.Errorf("the rollout does not begin with the session_meta of %s", id)
	}
	if meta.subagent() {
		return Placement{}, Refuse(ErrNotUsers, "codex thread %s was started by a subagent", id)
	}
	at := time.Now()
	if t, err := time.Parse(time.RFC3339Nano, meta.Payload.Timestamp); err == nil {
		at = t
	}
	at = at.Local()
	if from != dir {
		data = RewriteLines(data, func(l []byte) []byte { return RewriteField(l, "cwd", from, dir) })
	}
	name := "rollout-" + at.Format("2006-01-02T15-04-05") + "-" + id + ".jsonl"
	place := Placement{
		Path:  filepath.Join(dayDir(home, at), name),
		Files: []File{{Name: codexRolloutFile, Mode: 0o600, Data: data}},
	}
	if from != dir && codexStateKnows(home, id) {
		place.Note = codexStateNote
	}
	return place, nil
}

// Carry implements Mover: the rollout stays where it is (Codex files it by
// the day it began and finds it by its ID), its directory fields rewritten.
func (codex) Carry(home, from, dir, id string) (Carry, error) {
	p, meta, err := codexUsers(home, id)
	if err != nil {
		return Carry{}, err
	}
	if !safe.SameDir(meta.Payload.Cwd, from) {
		return Carry{}, Refuse(ErrElsewhere, "codex rollout %s was started in %q, not in %s", p, meta.Payload.Cwd, from)
	}
	rewrite := func(data []byte) []byte {
		return RewriteLines(data, func(l []byte) []byte { return RewriteField(l, "cwd", meta.Payload.Cwd, dir) })
	}
	c := Carry{Parts: []Part{{From: p, To: p, Edit: func(string) func([]byte) []byte { return rewrite }}}}
	if codexStateKnows(home, id) {
		c.Note = codexStateNote
	}
	return c, nil
}

// codexStateNote says what a moved conversation's first resume asks.
const codexStateNote = "codex also keeps this conversation's old directory in its state database, which fleetcom does not edit: " +
	"the first 'codex resume' in the new directory asks which directory to use; choose 'Use current directory' and it asks no more"

// codexStateKnows reports whether Codex's state database (state_<n>.sqlite
// and its write-ahead log) holds a row for thread id. Codex compares a
// resumed thread's directory with that row's, not with the rollout's, and
// asks when they differ; a thread it has no row for takes the rollout's
// directory. The ID is stored as text, so finding its bytes is enough: a
// false "yes" costs one needless note.
func codexStateKnows(home, id string) bool {
	dbs, _ := filepath.Glob(filepath.Join(home, "state_*.sqlite*"))
	for _, db := range dbs {
		data, err := safe.ReadFile(db, maxCodexState, safe.NoFollow)
		if err == nil && bytes.Contains(data, []byte(id)) {
			return true
		}
	}
	return false
}

// maxCodexState bounds how much of a state database is read for the note.
const maxCodexState = 256 << 20

// Locate implements Mover.
func (codex) Locate(home, _ string, id string) (Placement, bool) {
	p, _, ok := codexRollout(home, id)
	return Placement{Path: p}, ok
}

// DirFields implements Mover.
func (codex) DirFields() []string {
	return []string{"session_meta payload.cwd", "cwd of each turn_context line", "thread_settings.cwd of each thread_settings_applied event"}
}
