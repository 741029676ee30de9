package grok

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/harness/readertest"
)

// grokSession writes a session folder as Grok 1.0.41 keeps one: Grok's
// own lines first (a system prompt, a reminder, the <user_info> context),
// then each prompt wrapped in <user_query> and its answer.
func grokSession(t *testing.T, home, cwd, id string, prompts ...string) string {
	t.Helper()
	dir := filepath.Join(folderOf(home, cwd), id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lines := harnesstest.JSONLine(t, map[string]any{"type": "system", "content": "You are Grok."}) +
		harnesstest.JSONLine(t, map[string]any{"type": "user", "content": "<user_info>\nOS Version: linux\nWorkspace Path: " + cwd + "\n</user_info>"})
	for i, p := range prompts {
		lines += harnesstest.JSONLine(t, map[string]any{"type": "user", "content": "<user_query>\n" + p + "\n</user_query>", "prompt_index": i}) +
			harnesstest.JSONLine(t, map[string]any{"type": "assistant", "content": "ACK " + p, "model_id": "fake-model"})
	}
	if err := os.WriteFile(filepath.Join(dir, "chat_history.jsonl"), []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	grokSummary(t, dir, id, cwd, "", false, len(prompts))
	return dir
}

// grokSummary writes a session's summary.json anew, as Grok does.
func grokSummary(t *testing.T, dir, id, cwd, title string, manual bool, messages int) {
	t.Helper()
	s := map[string]any{"info": map[string]any{"id": id, "cwd": cwd}, "created_at": "2026-12-01T10:00:00Z",
		"last_active_at": "2026-12-01T10:05:00Z", "num_messages": messages, "generated_title": title, "title_is_manual": manual}
	tmp := filepath.Join(dir, "summary.json.tmp")
	if err := os.WriteFile(tmp, []byte(harnesstest.JSONLine(t, s)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "summary.json")); err != nil {
		t.Fatal(err)
	}
}

func TestGrokReadsTheChatAndTheSummary(t *testing.T) {
	home, cwd := t.TempDir(), "/src/app"
	dir := grokSession(t, home, cwd, harnesstest.UID, "fix the flaky login test", "and the logout one")
	lim := harness.Limits{Text: true, Line: 1 << 20}
	d, c, err := grok{}.Read(filepath.Join(dir, "chat_history.jsonl"), harness.Cursor{}, lim)
	if err != nil || len(d) != 1 {
		t.Fatalf("Read: %v, %v", d, err)
	}
	want := []string{"fix the flaky login test", "ACK fix the flaky login test", "and the logout one", "ACK and the logout one"}
	if l := d[0]; l.ID != harnesstest.UID || l.Turns != 2 || l.Messages != 4 || !slices.Equal(l.Texts, want) {
		t.Errorf("chat: %+v; want two prompts, four messages, no <user_info>", l)
	}
	// Nothing new since: nothing learned.
	if d, _, _ := (grok{}).Read(filepath.Join(dir, "chat_history.jsonl"), c, lim); d[0].Messages != 0 {
		t.Errorf("a read with nothing new: %+v", d[0])
	}
	grokSummary(t, dir, harnesstest.UID, cwd, "Fixing login tests", false, 4)
	d, _, _ = grok{}.Read(filepath.Join(dir, "summary.json"), harness.Cursor{}, lim)
	if l := d[0]; l.Title != "Fixing login tests" || !l.Retitle || l.Name != "" || !l.Named || l.Cwd != cwd ||
		l.Started.IsZero() || l.Active.IsZero() || l.Messages != 0 {
		t.Errorf("summary: %+v", l)
	}
	grokSummary(t, dir, harnesstest.UID, cwd, "heron work", true, 4)
	if d, _, _ = (grok{}).Read(filepath.Join(dir, "summary.json"), harness.Cursor{}, lim); d[0].Name != "heron work" {
		t.Errorf("a /rename: %+v", d[0])
	}
}

// Through the index: the title Grok generates and revises, a /rename that
// only rewrites summary.json, and a session quit before its first prompt.
func TestGrokIndex(t *testing.T) {
	home, cwd := t.TempDir(), "/src/app"
	dir := grokSession(t, home, cwd, harnesstest.UID, "remember PELICAN-4821")
	empty := grokSession(t, home, cwd, harnesstest.Other)
	x := readertest.OpenIndex(t, Agent, home)
	readertest.Refresh(t, x)
	c, ok, err := x.Get("grok", harnesstest.UID)
	if err != nil || !ok || !c.Stored || c.Messages != 2 || c.StoreCwd != cwd || c.Title != "remember PELICAN-4821" {
		t.Fatalf("the session: %+v, %v", c, err)
	}
	if got := readertest.Found(t, x, "pelican"); !slices.Equal(got, []string{harnesstest.UID}) {
		t.Errorf("search pelican: %v", got)
	}
	grokSummary(t, dir, harnesstest.UID, cwd, "Remembering a code", false, 2)
	readertest.Refresh(t, x)
	if c, _, _ := x.Get("grok", harnesstest.UID); c.Title != "Remembering a code" || c.Messages != 2 {
		t.Errorf("after Grok titled it: %+v", c)
	}
	grokSummary(t, dir, harnesstest.UID, cwd, "pelican codes", true, 2)
	readertest.Refresh(t, x)
	if c, _, _ := x.Get("grok", harnesstest.UID); c.Name != "pelican codes" || c.Messages != 2 || !c.Stored {
		t.Errorf("after a /rename: %+v", c)
	}
	if c, ok, _ := x.Get("grok", harnesstest.Other); !ok || c.Messages != 0 {
		t.Errorf("the session quit before a prompt: %+v", c)
	}
	os.RemoveAll(empty)
	os.RemoveAll(dir)
	readertest.Refresh(t, x)
	if _, ok, _ := x.Get("grok", harnesstest.UID); ok {
		t.Error("a deleted session is still in the index")
	}
}
