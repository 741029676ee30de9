package harness

import (
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
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

func codexNotify(id string) string {
	return `{"type":"agent-turn-complete","thread-id":"` + id + `","turn-id":"t1","cwd":"/w","client":"codex-tui",` +
		`"input-messages":["hi"],"last-assistant-message":"ACK $(rm -rf ~)"}`
}

func TestCodexParseCapture(t *testing.T) {
	home := t.TempDir()
	now := time.Now()
	main := harnesstest.V7At(now)
	side := harnesstest.V7At(now.Add(time.Second)) // title-generation thread: no rollout
	sub := harnesstest.V7At(now.Add(2 * time.Second))
	later := harnesstest.V7At(now.Add(3 * time.Second))
	sideLater := harnesstest.V7At(now.Add(4 * time.Second)) // later's title thread
	writeRollout(t, home, main, "/w", false, "hello")
	writeRollout(t, home, sub, "/w", true, "")
	writeRollout(t, home, later, "/w", false, "again")
	cases := []struct {
		name, data, want string
	}{
		{"empty", "", ""},
		{"first turn notifies twice", codexNotify(main) + "\n" + codexNotify(side) + "\n", main},
		// Under load the title thread can finish first (measured): the
		// order of the two says nothing.
		{"title thread first", codexNotify(side) + "\n" + codexNotify(main) + "\n", main},
		{"title thread first after a switch", codexNotify(main) + "\n" + codexNotify(side) + "\n" + codexNotify(sideLater) + "\n" + codexNotify(later) + "\n", later},
		{"title thread last after a switch", codexNotify(main) + "\n" + codexNotify(later) + "\n" + codexNotify(sideLater) + "\n", later},
		{"subagent thread skipped", codexNotify(main) + "\n" + codexNotify(sub) + "\n", main},
		{"switched thread followed", codexNotify(main) + "\n" + codexNotify(side) + "\n" + codexNotify(later) + "\n", later},
		{"only the side thread", codexNotify(side) + "\n", ""},
		{"other types ignored", `{"type":"approval-requested","thread-id":"` + later + `"}` + "\n" + codexNotify(main), main},
		{"uppercase ignored", codexNotify(main) + "\n" + codexNotify(strings.ToUpper(later)) + "\n", main},
		{"garbage", "\x00garbage\n" + codexNotify(main) + "\n{", main},
	}
	for _, c := range cases {
		if got := (codexA()).ParseCapture([]byte(c.data), Capture{Home: home}); got != c.want {
			t.Errorf("%s: ParseCapture = %q, want %q", c.name, got, c.want)
		}
	}
}
