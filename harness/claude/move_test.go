package claude

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// A Claude transcript names its directory in each line's cwd and, from
// 2.1.332, in an attachment's snapshot; text the model saw stays as it was.
func TestPlace(t *testing.T) {
	home := t.TempDir()
	const old, dir = "/src/old", "/src/new"
	id := harnesstest.UUID(t)
	path := writeTranscript(t, home, old, id, "hello")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "attachment", "sessionId": id, "cwd": old,
		"attachment": map[string]any{"snapshot": map[string]any{"workingDirectory": old}, "rendered": []any{map[string]any{"content": "in " + old}}}}))
	f.Close()

	c := claude{}
	files, err := c.Pack(home, old, id)
	if err != nil {
		t.Fatal(err)
	}
	place, err := c.Place(home, dir, id, old, files)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, "projects", projectSlug(dir), id+".jsonl"); place.Path != want {
		t.Errorf("placed at %s, want %s", place.Path, want)
	}
	got := place.Files[0].Data
	if bytes.Contains(got, []byte(`"cwd":"`+old+`"`)) || bytes.Contains(got, []byte(`"workingDirectory":"`+old+`"`)) {
		t.Errorf("a directory field still names the old directory:\n%s", got)
	}
	if n := bytes.Count(got, []byte(`"`+dir+`"`)); n != 4 {
		t.Errorf("%d fields name the new directory, want 4 (three cwd, one workingDirectory):\n%s", n, got)
	}
	if !bytes.Contains(got, []byte(`"in `+old+`"`)) {
		t.Error("text the model was sent was rewritten")
	}
}
