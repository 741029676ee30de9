package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Claude keeps one transcript per conversation, in the project folder of
// the directory's slug, and names the directory in the "cwd" of every user
// and assistant line. Beside the transcript a folder named by the
// conversation may hold more of it (measured on 2.1.197 and 2.1.332):
// subagents/agent-<id>.jsonl, a subagent's transcript with the same cwd
// fields, and its .meta.json; tool-results/<id>.txt, a tool's output too
// large for the transcript, whose path the transcript's tool result names
// (persistedOutputPath, and the text the model was sent).

// claudeTranscriptFile is the transcript's name inside a bundle.
const claudeTranscriptFile = "transcript.jsonl"

// Pack implements Mover.
func (claude) Pack(home, cwd, id string) ([]File, error) {
	p, ok := claudeTranscript(home, cwd, id)
	if !ok {
		return nil, Refuse(ErrNoConversation, "no claude transcript %s.jsonl for %s", id, cwd)
	}
	data, err := safe.ReadFile(p, MaxConversationFile, safe.NoFollow)
	if err != nil {
		return nil, err
	}
	return []File{{Name: claudeTranscriptFile, Mode: 0o600, Data: data}}, nil
}

// Place implements Mover: the transcript in dir's project folder, each
// line's cwd rewritten.
func (claude) Place(home, dir, id, from string, files []File) (Placement, error) {
	if err := claudeSpec.ValidateID(id); err != nil {
		return Placement{}, err
	}
	if len(files) != 1 || files[0].Name != claudeTranscriptFile {
		return Placement{}, fmt.Errorf("a claude conversation is one %s", claudeTranscriptFile)
	}
	data := files[0].Data
	if from != dir {
		data = claudeRewrite(from, dir, "", "")(data)
	}
	return Placement{
		Path:  filepath.Join(home, "projects", ClaudeSlug(dir), id+".jsonl"),
		Files: []File{{Name: claudeTranscriptFile, Mode: 0o600, Data: data}},
	}, nil
}

// claudeRewrite rewrites the directory fields of a transcript's lines: cwd,
// and from 2.1.332 an attachment snapshot's workingDirectory; and, when the
// folder beside the transcript moves from side to sideTo, the
// persistedOutputPath of the tool results kept in it.
func claudeRewrite(from, dir, side, sideTo string) func(data []byte) []byte {
	return func(data []byte) []byte {
		return RewriteLines(data, func(l []byte) []byte {
			l = RewriteField(RewriteField(l, "cwd", from, dir), "workingDirectory", from, dir)
			if side != "" && side != sideTo {
				l = RewritePathPrefix(l, "persistedOutputPath", side, sideTo)
			}
			return l
		})
	}
}

// Carry implements Mover: the transcript into dir's project folder and the
// folder beside it, whole, each transcript in either rewritten.
func (claude) Carry(home, from, dir, id string) (Carry, error) {
	if err := claudeSpec.ValidateID(id); err != nil {
		return Carry{}, err
	}
	p, ok := claudeTranscript(home, from, id)
	if !ok {
		return Carry{}, Refuse(ErrNoConversation, "no claude transcript %s.jsonl for %s", id, from)
	}
	folder := filepath.Join(home, "projects", ClaudeSlug(dir))
	side, sideTo := strings.TrimSuffix(p, ".jsonl"), filepath.Join(folder, id)
	hasSide := false
	if fi, err := os.Lstat(side); err == nil && fi.IsDir() {
		hasSide = true
	}
	// The directory as Claude wrote it, which may be a path through a
	// symlink, is rewritten as well as its physical form.
	recorded := from
	if h := readClaudeHead(p); h.ok && h.first.Cwd != from && safe.SameDir(h.first.Cwd, from) {
		recorded = h.first.Cwd
	}
	rewrite := func(side, sideTo string) func([]byte) []byte {
		a := claudeRewrite(from, dir, side, sideTo)
		if recorded == from {
			return a
		}
		b := claudeRewrite(recorded, dir, "", "")
		return func(data []byte) []byte { return b(a(data)) }
	}
	main := rewrite("", "")
	if hasSide {
		main = rewrite(side, sideTo)
	}
	c := Carry{Parts: []Part{{From: p, To: filepath.Join(folder, id+".jsonl"),
		Edit: func(string) func([]byte) []byte { return main }}}}
	if hasSide {
		sub := rewrite("", "")
		c.Parts = append(c.Parts, Part{From: side, To: sideTo, Dir: true, Edit: func(rel string) func([]byte) []byte {
			if strings.HasSuffix(rel, ".jsonl") {
				return sub
			}
			return nil
		}})
	}
	return c, nil
}

// Locate implements Mover; with no cwd, any projects/*/<id>.jsonl.
func (claude) Locate(home, cwd, id string) (Placement, bool) {
	if cwd == "" && claudeSpec.ID.Valid(id) {
		matches, _ := filepath.Glob(filepath.Join(home, "projects", "*", id+".jsonl"))
		for _, m := range matches {
			if fi, err := os.Lstat(m); err == nil && fi.Mode().IsRegular() {
				return Placement{Path: m}, true
			}
		}
		return Placement{}, false
	}
	p, ok := claudeTranscript(home, cwd, id)
	return Placement{Path: p}, ok
}

// DirFields implements Mover.
func (claude) DirFields() []string {
	return []string{"cwd of each transcript line", "workingDirectory of an attachment's snapshot (2.1.332)"}
}
