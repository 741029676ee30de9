package gemini_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	agent "github.com/fleetcom/fleetcom/harness/gemini"
	"github.com/fleetcom/fleetcom/harness/readertest"
)

func TestIndexReadsGemini(t *testing.T) {
	const id = "416ad4ad-cbea-4587-9c36-444c9ce84abd"
	proj, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(t.TempDir(), ".gemini")
	chats := filepath.Join(home, "tmp", "proj-two", "chats")
	os.MkdirAll(chats, 0o755)
	os.WriteFile(filepath.Join(home, "tmp", "proj-two", ".project_root"), []byte(proj), 0o644)
	data := map[string][]byte{}
	for _, n := range []string{"session-2026-12-06T04-38-416ad4ad.jsonl", "session-2026-12-06T04-40-416ad4ad.jsonl"} {
		data[n], _ = os.ReadFile(filepath.Join("testdata", "index", n))
	}
	conv := filepath.Join(chats, "session-2026-12-06T04-38-416ad4ad.jsonl")
	// The conversation up to its first resume, and the stub the later one
	// left.
	lines := strings.SplitAfter(string(data[filepath.Base(conv)]), "\n")
	os.WriteFile(conv, []byte(strings.Join(lines[:20], "")), 0o644)
	os.WriteFile(filepath.Join(chats, "session-2026-12-06T04-40-416ad4ad.jsonl"), data["session-2026-12-06T04-40-416ad4ad.jsonl"], 0o644)
	x := readertest.OpenIndex(t, agent.Agent, home)
	readertest.Refresh(t, x)
	c, ok, err := x.Get("gemini", id)
	if err != nil || !ok || c.Cwd != proj || c.Title != "LIST the files of OSPREY" || c.Turns != 2 || c.Messages != 4 || !c.Stored {
		t.Fatalf("after the first resume: %+v, %v", c, err)
	}
	// Then the later resume's turn is appended.
	os.WriteFile(conv, data[filepath.Base(conv)], 0o644)
	readertest.Refresh(t, x)
	if c, _, _ = x.Get("gemini", id); c.Turns != 3 || c.Messages != 6 {
		t.Errorf("after the later resume: %+v", c)
	}
	if got := readertest.Found(t, x, "KESTREL"); len(got) != 1 || got[0] != id {
		t.Errorf("search KESTREL: %q", got)
	}
	// Gemini rewrites the file (a new one renamed over it): read again
	// from its start, not added to what was read.
	tmp := conv + ".tmp"
	os.WriteFile(tmp, data[filepath.Base(conv)], 0o644)
	os.Rename(tmp, conv)
	readertest.Refresh(t, x)
	if c, _, _ = x.Get("gemini", id); c.Turns != 3 || c.Messages != 6 || c.Title != "LIST the files of OSPREY" {
		t.Errorf("after a rewrite: %+v", c)
	}
	if got := readertest.Found(t, x, "OSPREY"); len(got) != 1 {
		t.Errorf("search OSPREY after a rewrite: %q", got)
	}
	// The stub alone is no conversation.
	os.Remove(conv)
	readertest.Refresh(t, x)
	if c, ok, _ = x.Get("gemini", id); ok && c.Messages != 0 {
		t.Errorf("the stub alone: %+v", c)
	}
}
