package gemini

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

func TestPlace(t *testing.T) {
	home := t.TempDir()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	src := writeSession(t, home, "/old/proj", uid, "hi", at)
	m := Agent.Behaviour.(harness.Mover)
	files, err := m.Pack(home, "/old/proj", uid)
	if err != nil || len(files) != 1 || files[0].Name != filepath.Base(src) {
		t.Fatalf("Pack = %+v, %v", files, err)
	}
	// A directory Gemini never saw: a new folder, claimed.
	p, err := m.Place(home, "/new/proj", uid, "/old/proj", files)
	if err != nil {
		t.Fatal(err)
	}
	if p.Path != filepath.Join(home, "tmp", "proj-1", "chats", files[0].Name) || p.Dir {
		t.Errorf("path %s", p.Path)
	}
	if len(p.Claims) != 2 || p.Claims[0].Path != filepath.Join(home, "tmp", "proj-1", ".project_root") ||
		p.Claims[1].Path != filepath.Join(home, "history", "proj-1", ".project_root") || string(p.Claims[0].Data) != "/new/proj" {
		t.Errorf("claims %+v", p.Claims)
	}
	data := p.Files[0].Data
	if !bytes.Contains(data, []byte(projectHash("/new/proj"))) || bytes.Contains(data, []byte(projectHash("/old/proj"))) {
		t.Errorf("projectHash not rewritten:\n%s", data)
	}
	if !bytes.Contains(data, []byte("Workspace: /old/proj")) {
		t.Error("the context the model was sent was rewritten")
	}
	// A directory Gemini knows: its folder, nothing to claim.
	writeSession(t, home, "/known", other, "x", at)
	if p, err := m.Place(home, "/known", uid, "/old/proj", files); err != nil || len(p.Claims) != 0 ||
		p.Path != filepath.Join(home, "tmp", "known", "chats", files[0].Name) {
		t.Errorf("known directory: %+v, %v", p, err)
	}
	for _, bad := range []string{"transcript.jsonl", "session-2026-12-01T10-00-" + other[:8] + ".jsonl",
		"session-2026-12-01T10-0x-" + uid[:8] + ".jsonl", "../session-2026-12-01T10-00-" + uid[:8] + ".jsonl"} {
		if _, err := m.Place(home, "/new", uid, "/old/proj", []harness.File{{Name: bad, Data: files[0].Data}}); err == nil {
			t.Errorf("Place took a file named %q", bad)
		}
	}
	if _, err := m.Place(home, "/new", uid, "/old/proj", append(files, files...)); err == nil {
		t.Error("Place took two files")
	}
}

func TestCarry(t *testing.T) {
	home := t.TempDir()
	src := writeSession(t, home, "/old/proj", uid, "hi", time.Now())
	folder := filepath.Join(home, "tmp", "proj")
	harnesstest.WriteFile(t, filepath.Join(folder, "chats", uid, "agent-1.jsonl"),
		harnesstest.JSONLine(t, map[string]any{"sessionId": "agent-1", "projectHash": projectHash("/old/proj"), "kind": "subagent", "directories": []string{"/old/proj", "/old/proj2"}}))
	harnesstest.WriteFile(t, filepath.Join(folder, uid, "plans", "plan.md"), "# plan\n")
	harnesstest.WriteFile(t, filepath.Join(folder, "logs", "session-"+uid+".jsonl"), "{}\n")
	writeSession(t, home, "/old/proj", uid, "", time.Now().Add(2*time.Minute)) // the stub stays
	c, err := Agent.Behaviour.(harness.Mover).Carry(home, "/old/proj", "/new/proj", uid)
	if err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(home, "tmp", "proj-1")
	var got []string
	for _, p := range c.Parts {
		got = append(got, strings.TrimPrefix(p.From, folder)+" -> "+strings.TrimPrefix(p.To, to))
	}
	want := []string{"/chats/" + filepath.Base(src) + " -> /chats/" + filepath.Base(src), "/chats/" + uid + " -> /chats/" + uid,
		"/" + uid + " -> /" + uid, "/logs/session-" + uid + ".jsonl -> /logs/session-" + uid + ".jsonl"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("parts:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(c.Claims) != 2 {
		t.Errorf("claims %+v", c.Claims)
	}
	sub, _ := os.ReadFile(filepath.Join(folder, "chats", uid, "agent-1.jsonl"))
	out := c.Parts[1].Edit("agent-1.jsonl")(sub)
	if !bytes.Contains(out, []byte(`"directories":["/new/proj","/old/proj2"]`)) || !bytes.Contains(out, []byte(projectHash("/new/proj"))) {
		t.Errorf("subagent session rewritten to:\n%s", out)
	}
	if c.Parts[2].Edit("plans/plan.md") != nil {
		t.Error("a plan is rewritten")
	}
}

func TestRewriteInList(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"directories":["/a","/b"]}`, `{"directories":["/z","/b"]}`},
		{`{"directories":["/b","/a"],"x":"/a"}`, `{"directories":["/b","/z"],"x":"/a"}`},
		{`{"directories":["/a/b","/ab","a]\"/a"]}`, `{"directories":["/a/b","/ab","a]\"/a"]}`},
		{`{"other":["/a"]}`, `{"other":["/a"]}`},
		{`{"directories":["/a"`, `{"directories":["/a"`},
	} {
		if got := string(rewriteInList([]byte(c.in), "directories", "/a", "/z")); got != c.want {
			t.Errorf("rewriteInList(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
