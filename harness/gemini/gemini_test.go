package gemini

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// TestScrapeExitCaptured reads the ID from Gemini 0.61.0's exit box
// as a terminal got it (script(1) around the real CLI in tmux): at 80
// columns the ID sits on a line of its own between the box's borders, at
// 40 it is broken in two, and a run quit before a prompt prints the box
// too.
func TestScrapeExitCaptured(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"exit-80col.raw", "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"},
		{"exit-40col.raw", "8129845f-9611-4b7a-959e-108b5fd28d0e"},
		{"exit-noprompt-200col.raw", "bec18b89-d747-44bb-a665-f0477038bd0d"},
	} {
		tail, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		if got := Agent.ScrapeExit(tail); got != c.want {
			t.Errorf("%s: ScrapeExit = %q, want %q", c.file, got, c.want)
		}
		if !Agent.ExitBanner(tail) {
			t.Errorf("%s: the exit banner is not seen", c.file)
		}
	}
}

func TestScrapeExit(t *testing.T) {
	const b = "│"
	for _, c := range []struct{ name, tail, want string }{
		{"one line", b + "  To resume this session: gemini --resume " + uid + "   " + b + "\r\n", uid},
		{"id on its own line", b + "  To resume this session: gemini --resume      " + b + "\r\n" + b + "  " + uid + "   " + b + "\r\n", uid},
		{"id broken over two lines", b + " gemini " + b + "\r\n" + b + " --resume " + b + "\r\n" + b + " " + uid[:34] + "  " + b + "\r\n" + b + "  " + uid[34:] + "  " + b + "\r\n", uid},
		{"colour inside the id", "gemini --r\x1b[38;5;175mesume " + uid[:10] + "\x1b[38;5;104m" + uid[10:] + "\x1b[39m", uid},
		{"last one wins", "gemini --resume " + other + "\ngemini --resume " + uid + "\n", uid},
		{"id runs on", "gemini --resume " + uid + "0\n", ""},
		{"piece on the same line is no id", "gemini --resume " + uid[:20] + " " + uid[20:] + "\n", ""},
		{"blank lines between pieces", "gemini --resume " + uid[:20] + "\n\n\n" + uid[20:] + "\n", ""},
		{"other spelling", "gemini -r " + uid + "\n", ""},
		{"uppercase", "gemini --resume " + strings.ToUpper(uid) + "\n", ""},
		{"another agent's hint", "claude --resume " + uid + "\n", ""},
		{"session id line alone", "Session ID:   " + uid + "\n", ""},
	} {
		if got := Agent.ScrapeExit([]byte(c.tail)); got != c.want {
			t.Errorf("%s: ScrapeExit = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestInstrument(t *testing.T) {
	a := Agent
	in, err := a.Instrument(harness.Form{Tool: "gemini"}, harness.Run{NewID: func() (string, error) { return uid, nil }})
	if err != nil || in.Pinned != uid || strings.Join(in.Args, " ") != "--session-id "+uid || in.Env != nil || in.States {
		t.Errorf("bare: %+v, %v", in, err)
	}
	in, err = a.Instrument(harness.Form{Tool: "gemini", Resume: uid}, harness.Run{})
	if err != nil || in.Pinned != uid || in.Args != nil {
		t.Errorf("resume: %+v, %v (the target is never given to --session-id)", in, err)
	}
	if _, err := a.Instrument(harness.Form{Tool: "gemini", Resume: "../x"}, harness.Run{}); err == nil {
		t.Error("a malformed resume target is instrumented")
	}
	if _, err := a.Instrument(harness.Form{Tool: "gemini"}, harness.Run{NewID: func() (string, error) { return "not-an-id", nil }}); err == nil {
		t.Error("a generated ID outside the grammar is pinned")
	}
	for args, ok := range map[string]bool{"": true, "--resume " + uid: true, "-r " + uid: false,
		"--resume latest": false, "--resume 1": false, "--session-id " + uid: false} {
		if _, got := a.Detect(strings.Fields(args)); got != ok {
			t.Errorf("Detect(%q) = %v, want %v", args, got, ok)
		}
	}
	if line, err := harness.ResumeLine(a, "", uid, nil); err != nil || line != "gemini --resume '"+uid+"'" {
		t.Errorf("ResumeLine = %q, %v", line, err)
	}
}

func TestHome(t *testing.T) {
	env := map[string]string{"HOME": "/u", "GEMINI_CLI_HOME": "/g/"}
	if got := Agent.Home(func(k string) string { return env[k] }); got != "/g/.gemini" {
		t.Errorf("home with GEMINI_CLI_HOME = %q, want /g/.gemini", got)
	}
	delete(env, "GEMINI_CLI_HOME")
	if got := Agent.Home(func(k string) string { return env[k] }); got != "/u/.gemini" {
		t.Errorf("home = %q", got)
	}
}

// TestChatReplay: a session file is a log; what it holds is what is
// left after replaying it.
func TestChatReplay(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "session-2026-12-01T10-00-"+uid[:8]+".jsonl")
	write := func(lines ...any) {
		t.Helper()
		writeLines(t, p, lines...)
	}
	head := headLine(uid, "/p", "2026-12-01T10:00:00.000Z")
	ctx := msg("c0", "user", "<session_context>\nThis is the Gemini CLI.\n</session_context>")
	write(head, map[string]any{"$set": map[string]any{"messages": []any{ctx}}})
	if c, ok := readSession(p, false); !ok || c.resumable || c.SessionID != uid {
		t.Errorf("context only: %+v, %v", c, ok)
	}
	write(head, map[string]any{"$set": map[string]any{"messages": []any{ctx}}},
		msg("u1", "user", "remember PELICAN-4821"), map[string]any{"$set": map[string]any{"lastUpdated": "2026-12-01T10:01:00.000Z"}},
		msg("g1", "gemini", "ACK PELICAN-4821"), map[string]any{"$set": map[string]any{"lastUpdated": "2026-12-01T10:01:01.000Z"}})
	c, ok := readSession(p, true)
	if !ok || !c.resumable || c.FirstPrompt != "remember PELICAN-4821" || c.title() != "remember PELICAN-4821" ||
		!c.active().Equal(time.Date(2026, 12, 1, 10, 1, 1, 0, time.UTC)) || len(c.messages) != 3 {
		t.Errorf("one turn: %+v, %v", c, ok)
	}
	write(head, msg("u1", "user", "remember PELICAN-4821"), map[string]any{"$set": map[string]any{"summary": "Fake session title"}})
	if c, _ := readSession(p, false); c.title() != "Fake session title" {
		t.Errorf("summary: title %q", c.title())
	}
	// A rewind to the first message leaves nothing to resume.
	write(head, msg("u1", "user", "remember PELICAN-4821"), msg("g1", "gemini", "ACK"), map[string]any{"$rewindTo": "u1"})
	if c, _ := readSession(p, false); c.resumable || c.FirstPrompt != "remember PELICAN-4821" {
		t.Errorf("rewound: %+v", c)
	}
	// $set messages replaces the list (a resume appends the whole history).
	write(head, msg("u1", "user", "/help"), map[string]any{"$set": map[string]any{"messages": []any{ctx,
		msg("u2", "user", "hello there")}}})
	if c, _ := readSession(p, true); !c.resumable || len(c.messages) != 2 || c.FirstPrompt != "hello there" {
		t.Errorf("replaced: %+v", c)
	}
	write(map[string]any{"sessionId": "../x", "projectHash": "h"}, msg("u1", "user", "hi"))
	if _, ok := readSession(p, false); ok {
		t.Error("a session of another grammar is read")
	}
}

// TestDiagnose: the doctor warns while session cleanup is on, which
// it is unless a settings file says otherwise (comments and all).
func TestDiagnose(t *testing.T) {
	t.Setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", filepath.Join(t.TempDir(), "none.json"))
	home := t.TempDir()
	note := func() harness.Note {
		n := Agent.Behaviour.(harness.Diagnoser).Diagnose(home)
		if len(n) != 1 || n[0].Name != "gemini.retention" {
			t.Fatalf("notes %+v", n)
		}
		return n[0]
	}
	if n := note(); n.OK || !strings.Contains(n.Detail, `"enabled": false`) || !strings.Contains(n.Detail, filepath.Join(home, "settings.json")) {
		t.Errorf("no settings: %+v", n)
	}
	harnesstest.WriteFile(t, filepath.Join(home, "settings.json"), "{\n  // keep my chats\n  \"general\": {/* off */ \"sessionRetention\": {\"enabled\": false}},\n  \"ui\": {\"theme\": \"a // b\"}\n}\n")
	if n := note(); !n.OK {
		t.Errorf("retention off: %+v", n)
	}
	harnesstest.WriteFile(t, filepath.Join(home, "settings.json"), `{"general":{"sessionRetention":{"enabled":true,"maxAge":"7d"}}}`)
	if n := note(); n.OK {
		t.Errorf("retention on: %+v", n)
	}
}

// The IDs the tests name.
const uid, other = harnesstest.UID, harnesstest.Other
