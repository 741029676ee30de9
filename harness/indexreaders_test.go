package harness_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/index"
	"github.com/fleetcom/fleetcom/internal/opencodetest"
)

// The readers of Gemini CLI and opencode under a real index: what it keeps
// of their stores, and what it finds in them.

func openIndex(t *testing.T, name, home string) *index.Index {
	t.Helper()
	a, ok := harness.Lookup(name)
	if !ok {
		t.Fatalf("no agent %s", name)
	}
	x, err := index.Open("", index.Options{Agents: []harness.Agent{a}, Text: true,
		Homes: func(harness.Agent) []string { return []string{home} },
		Warn:  func(m string) { t.Error("warning: " + m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func refresh(t *testing.T, x *index.Index) {
	t.Helper()
	if _, err := x.Refresh(index.Scope{Full: true}); err != nil {
		t.Fatal(err)
	}
}

func found(t *testing.T, x *index.Index, words string) []string {
	t.Helper()
	hits, err := x.Search(index.Query{Terms: strings.Fields(words)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}

func TestIndexReadsGemini(t *testing.T) {
	const id = "416ad4ad-cbea-4587-9c36-444c9ce84abd"
	proj, _ := filepath.EvalSymlinks(t.TempDir())
	home := filepath.Join(t.TempDir(), ".gemini")
	chats := filepath.Join(home, "tmp", "proj-two", "chats")
	os.MkdirAll(chats, 0o755)
	os.WriteFile(filepath.Join(home, "tmp", "proj-two", ".project_root"), []byte(proj), 0o644)
	data := map[string][]byte{}
	for _, n := range []string{"session-2026-12-06T04-38-416ad4ad.jsonl", "session-2026-12-06T04-40-416ad4ad.jsonl"} {
		data[n], _ = os.ReadFile(filepath.Join("testdata", "gemini", "index", n))
	}
	conv := filepath.Join(chats, "session-2026-12-06T04-38-416ad4ad.jsonl")
	// The conversation up to its first resume, and the stub the later one
	// left.
	lines := strings.SplitAfter(string(data[filepath.Base(conv)]), "\n")
	os.WriteFile(conv, []byte(strings.Join(lines[:20], "")), 0o644)
	os.WriteFile(filepath.Join(chats, "session-2026-12-06T04-40-416ad4ad.jsonl"), data["session-2026-12-06T04-40-416ad4ad.jsonl"], 0o644)
	x := openIndex(t, "gemini", home)
	refresh(t, x)
	c, ok, err := x.Get("gemini", id)
	if err != nil || !ok || c.Cwd != proj || c.Title != "LIST the files of OSPREY" || c.Turns != 2 || c.Messages != 4 || !c.Stored {
		t.Fatalf("after the first resume: %+v, %v", c, err)
	}
	// Then the later resume's turn is appended.
	os.WriteFile(conv, data[filepath.Base(conv)], 0o644)
	refresh(t, x)
	if c, _, _ = x.Get("gemini", id); c.Turns != 3 || c.Messages != 6 {
		t.Errorf("after the later resume: %+v", c)
	}
	if got := found(t, x, "KESTREL"); len(got) != 1 || got[0] != id {
		t.Errorf("search KESTREL: %q", got)
	}
	// Gemini rewrites the file (a new one renamed over it): read again
	// from its start, not added to what was read.
	tmp := conv + ".tmp"
	os.WriteFile(tmp, data[filepath.Base(conv)], 0o644)
	os.Rename(tmp, conv)
	refresh(t, x)
	if c, _, _ = x.Get("gemini", id); c.Turns != 3 || c.Messages != 6 || c.Title != "LIST the files of OSPREY" {
		t.Errorf("after a rewrite: %+v", c)
	}
	if got := found(t, x, "OSPREY"); len(got) != 1 {
		t.Errorf("search OSPREY after a rewrite: %q", got)
	}
	// The stub alone is no conversation.
	os.Remove(conv)
	refresh(t, x)
	if c, ok, _ = x.Get("gemini", id); ok && c.Messages != 0 {
		t.Errorf("the stub alone: %+v", c)
	}
}

func TestIndexReadsOpencode(t *testing.T) {
	home := filepath.Join(t.TempDir(), "opencode")
	os.MkdirAll(home, 0o755)
	db, err := sqlite3.Open(filepath.Join(home, "opencode.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, _ := os.ReadFile(filepath.Join("testdata", "opencode", "sessions.sql"))
	if err := db.Exec(opencodetest.Schema + string(rows)); err != nil {
		t.Fatal(err)
	}
	x := openIndex(t, "opencode", home)
	refresh(t, x)
	const id = "ses_db6534f63ffeQ8756QBzHnf8bj"
	c, ok, err := x.Get("opencode", id)
	if err != nil || !ok || c.StoreCwd != "/home/me/proj a" || c.Title != "ACK HERON-12 CODES HERON-12" ||
		c.Summary != "ACK HERON-12 CODES HERON-12" || c.Turns != 3 || c.Messages != 7 {
		t.Fatalf("%+v, %v", c, err)
	}
	if got := found(t, x, "PELICAN"); len(got) != 1 || got[0] != "ses_db65fdbf6ffebvK6cdx7G1vxiH" {
		t.Errorf("search PELICAN: %q", got)
	}
	// A new turn.
	if err := db.Exec(`INSERT INTO message VALUES ('msg_new1', '` + id + `', 1796533000000, 1796533000000, '{"role":"user","time":{"created":1796533000000}}');
		INSERT INTO part VALUES ('prt_new1', 'msg_new1', '` + id + `', 1796533000001, 1796533000001, '{"type":"text","text":"find the OSPREY nest"}');
		INSERT INTO message VALUES ('msg_new2', '` + id + `', 1796533000002, 1796533000100, '{"role":"assistant","time":{"created":1796533000002,"completed":1796533000100}}');
		INSERT INTO part VALUES ('prt_new2', 'msg_new2', '` + id + `', 1796533000003, 1796533000050, '{"type":"text","text":"It is on the cliff","time":{"start":1796533000003,"end":1796533000050}}');
		UPDATE session SET time_updated = 1796533000200 WHERE id = '` + id + `'`); err != nil {
		t.Fatal(err)
	}
	refresh(t, x)
	if c, _, _ = x.Get("opencode", id); c.Turns != 4 || c.Messages != 9 || c.Title != "ACK HERON-12 CODES HERON-12" {
		t.Errorf("after a turn: %+v", c)
	}
	if got := found(t, x, "cliff"); len(got) != 1 || got[0] != id {
		t.Errorf("search cliff: %q", got)
	}
	// A session deleted in opencode is gone.
	if err := db.Exec(`DELETE FROM part WHERE session_id = '` + id + `'; DELETE FROM message WHERE session_id = '` + id + `';
		DELETE FROM session WHERE id = '` + id + `'`); err != nil {
		t.Fatal(err)
	}
	refresh(t, x)
	if c, ok, _ = x.Get("opencode", id); ok && c.Stored {
		t.Errorf("a deleted session: %+v", c)
	}
	if got := found(t, x, "cliff"); len(got) != 0 {
		t.Errorf("search cliff after the delete: %q", got)
	}
}
