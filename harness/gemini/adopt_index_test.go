package gemini

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// indexed is the file at p as the index holds it after reading it whole,
// in two steps when split > 0 (the first split bytes, then the rest), as a
// refresh reads a file that grew.
func indexed(t *testing.T, p string, split int) harness.IndexedFile {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	l := harness.Limits{Line: harness.MaxLine}
	c := harness.Cursor{}
	if split > 0 && split < len(data) {
		if err := os.WriteFile(p, data[:split], 0o600); err != nil {
			t.Fatal(err)
		}
		if _, c, err = (gemini{}).Read(p, c, l); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, c, err = (gemini{}).Read(p, c, l); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return harness.IndexedFile{Path: p, Size: fi.Size(), Cursor: c}
}

// TestAdoptableIndexed: the index's reading of a session file settles
// Adoptable only where Adoptable, reading the file again, says yes; and
// it never settles a file it did not read to its end, nor one of another
// folder or session.
func TestAdoptableIndexed(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	p := writeSession(t, home, cwd, uid, "remember PELICAN-4821", at)
	head := headLine(uid, cwd, "2026-12-01T10:00:00.000Z")
	ctx := msg("c0", "user", "<session_context>\nThis is the Gemini CLI.\n</session_context>")
	side := headLine(uid, cwd, "2026-12-01T10:00:00.000Z")
	side["kind"] = "subagent"
	other := headLine(uid[:8]+"-0000-4000-8000-000000000000", cwd, "2026-12-01T10:00:00.000Z")
	set := func(k string, v any) map[string]any { return map[string]any{"$set": map[string]any{k: v}} }
	shapes := []struct {
		name  string
		lines []any
		torn  bool // a line being written follows
		want  bool
	}{
		{"a turn", []any{head, set("messages", []any{ctx}), msg("u1", "user", "remember PELICAN-4821"), msg("g1", "gemini", "ACK")}, false, true},
		{"context only", []any{head, set("messages", []any{ctx})}, false, false},
		{"rewound to the first message", []any{head, msg("u1", "user", "remember"), msg("g1", "gemini", "ACK"), map[string]any{"$rewindTo": "u1"}}, false, false},
		{"rewound to the reply", []any{head, msg("u1", "user", "remember"), msg("g1", "gemini", "ACK"), msg("u2", "user", "again"), map[string]any{"$rewindTo": "u2"}}, false, true},
		{"messages replaced", []any{head, msg("u1", "user", "/help"), set("messages", []any{ctx, msg("u2", "user", "hello there")})}, false, true},
		{"messages replaced by none", []any{head, msg("u1", "user", "hello"), set("messages", []any{})}, false, false},
		{"a subagent's", []any{side, msg("u1", "user", "look into it")}, false, false},
		{"another session's head", []any{other, msg("u1", "user", "hi")}, false, false},
		{"a line being written", []any{head, msg("u1", "user", "hi"), msg("g1", "gemini", "ACK")}, true, false},
	}
	a := Agent
	for _, s := range shapes {
		for _, split := range []int{0, 40, 200} {
			writeLines(t, p, s.lines...)
			if s.torn {
				appendTo(t, p, `{"id":"u9","type":"user","content":[{"te`)
			}
			f := indexed(t, p, split)
			got := a.AdoptableIndexed(home, cwd, uid, []harness.IndexedFile{f})
			look := a.Adoptable(home, cwd, uid) == nil
			if got != s.want || got && !look {
				t.Errorf("%s (split %d): AdoptableIndexed = %v, want %v; Adoptable says %v", s.name, split, got, s.want, look)
			}
		}
	}

	writeLines(t, p, shapes[0].lines...)
	f := indexed(t, p, 0)
	if !a.AdoptableIndexed(home, cwd, uid, []harness.IndexedFile{f}) {
		t.Fatal("a conversation read whole is not taken")
	}
	// A line being written: the index stopped before it.
	partial := f
	partial.Size += 10
	if a.AdoptableIndexed(home, cwd, uid, []harness.IndexedFile{partial}) {
		t.Error("a file not read to its end is taken")
	}
	if a.AdoptableIndexed(home, "/work/else", uid, []harness.IndexedFile{f}) {
		t.Error("a file of another directory's folder is taken")
	}
	if a.AdoptableIndexed(home, cwd, other["sessionId"].(string), []harness.IndexedFile{f}) {
		t.Error("a file of another session is taken")
	}
	elsewhere := f
	elsewhere.Path = filepath.Join(t.TempDir(), filepath.Base(p))
	if a.AdoptableIndexed(home, cwd, uid, []harness.IndexedFile{elsewhere}) {
		t.Error("a file outside the folder is taken")
	}
	garbled := f
	garbled.Cursor.State = []byte("not a state")
	if a.AdoptableIndexed(home, cwd, uid, []harness.IndexedFile{garbled}) || a.AdoptableIndexed(home, cwd, uid, nil) {
		t.Error("a state the reader did not write, or none, is taken")
	}
	if a.AdoptableIndexed(home, cwd, "../"+uid, []harness.IndexedFile{f}) {
		t.Error("a malformed ID is taken")
	}
}

func appendTo(t *testing.T, p, data string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
}
