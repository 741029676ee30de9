package gemini

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadConversation: what every look at one conversation (Exists,
// Active, Title, Adoptable, Lookup, Correlate) reads of its file decides as
// the replay does, and a file that changes is read again.
func TestReadConversation(t *testing.T) {
	p := filepath.Join(t.TempDir(), "session-2026-12-01T10-00-"+uid[:8]+".jsonl")
	write := func(lines ...any) {
		t.Helper()
		writeLines(t, p, lines...)
	}
	head := headLine(uid, "/p", "2026-12-01T10:00:00.000Z")
	ctx := msg("c0", "user", "<session_context>\nThis is the Gemini CLI.\n</session_context>")
	write(head, map[string]any{"$set": map[string]any{"messages": []any{ctx}}})
	if c, ok := readConversation(p); ok {
		t.Errorf("context only: %+v", c)
	}
	// The same file, grown by a turn: read again, not remembered.
	write(head, map[string]any{"$set": map[string]any{"messages": []any{ctx}}},
		msg("u1", "user", "remember PELICAN-4821"), map[string]any{"$set": map[string]any{"lastUpdated": "2026-12-01T10:01:00.000Z"}},
		msg("g1", "gemini", "ACK PELICAN-4821"), map[string]any{"$set": map[string]any{"lastUpdated": "2026-12-01T10:01:01.000Z"}})
	c, ok := readConversation(p)
	want := session{ID: uid, Title: "remember PELICAN-4821",
		Started: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC), Active: time.Date(2026, 12, 1, 10, 1, 1, 0, time.UTC)}
	if !ok || c.ID != want.ID || c.Title != want.Title || c.Side || !c.Started.Equal(want.Started) || !c.Active.Equal(want.Active) {
		t.Errorf("one turn: %+v, %v; want %+v", c, ok, want)
	}
	write(head, msg("u1", "user", "remember PELICAN-4821"), map[string]any{"$set": map[string]any{"summary": "Fake session title"}})
	if c, _ := readConversation(p); c.Title != "Fake session title" {
		t.Errorf("summary: title %q", c.Title)
	}
	write(head, msg("u1", "user", "remember PELICAN-4821"), msg("g1", "gemini", "ACK"), map[string]any{"$rewindTo": "u1"})
	if c, ok := readConversation(p); ok {
		t.Errorf("rewound to the first message: %+v", c)
	}
	write(head, msg("u1", "user", "/help"), map[string]any{"$set": map[string]any{"messages": []any{ctx,
		msg("u2", "user", "hello there")}}})
	if c, ok := readConversation(p); !ok || c.Title != "hello there" {
		t.Errorf("replaced: %+v, %v", c, ok)
	}
	side := headLine(uid, "/p", "2026-12-01T10:00:00.000Z")
	side["kind"] = "subagent"
	write(side, msg("u1", "user", "look into it"))
	if c, ok := readConversation(p); !ok || !c.Side {
		t.Errorf("a sub-agent's: %+v, %v", c, ok)
	}
	if _, _, ok := conversation([]string{p}); ok {
		t.Error("a sub-agent's session is a conversation to resume")
	}
	write(map[string]any{"sessionId": "../x", "projectHash": "h"}, msg("u1", "user", "hi"))
	if c, ok := readConversation(p); ok {
		t.Errorf("a session of another grammar: %+v", c)
	}
	os.Remove(p)
	if c, ok := readConversation(p); ok {
		t.Errorf("a removed file: %+v", c)
	}
}

// TestReadConversationReadsOn: a session file that grows is read on from
// where the last look stopped, and says what a reading of the whole file
// says, through prompts, replies, titles, rewinds and replaced lists.
func TestReadConversationReadsOn(t *testing.T) {
	p := filepath.Join(t.TempDir(), "session-2026-12-01T10-00-"+uid[:8]+".jsonl")
	head := headLine(uid, "/p", "2026-12-01T10:00:00.000Z")
	ctx := msg("c0", "user", "<session_context>\nThis is the Gemini CLI.\n</session_context>")
	steps := [][]any{
		{head, map[string]any{"$set": map[string]any{"messages": []any{ctx}}}},
		{msg("u1", "user", "remember PELICAN-4821")},
		{map[string]any{"$set": map[string]any{"lastUpdated": "2026-12-01T10:01:00.000Z"}}, msg("g1", "gemini", "ACK")},
		{map[string]any{"$rewindTo": "u1"}},
		{msg("u2", "user", "second first prompt"), msg("g2", "gemini", "ACK 2")},
		{map[string]any{"$set": map[string]any{"summary": "Fake session title"}}},
		{msg("u3", "user", "a later prompt")},
		{map[string]any{"$set": map[string]any{"messages": []any{}}}},
		{msg("u4", "user", "after the list was emptied")},
	}
	var lines []any
	for i, step := range steps {
		lines = append(lines, step...)
		writeLines(t, p, lines...)
		sessionMemo.Lock()
		before := sessionMemo.m[p]
		sessionMemo.Unlock()
		if fi, _ := os.Stat(p); i > 0 && before.ino != fi.Sys().(*syscall.Stat_t).Ino {
			t.Fatal("the file was replaced, not written on: nothing would be read on")
		}
		read, readOk := readConversation(p)
		sessionMemo.Lock()
		kept := sessionMemo.m[p]
		cur := kept.cur
		delete(sessionMemo.m, p)
		sessionMemo.Unlock()
		whole, wholeOk := readConversation(p)
		if fi, _ := os.Stat(p); cur.Offset != fi.Size() {
			t.Errorf("step %d: stopped at %d of %d", i, cur.Offset, fi.Size())
		}
		if read != whole || readOk != wholeOk {
			t.Errorf("step %d: read on %+v, %v; whole %+v, %v", i, read, readOk, whole, wholeOk)
		}
		// The next step reads on from the look of this one.
		sessionMemo.Lock()
		sessionMemo.m[p] = kept
		sessionMemo.Unlock()
	}
}
