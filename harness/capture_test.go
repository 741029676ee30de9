package harness

import (
	"strings"
	"testing"
	"time"
)

func claudeStart(id, source string) string {
	return `{"session_id":"` + id + `","transcript_path":"/h/.claude/projects/-w/` + id + `.jsonl","cwd":"/w",` +
		`"hook_event_name":"SessionStart","source":"` + source + `","model":"claude-opus"}`
}

func TestClaudeParseCapture(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"empty", "", ""},
		{"one", claudeStart(uid, "startup") + "\n", uid},
		{"latest wins after /clear", claudeStart(uid, "startup") + "\n" + claudeStart(other, "clear") + "\n", other},
		{"no trailing newline", claudeStart(uid, "startup"), uid},
		{"other events ignored", claudeStart(uid, "startup") + "\n" +
			`{"session_id":"` + other + `","hook_event_name":"Stop"}` + "\n", uid},
		{"subagent payload ignored", claudeStart(uid, "startup") + "\n" +
			`{"session_id":"` + other + `","hook_event_name":"SessionStart","agent_id":"a1"}` + "\n", uid},
		{"null agent_id still a subagent's", claudeStart(uid, "startup") + "\n" +
			`{"session_id":"` + other + `","hook_event_name":"SessionStart","agent_id":null}` + "\n", uid},
		{"invalid id ignored", claudeStart(uid, "startup") + "\n" + claudeStart(strings.ToUpper(other), "clear") + "\n", uid},
		{"shell text ignored", claudeStart(uid, "startup") + "\n" + claudeStart("x'; rm -rf ~; '", "clear") + "\n", uid},
		{"garbage lines", "not json\n\x00\x01\n" + claudeStart(uid, "resume") + "\n{\"truncated", uid},
		{"crlf", claudeStart(uid, "startup") + "\r\n", uid},
	}
	for _, c := range cases {
		if got := (claudeA()).ParseCapture([]byte(c.data), ""); got != c.want {
			t.Errorf("%s: ParseCapture = %q, want %q", c.name, got, c.want)
		}
	}
}

func codexNotify(id string) string {
	return `{"type":"agent-turn-complete","thread-id":"` + id + `","turn-id":"t1","cwd":"/w","client":"codex-tui",` +
		`"input-messages":["hi"],"last-assistant-message":"ACK $(rm -rf ~)"}`
}

func TestCodexParseCapture(t *testing.T) {
	home := t.TempDir()
	now := time.Now()
	main := v7At(now)
	side := v7At(now.Add(time.Second)) // title-generation thread: no rollout
	sub := v7At(now.Add(2 * time.Second))
	later := v7At(now.Add(3 * time.Second))
	writeRollout(t, home, main, "/w", false, "hello")
	writeRollout(t, home, sub, "/w", true, "")
	writeRollout(t, home, later, "/w", false, "again")
	cases := []struct {
		name, data, want string
	}{
		{"empty", "", ""},
		{"first turn notifies twice", codexNotify(main) + "\n" + codexNotify(side) + "\n", main},
		{"subagent thread skipped", codexNotify(main) + "\n" + codexNotify(sub) + "\n", main},
		{"switched thread followed", codexNotify(main) + "\n" + codexNotify(side) + "\n" + codexNotify(later) + "\n", later},
		{"only the side thread", codexNotify(side) + "\n", ""},
		{"other types ignored", `{"type":"approval-requested","thread-id":"` + later + `"}` + "\n" + codexNotify(main), main},
		{"uppercase ignored", codexNotify(main) + "\n" + codexNotify(strings.ToUpper(later)) + "\n", main},
		{"garbage", "\x00garbage\n" + codexNotify(main) + "\n{", main},
	}
	for _, c := range cases {
		if got := (codexA()).ParseCapture([]byte(c.data), home); got != c.want {
			t.Errorf("%s: ParseCapture = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestGrokParseCapture(t *testing.T) {
	if got := (grokA()).ParseCapture([]byte(claudeStart(uid, "startup")), ""); got != "" {
		t.Errorf("grok has no capture channel, got %q", got)
	}
}
