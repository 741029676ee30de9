package copilot_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	agent "github.com/fleetcom/fleetcom/harness/copilot"
	"github.com/fleetcom/fleetcom/harness/readertest"
	"github.com/fleetcom/fleetcom/index"
)

// The index over a Copilot home of real session folders: the sessions with
// a prompt, their names, and no trace of a session quit before its first
// prompt (a folder with workspace.yaml and no log). A /rename shows once
// the log changes.
func TestCopilotIndex(t *testing.T) {
	copilot := agent.Agent
	home := t.TempDir()
	const four, named, empty = "11c108af-3ed7-47e3-82b4-2f8c70abf94b", "00c76b22-7a0b-45e6-9e2b-8baca84bed37", "a8cdb6be-0070-4363-8feb-7191fe07879f"
	for _, id := range []string{four, named} {
		dir := filepath.Join(home, "session-state", id)
		os.MkdirAll(dir, 0o700)
		for _, f := range []string{"events.jsonl", "workspace.yaml"} {
			data, err := os.ReadFile(filepath.Join("testdata", "copilotindex", id, f))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, f), data, 0o600)
		}
	}
	emptyDir := filepath.Join(home, "session-state", empty)
	os.MkdirAll(emptyDir, 0o700)
	os.WriteFile(filepath.Join(emptyDir, "workspace.yaml"), []byte("id: "+empty+"\ncwd: /tmp/x\nclient_name: github/cli\nuser_named: false\n"), 0o600)

	x := readertest.OpenIndex(t, copilot, home)
	if _, err := x.Refresh(index.Scope{}); err != nil {
		t.Fatal(err)
	}
	c, ok, _ := x.Get("copilot", four)
	if !ok || c.Title != "remember PELICAN-4821" || c.Turns != 4 || c.Messages != 9 || c.Name != "" || !c.Stored ||
		c.StoreCwd != "/tmp/fleetcom-e2e-2515654863/my project" {
		t.Errorf("the session of four prompts: %+v", c)
	}
	if c, ok, _ := x.Get("copilot", named); !ok || c.Name != "wren work" || c.Messages != 2 {
		t.Errorf("the named session: %+v", c)
	}
	if c, ok, _ := x.Get("copilot", empty); ok {
		t.Errorf("the session quit before a prompt: %+v", c)
	}
	// /rename in a run that goes on: workspace.yaml changes, then the log.
	ws := filepath.Join(home, "session-state", four, "workspace.yaml")
	data, _ := os.ReadFile(ws)
	os.WriteFile(ws, []byte(strings.Replace(string(data), "name: remember PELICAN-4821\nuser_named: false", "name: pelican work\nuser_named: true", 1)), 0o600)
	f, _ := os.OpenFile(filepath.Join(home, "session-state", four, "events.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"type":"user.message","data":{"content":"and now","transformedContent":"and now"},"id":"n","timestamp":"2026-12-06T05:00:00.000Z","parentId":null}` + "\n")
	f.Close()
	if _, err := x.Refresh(index.Scope{}); err != nil {
		t.Fatal(err)
	}
	if c, _, _ := x.Get("copilot", four); c.Name != "pelican work" || c.Turns != 5 || c.Title != "remember PELICAN-4821" {
		t.Errorf("after /rename and a prompt: %+v", c)
	}
}
