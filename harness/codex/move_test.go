package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// Codex 0.171.0 resumes a rollout without asking only when every directory
// field agrees (session_meta, turn_context and thread_settings_applied, as
// the e2e suite measured), and asks anyway when its state database has a
// row for the thread: Place rewrites the first and notes the second.
func TestPlace(t *testing.T) {
	home := t.TempDir()
	const old, dir = "/src/old", "/src/new"
	v7 := harnesstest.V7At(time.Now().Add(-time.Hour))
	path := writeRollout(t, home, v7, old, false, "hello")
	extra := harnesstest.JSONLine(t, map[string]any{"type": "turn_context", "payload": map[string]any{"cwd": old, "model": "m"}}) +
		harnesstest.JSONLine(t, map[string]any{"type": "event_msg", "payload": map[string]any{"type": "thread_settings_applied",
			"thread_settings": map[string]any{"cwd": old, "sandbox": "workspace-write"}}}) +
		harnesstest.JSONLine(t, map[string]any{"type": "event_msg", "payload": map[string]any{"type": "agent_message", "message": "cwd is " + old + "/sub"}})
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(extra)
	f.Close()

	c := codex{}
	files, err := c.Pack(home, old, v7)
	if err != nil {
		t.Fatal(err)
	}
	place, err := c.Place(home, dir, v7, old, files)
	if err != nil {
		t.Fatal(err)
	}
	if place.Path != path {
		t.Errorf("placed at %s, want the rollout's own path %s", place.Path, path)
	}
	got := place.Files[0].Data
	if n := bytes.Count(got, []byte(`"cwd":"`+dir+`"`)); n != 3 {
		t.Errorf("%d cwd fields name the new directory, want 3:\n%s", n, got)
	}
	if bytes.Contains(got, []byte(`"cwd":"`+old+`"`)) {
		t.Errorf("a cwd field still names the old directory:\n%s", got)
	}
	if !bytes.Contains(got, []byte("cwd is "+old+"/sub")) {
		t.Error("text that is not a directory field was rewritten")
	}
	if place.Note != "" {
		t.Errorf("a note without a state database: %q", place.Note)
	}

	// A state database that knows the thread: the note; one that does not
	// (a home the rollout was copied into): none.
	db := filepath.Join(home, "state_5.sqlite")
	os.WriteFile(db, []byte("SQLite format 3\x00...threads..."+strings.Repeat("\x00", 64)), 0o600)
	if place, _ = c.Place(home, dir, v7, old, files); place.Note != "" {
		t.Errorf("a note for a database without the thread: %q", place.Note)
	}
	os.WriteFile(db+"-wal", []byte("\x00\x01"+v7+"\x00/src/old"), 0o600)
	if place, _ = c.Place(home, dir, v7, old, files); !strings.Contains(place.Note, "Use current directory") {
		t.Errorf("no note for a thread in the state database: %q", place.Note)
	}
}
