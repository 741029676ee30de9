package harness

import (
	"strings"
	"testing"
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
		if got := (claudeA()).ParseCapture([]byte(c.data), Capture{}); got != c.want {
			t.Errorf("%s: ParseCapture = %q, want %q", c.name, got, c.want)
		}
	}
}
