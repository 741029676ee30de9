package harness

import (
	"bytes"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Codex files a rollout by the day it began, not by directory: the
// directory is the "cwd" of its session_meta (and of the turn_context lines
// that follow), and the file's name and day come from session_meta's
// timestamp, in local time.

const codexRolloutFile = "rollout.jsonl"

// Pack implements Mover.
func (codex) Pack(home, _ string, id string) ([]File, error) {
	p, _, ok := codexRollout(home, id)
	if !ok {
		return nil, refuse(ErrNoConversation, "no codex rollout of %s in %s", id, filepath.Join(home, "sessions"))
	}
	data, err := safe.ReadFile(p, maxConversationFile, safe.NoFollow)
	if err != nil {
		return nil, err
	}
	return []File{{Name: codexRolloutFile, Mode: 0o600, Data: data}}, nil
}

// Place implements Mover: the rollout under the day of its session_meta's
// timestamp (today when it has none), each cwd rewritten.
func (codex) Place(home, dir, id, from string, files []File) (Placement, error) {
	if err := codexSpec.CheckID(id); err != nil {
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
		return Placement{}, refuse(ErrNotUsers, "codex thread %s was started by a subagent", id)
	}
	at := time.Now()
	if t, err := time.Parse(time.RFC3339Nano, meta.Payload.Timestamp); err == nil {
		at = t
	}
	at = at.Local()
	if from != dir {
		data = rewriteLines(data, func(l []byte) []byte { return rewriteField(l, "cwd", from, dir) })
	}
	name := "rollout-" + at.Format("2006-01-02T15-04-05") + "-" + id + ".jsonl"
	return Placement{
		Path:  filepath.Join(dayDir(home, at), name),
		Files: []File{{Name: codexRolloutFile, Mode: 0o600, Data: data}},
	}, nil
}

// Locate implements Mover.
func (codex) Locate(home, _ string, id string) (Placement, bool) {
	p, _, ok := codexRollout(home, id)
	return Placement{Path: p}, ok
}

// DirFields implements Mover.
func (codex) DirFields() []string {
	return []string{"session_meta payload.cwd", "cwd of each turn_context line"}
}
