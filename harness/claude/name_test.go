package claude

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// namingLines is what Claude writes when a conversation is named: a
// custom-title line, then an agent-name line (2.1.197 and 2.1.332).
func namingLines(t testing.TB, id, name string) string {
	return harnesstest.JSONLine(t, map[string]any{"type": "custom-title", "customTitle": name, "sessionId": id}) +
		harnesstest.JSONLine(t, map[string]any{"type": "agent-name", "agentName": name, "sessionId": id})
}

func TestName(t *testing.T) {
	home, cwd := t.TempDir(), "/p/named"
	a := Agent

	plain := harnesstest.UUID(t)
	writeTranscript(t, home, cwd, plain, "hello")
	if got := a.ConversationName(home, cwd, plain); got != "" {
		t.Errorf("a conversation never named: name %q", got)
	}

	// --name at launch: the lines come first, before the prompt.
	launched := harnesstest.UUID(t)
	path := filepath.Join(home, "projects", projectSlug(cwd), launched+".jsonl")
	harnesstest.WriteFile(t, path, namingLines(t, launched, "my-feature"))
	harnesstest.AppendFile(t, path, harnesstest.JSONLine(t, map[string]any{"type": "user", "sessionId": launched, "cwd": cwd,
		"message": map[string]any{"role": "user", "content": "hi"}}))
	if got := a.ConversationName(home, cwd, launched); got != "my-feature" {
		t.Errorf("named at launch: %q, want my-feature", got)
	}

	// A long conversation renamed later: the head still has the old name,
	// the tail the new one, and the tail wins.
	harnesstest.AppendFile(t, path, strings.Repeat(harnesstest.JSONLine(t, map[string]any{"type": "assistant", "sessionId": launched, "cwd": cwd,
		"message": map[string]any{"role": "assistant", "content": strings.Repeat("x", 1000)}}), 200))
	harnesstest.AppendFile(t, path, namingLines(t, launched, "renamed\tthing"))
	if got := a.ConversationName(home, cwd, launched); got != "renamed thing" {
		t.Errorf("renamed: %q, want the latest name, cleaned", got)
	}
	// A line still being written is not read.
	harnesstest.AppendFile(t, path, `{"type":"custom-title","customTitle":"half`)
	if got := a.ConversationName(home, cwd, launched); got != "renamed thing" {
		t.Errorf("with a half-written line: %q", got)
	}
	// A long conversation named only at launch keeps that name.
	head := harnesstest.UUID(t)
	hp := filepath.Join(home, "projects", projectSlug(cwd), head+".jsonl")
	harnesstest.WriteFile(t, hp, namingLines(t, head, "at launch"))
	harnesstest.AppendFile(t, hp, strings.Repeat(harnesstest.JSONLine(t, map[string]any{"type": "assistant", "sessionId": head, "cwd": cwd,
		"message": map[string]any{"role": "assistant", "content": strings.Repeat("y", 1000)}}), 200))
	if got := a.ConversationName(home, cwd, head); got != "at launch" {
		t.Errorf("named at launch, long since: %q", got)
	}
	if got := a.ConversationName(home, cwd, "not-an-id"); got != "" {
		t.Errorf("an invalid ID has a name: %q", got)
	}
}

// Claude Code 2.1.197 names a named conversation by its name in the exit
// hint: the banner is there, no ID is, and that is not drift.
func TestHintByName(t *testing.T) {
	a := Agent
	id := harnesstest.UUID(t)
	for _, c := range []struct {
		name, tail     string
		byName, banner bool
	}{
		{"by name", "● ACK\r\n\x1b[2mResume this session with:\x1b[22m\r\n\x1b[2mclaude --resume \"wren work\"\x1b[22m\r\n", true, false},
		{"by ID", "\x1b[2mResume this session with:\x1b[22m\r\n\x1b[2mclaude --resume " + id + "\x1b[22m\r\n", false, true},
		{"nothing readable", "Resume this session with:\r\nclaude --resume \r\n", false, true},
		{"a name, then an ID later", "Resume this session with:\r\nclaude --resume \"x\"\r\nResume this session with:\r\nclaude --resume " + id + "\r\n", false, true},
		{"no banner", "claude --resume \"wren work\"\r\n", false, false},
	} {
		if got := a.Behaviour.(harness.HintNamer).HintByName([]byte(c.tail)); got != c.byName {
			t.Errorf("%s: HintByName %v, want %v", c.name, got, c.byName)
		}
		if got := a.ExitBanner([]byte(c.tail)); got != c.banner {
			t.Errorf("%s: ExitBanner %v, want %v", c.name, got, c.banner)
		}
	}
}
