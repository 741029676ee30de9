package grok

import (
	"path/filepath"
	"testing"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

func TestName(t *testing.T) {
	home, cwd := t.TempDir(), "/p/g"
	a := Agent
	id := harnesstest.UUID(t)
	dir := writeSession(t, home, cwd, id, "hello")
	summary := func(title string, manual bool) {
		harnesstest.WriteFile(t, filepath.Join(dir, "summary.json"), harnesstest.JSONLine(t, map[string]any{
			"info": map[string]any{"id": id, "cwd": cwd}, "num_messages": 3,
			"generated_title": title, "session_summary": "Fake session title", "title_is_manual": manual}))
	}
	summary("Fake session title", false)
	if got := a.ConversationName(home, cwd, id); got != "" {
		t.Errorf("a generated title is not a name: %q", got)
	}
	if got := a.Title(home, cwd, id); got != "Fake session title" {
		t.Errorf("title %q", got)
	}
	summary("sparrow stuff", true)
	if got := a.ConversationName(home, cwd, id); got != "sparrow stuff" {
		t.Errorf("renamed: %q", got)
	}
}
