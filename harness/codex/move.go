package codex

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Codex files a rollout by the day it began, not by directory: the
// directory is the "cwd" of its session_meta, of the turn_context lines and
// of the thread_settings_applied events that follow (every "cwd" key is
// rewritten), and the file's name and day come from session_meta's
// timestamp, in local time. Codex 0.171.0 also keeps each thread's
// directory in its state database: see stateKnows.

const rolloutFile = "rollout.jsonl"

// Pack implements Mover.
func (codex) Pack(home, _ string, id string) ([]harness.File, error) {
	p, _, ok := findRollout(home, id)
	if !ok {
		return nil, harness.Refuse(harness.ErrNoConversation, "no codex rollout of %s in %s", id, filepath.Join(home, "sessions"))
	}
	data, err := safe.ReadFile(p, harness.MaxConversationFile, safe.NoFollow)
	if err != nil {
		return nil, err
	}
	return []harness.File{{Name: rolloutFile, Mode: 0o600, Data: data}}, nil
}

// Place implements Mover: the rollout under the day of its session_meta's
// timestamp (today when it has none), each cwd rewritten.
func (codex) Place(home, dir, id, from string, files []harness.File) (harness.Placement, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Placement{}, err
	}
	if len(files) != 1 || files[0].Name != rolloutFile {
		return harness.Placement{}, fmt.Errorf("a codex conversation is one %s", rolloutFile)
	}
	data := files[0].Data
	first, _, _ := bytes.Cut(data, []byte("\n"))
	meta, ok := parseMeta(first, id)
	if !ok || meta.Payload.ID != id {
		return harness.Placement{}, fmt.Errorf("the rollout does not begin with the session_meta of %s", id)
	}
	if meta.subagent() {
		return harness.Placement{}, harness.Refuse(harness.ErrNotUsers, "codex thread %s was started by a subagent", id)
	}
	at := time.Now()
	if t, err := time.Parse(time.RFC3339Nano, meta.Payload.Timestamp); err == nil {
		at = t
	}
	at = at.Local()
	if from != dir {
		data = harness.RewriteLines(data, func(l []byte) []byte { return harness.RewriteField(l, "cwd", from, dir) })
	}
	name := "rollout-" + at.Format("2006-01-02T15-04-05") + "-" + id + ".jsonl"
	place := harness.Placement{
		Path:  filepath.Join(dayDir(home, at), name),
		Files: []harness.File{{Name: rolloutFile, Mode: 0o600, Data: data}},
	}
	if from != dir && stateKnows(home, id) {
		place.Note = stateNote
	}
	return place, nil
}

// Carry implements Mover: the rollout stays where it is (Codex files it by
// the day it began and finds it by its ID), its directory fields rewritten.
func (codex) Carry(home, from, dir, id string) (harness.Carry, error) {
	p, meta, err := userRollout(home, id)
	if err != nil {
		return harness.Carry{}, err
	}
	if !safe.SameDir(meta.Payload.Cwd, from) {
		return harness.Carry{}, harness.Refuse(harness.ErrElsewhere, "codex rollout %s was started in %q, not in %s", p, meta.Payload.Cwd, from)
	}
	rewrite := func(data []byte) []byte {
		return harness.RewriteLines(data, func(l []byte) []byte { return harness.RewriteField(l, "cwd", meta.Payload.Cwd, dir) })
	}
	c := harness.Carry{Parts: []harness.Part{{From: p, To: p, Edit: func(string) func([]byte) []byte { return rewrite }}}}
	if stateKnows(home, id) {
		c.Note = stateNote
	}
	return c, nil
}

// stateNote says what a moved conversation's first resume asks.
const stateNote = "codex also keeps this conversation's old directory in its state database, which fleetcom does not edit: " +
	"the first 'codex resume' in the new directory asks which directory to use; choose 'Use current directory' and it asks no more"

// stateKnows reports whether Codex's state database (state_<n>.sqlite
// and its write-ahead log) holds a row for thread id. Codex compares a
// resumed thread's directory with that row's, not with the rollout's, and
// asks when they differ; a thread it has no row for takes the rollout's
// directory. The ID is stored as text, so finding its bytes is enough: a
// false "yes" costs one needless note.
func stateKnows(home, id string) bool {
	dbs, _ := filepath.Glob(filepath.Join(home, "state_*.sqlite*"))
	for _, db := range dbs {
		data, err := safe.ReadFile(db, maxStateFile, safe.NoFollow)
		if err == nil && bytes.Contains(data, []byte(id)) {
			return true
		}
	}
	return false
}

// maxStateFile bounds how much of a state database is read for the note.
const maxStateFile = 256 << 20

// Locate implements Mover.
func (codex) Locate(home, _ string, id string) (harness.Placement, bool) {
	p, _, ok := findRollout(home, id)
	return harness.Placement{Path: p}, ok
}

// DirFields implements Mover.
func (codex) DirFields() []string {
	return []string{"session_meta payload.cwd", "cwd of each turn_context line", "thread_settings.cwd of each thread_settings_applied event"}
}
