package harness

import (
	"fmt"
	"path/filepath"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Claude keeps one transcript per conversation, in the project folder of
// the directory's slug, and names the directory in the "cwd" of every user
// and assistant line.

// claudeTranscriptFile is the transcript's name inside a bundle.
const claudeTranscriptFile = "transcript.jsonl"

// Pack implements Mover.
func (claude) Pack(home, cwd, id string) ([]File, error) {
	p, ok := claudeTranscript(home, cwd, id)
	if !ok {
		return nil, refuse(ErrNoConversation, "no claude transcript %s.jsonl for %s", id, cwd)
	}
	data, err := safe.ReadFile(p, maxConversationFile, safe.NoFollow)
	if err != nil {
		return nil, err
	}
	return []File{{Name: claudeTranscriptFile, Mode: 0o600, Data: data}}, nil
}

// Place implements Mover: the transcript in dir's project folder, each
// line's cwd rewritten.
func (claude) Place(home, dir, id, from string, files []File) (Placement, error) {
	if err := claudeSpec.CheckID(id); err != nil {
		return Placement{}, err
	}
	if len(files) != 1 || files[0].Name != claudeTranscriptFile {
		return Placement{}, fmt.Errorf("a claude conversation is one %s", claudeTranscriptFile)
	}
	data := files[0].Data
	if from != dir {
		data = rewriteLines(data, func(l []byte) []byte {
			// 2.1.332 also names the directory in an attachment's snapshot.
			return rewriteField(rewriteField(l, "cwd", from, dir), "workingDirectory", from, dir)
		})
	}
	return Placement{
		Path:  filepath.Join(home, "projects", ClaudeSlug(dir), id+".jsonl"),
		Files: []File{{Name: claudeTranscriptFile, Mode: 0o600, Data: data}},
	}, nil
}

// Locate implements Mover.
func (claude) Locate(home, cwd, id string) (Placement, bool) {
	p, ok := claudeTranscript(home, cwd, id)
	return Placement{Path: p}, ok
}

// DirFields implements Mover.
func (claude) DirFields() []string {
	return []string{"cwd of each transcript line", "workingDirectory of an attachment's snapshot (2.1.332)"}
}
