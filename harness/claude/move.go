package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
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

// bundleFile is the transcript's name inside a bundle.
const bundleFile = "transcript.jsonl"

// Pack implements Mover.
func (claude) Pack(home, cwd, id string) ([]harness.File, error) {
	p, ok := findTranscript(home, cwd, id)
	if !ok {
		return nil, harness.Refuse(harness.ErrNoConversation, "no claude transcript %s.jsonl for %s", id, cwd)
	}
	data, err := safe.ReadFile(p, harness.MaxConversationFile, safe.NoFollow)
	if err != nil {
		return nil, err
	}
	return []harness.File{{Name: bundleFile, Mode: 0o600, Data: data}}, nil
}

// Place implements Mover: the transcript in dir's project folder, each
// line's cwd rewritten.
func (claude) Place(home, dir, id, from string, files []harness.File) (harness.Placement, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Placement{}, err
	}
	if len(files) != 1 || files[0].Name != bundleFile {
		return harness.Placement{}, fmt.Errorf("a claude conversation is one %s", bundleFile)
	}
	data := files[0].Data
	if from != dir {
		data = rewrite(from, dir, "", "")(data)
	}
	return harness.Placement{
		Path:  filepath.Join(home, "projects", projectSlug(dir), id+".jsonl"),
		Files: []harness.File{{Name: bundleFile, Mode: 0o600, Data: data}},
	}, nil
}

// rewrite rewrites the directory fields of a transcript's lines: cwd,
// and from 2.1.332 an attachment snapshot's workingDirectory; and, when the
// folder beside the transcript moves from side to sideTo, the
// persistedOutputPath of the tool results kept in it.
func rewrite(from, dir, side, sideTo string) func(data []byte) []byte {
	return func(data []byte) []byte {
		return harness.RewriteLines(data, func(l []byte) []byte {
			l = harness.RewriteField(harness.RewriteField(l, "cwd", from, dir), "workingDirectory", from, dir)
			if side != "" && side != sideTo {
				l = harness.RewritePathPrefix(l, "persistedOutputPath", side, sideTo)
			}
			return l
		})
	}
}

// Carry implements Mover: the transcript into dir's project folder and the
// folder beside it, whole, each transcript in either rewritten.
func (claude) Carry(home, from, dir, id string) (harness.Carry, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Carry{}, err
	}
	p, ok := findTranscript(home, from, id)
	if !ok {
		return harness.Carry{}, harness.Refuse(harness.ErrNoConversation, "no claude transcript %s.jsonl for %s", id, from)
	}
	folder := filepath.Join(home, "projects", projectSlug(dir))
	side, sideTo := strings.TrimSuffix(p, ".jsonl"), filepath.Join(folder, id)
	hasSide := false
	if fi, err := os.Lstat(side); err == nil && fi.IsDir() {
		hasSide = true
	}
	// The directory as Claude wrote it, which may be a path through a
	// symlink, is rewritten as well as its physical form.
	recorded := from
	if h := readHead(p); h.ok && h.first.Cwd != from && safe.SameDir(h.first.Cwd, from) {
		recorded = h.first.Cwd
	}
	rewrite := func(side, sideTo string) func([]byte) []byte {
		a := rewrite(from, dir, side, sideTo)
		if recorded == from {
			return a
		}
		b := rewrite(recorded, dir, "", "")
		return func(data []byte) []byte { return b(a(data)) }
	}
	main := rewrite("", "")
	if hasSide {
		main = rewrite(side, sideTo)
	}
	c := harness.Carry{Parts: []harness.Part{{From: p, To: filepath.Join(folder, id+".jsonl"),
		Edit: func(string) func([]byte) []byte { return main }}}}
	if hasSide {
		sub := rewrite("", "")
		c.Parts = append(c.Parts, harness.Part{From: side, To: sideTo, Dir: true, Edit: func(rel string) func([]byte) []byte {
			if strings.HasSuffix(rel, ".jsonl") {
				return sub
			}
			return nil
		}})
	}
	return c, nil
}

// Locate implements Mover; with no cwd, any projects/*/<id>.jsonl.
func (claude) Locate(home, cwd, id string) (harness.Placement, bool) {
	if cwd == "" && spec.ID.Valid(id) {
		matches, _ := filepath.Glob(filepath.Join(home, "projects", "*", id+".jsonl"))
		for _, m := range matches {
			if fi, err := os.Lstat(m); err == nil && fi.Mode().IsRegular() {
				return harness.Placement{Path: m}, true
			}
		}
		return harness.Placement{}, false
	}
	p, ok := findTranscript(home, cwd, id)
	return harness.Placement{Path: p}, ok
}

// DirFields implements Mover.
func (claude) DirFields() []string {
	return []string{"cwd of each transcript line", "workingDirectory of an attachment's snapshot (2.1.332)"}
}
