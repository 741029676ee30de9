package gemini

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// Builders for Gemini's store, shaped as 0.61.0 writes it.

func headLine(id, cwd, start string) map[string]any {
	return map[string]any{"sessionId": id, "projectHash": projectHash(cwd), "startTime": start, "lastUpdated": start, "kind": "main"}
}

// writeLines writes a session file of lines, each a JSON value.
func writeLines(t *testing.T, p string, lines ...any) {
	t.Helper()
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(harnesstest.JSONLine(t, l))
	}
	harnesstest.WriteFile(t, p, b.String())
}

func msg(id, typ, text string) map[string]any {
	m := map[string]any{"id": id, "timestamp": "2026-12-01T10:00:30.000Z", "type": typ}
	if typ == "user" {
		m["content"] = []any{map[string]any{"text": text}}
	} else {
		m["content"] = text
	}
	return m
}

// register gives cwd a slug as Gemini does on its first start there:
// an entry in projects.json and a marker in tmp/ and history/.
func register(t testing.TB, home, cwd string) string {
	t.Helper()
	reg := struct {
		Projects map[string]string `json:"projects"`
	}{map[string]string{}}
	if b, err := os.ReadFile(filepath.Join(home, "projects.json")); err == nil {
		json.Unmarshal(b, &reg)
	}
	if s, ok := reg.Projects[cwd]; ok {
		return s
	}
	slug, err := newSlug(home, cwd)
	if err != nil {
		t.Fatal(err)
	}
	reg.Projects[cwd] = slug
	harnesstest.WriteFile(t, filepath.Join(home, "projects.json"), harnesstest.JSONLine(t, reg))
	for _, b := range markerDirs(home) {
		harnesstest.WriteFile(t, filepath.Join(b, slug, ".project_root"), cwd)
	}
	return slug
}

// writeSession writes a session file of cwd begun at at: its context,
// and, when prompt is not empty, one turn.
func writeSession(t testing.TB, home, cwd, id, prompt string, at time.Time) string {
	t.Helper()
	slug := register(t, home, cwd)
	start := at.UTC().Format("2006-01-02T15:04:05.000Z")
	p := filepath.Join(home, "tmp", slug, "chats", "session-"+at.UTC().Format("2006-01-02T15-04")+"-"+id[:8]+".jsonl")
	data := harnesstest.JSONLine(t, headLine(id, cwd, start)) +
		harnesstest.JSONLine(t, map[string]any{"$set": map[string]any{"messages": []any{msg("ctx", "user", "<session_context>\nWorkspace: "+cwd+"\n</session_context>")}}})
	if prompt != "" {
		data += harnesstest.JSONLine(t, msg("u-"+id[:8], "user", prompt)) + harnesstest.JSONLine(t, map[string]any{"$set": map[string]any{"lastUpdated": start}}) +
			harnesstest.JSONLine(t, msg("g-"+id[:8], "gemini", "ACK")) + harnesstest.JSONLine(t, map[string]any{"$set": map[string]any{"lastUpdated": start}})
	}
	harnesstest.WriteFile(t, p, data)
	return p
}

func TestSlugs(t *testing.T) {
	for in, want := range map[string]string{"proj": "proj", "My Proj": "my-proj", "--a__b--": "a-b", "Émile": "mile", "…": "project"} {
		if got := slugify(in); got != want {
			t.Errorf("slugify(%q) = %q, want %q", in, got, want)
		}
	}
	home := t.TempDir()
	if a, b := register(t, home, "/x/proj"), register(t, home, "/y/proj"); a != "proj" || b != "proj-1" {
		t.Errorf("slugs %q, %q", a, b)
	}
	if s := slugOf(home, "/y/proj"); s != "proj-1" {
		t.Errorf("registered: %q", s)
	}
	// An entry whose marker names another directory is not believed, and a
	// directory with no entry is found by its marker.
	harnesstest.WriteFile(t, filepath.Join(home, "projects.json"), `{"projects":{"/z/proj":"proj","/x/proj":"proj-9"}}`)
	if s := slugOf(home, "/z/proj"); s != "" {
		t.Errorf("an entry another directory's marker contradicts: %q", s)
	}
	if s := slugOf(home, "/y/proj"); s != "proj-1" {
		t.Errorf("by marker: %q", s)
	}
	if s := slugOf(home, "/x/proj"); s != "proj-9" {
		t.Errorf("an entry no marker contradicts, as Gemini takes it: %q", s)
	}
	if d := dirOf(home, "proj-1"); d != "/y/proj" {
		t.Errorf("dirOf = %q", d)
	}
	harnesstest.WriteFile(t, filepath.Join(home, "projects.json"), `{"projects":{"/q":"Not A Slug"}}`)
	if projects(home) != nil {
		t.Error("a registry Gemini would reset is read")
	}
}

// TestStub: a resume in a later minute leaves a second file for the
// ID holding only the context; it is no conversation, and the real one is
// still found beside it, and only a stub left alone is an empty session.
func TestStub(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	real := writeSession(t, home, cwd, uid, "remember PELICAN-4821", at)
	stub := writeSession(t, home, cwd, uid, "", at.Add(2*time.Minute))
	a := Agent
	if !a.Exists(home, cwd, uid) || !a.Exists(home, "", uid) {
		t.Error("the conversation beside its stub is not found")
	}
	if l, ok := a.Behaviour.(harness.Mover).Locate(home, cwd, uid); !ok || l.Path != real {
		t.Errorf("Locate = %+v, %v, want %s", l, ok, real)
	}
	found, _ := a.Discover(home, cwd, "")
	if len(found) != 1 || found[0].ID != uid || found[0].Title != "remember PELICAN-4821" || found[0].Cwd != cwd {
		t.Errorf("Discover = %+v", found)
	}
	if err := a.Adoptable(home, cwd, uid); err != nil {
		t.Errorf("Adoptable: %v", err)
	}
	// Gemini's cleanup deleted the conversation and kept the stub.
	os.Remove(real)
	if a.Exists(home, cwd, uid) {
		t.Error("a stub alone is taken for a conversation")
	}
	if err := a.Adoptable(home, cwd, uid); !errors.Is(err, harness.ErrEmptyConversation) {
		t.Errorf("Adoptable of a stub: %v", err)
	}
	os.Remove(stub)
	if err := a.Adoptable(home, cwd, uid); !errors.Is(err, harness.ErrNoConversation) {
		t.Errorf("Adoptable of nothing: %v", err)
	}
}

func TestLookup(t *testing.T) {
	home := t.TempDir()
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	writeSession(t, home, "/a/proj", uid, "hi there", at)
	writeSession(t, home, "/a/empty", other, "", at)
	a := Agent
	f, err := a.Lookup(home, uid)
	if err != nil || f.Cwd != "/a/proj" || f.Title != "hi there" || !f.Started.Equal(at) {
		t.Errorf("Lookup = %+v, %v", f, err)
	}
	if err := a.Adoptable(home, "/b", uid); !errors.Is(err, harness.ErrElsewhere) {
		t.Errorf("Adoptable from elsewhere: %v", err)
	}
	if _, err := a.Lookup(home, other); !errors.Is(err, harness.ErrEmptyConversation) {
		t.Errorf("Lookup of an empty session: %v", err)
	}
	if _, err := a.Lookup(home, "../"+uid); !errors.Is(err, harness.ErrNoConversation) {
		t.Errorf("Lookup of a malformed ID: %v", err)
	}
	// The same conversation in two folders is not one place.
	writeSession(t, home, "/c/proj", uid, "hi there", at)
	if _, err := a.Lookup(home, uid); !errors.Is(err, harness.ErrElsewhere) {
		t.Errorf("Lookup of a conversation in two folders: %v", err)
	}
	if a.Exists(home, "", uid) {
		t.Error("Exists with no cwd picks one of two copies")
	}
	// A file named for the ID whose first line names another session is
	// not the ID's.
	p := filepath.Join(home, "tmp", "proj", "chats", "session-2026-12-01T11-00-"+uid[:8]+".jsonl")
	harnesstest.WriteFile(t, p, harnesstest.JSONLine(t, headLine(uid[:8]+other[8:], "/a/proj", "x")))
	if files := sessionFiles(filepath.Dir(p), uid); len(files) != 1 {
		t.Errorf("files of %s: %v", uid, files)
	}
}

func TestCorrelate(t *testing.T) {
	home, cwd := t.TempDir(), "/a/proj"
	spawn := time.Now().Add(-time.Second)
	writeSession(t, home, cwd, other, "before", spawn.Add(-time.Hour))
	old := filepath.Join(home, "tmp", "proj", "chats")
	entries, _ := os.ReadDir(old)
	for _, e := range entries {
		os.Chtimes(filepath.Join(old, e.Name()), spawn.Add(-time.Hour), spawn.Add(-time.Hour))
	}
	writeSession(t, home, cwd, uid, "", time.Now())
	if got := Agent.Correlate(home, cwd, spawn); got != "" {
		t.Errorf("an empty session correlates: %q", got)
	}
	writeSession(t, home, cwd, uid, "now", time.Now())
	if got := Agent.Correlate(home, cwd, spawn); got != uid {
		t.Errorf("Correlate = %q, want %s", got, uid)
	}
}
