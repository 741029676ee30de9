package harness

import (
	"fmt"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// Grok's live channel is its own active_sessions.json, shared by every
// Grok of the home: the session the run's process has open, else the one
// opened in the run's directory since the run began by a process under the
// run's child; never another Grok's that happens to share the directory.
func TestGrokParseCapture(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	c := Capture{PID: 4242, Cwd: "/w/proj", Started: at}
	entry := func(id string, pid int, opened string) string {
		return `{"session_id":"` + id + `","pid":` + strconv.Itoa(pid) + `,"cwd":"/w/proj","opened_at":"` + opened + `"}`
	}
	list := "[" + entry(other, 1, "2026-12-01T09:00:00Z") + "," + entry(uid, 4242, "2026-12-01T10:00:01Z") + "]"
	if got := grokA().ParseCapture([]byte(list), c); got != uid {
		t.Errorf("by pid: %q", got)
	}

	// The run's child is a shell (this test process) that started grok (a
	// real child of it): matched by directory, time and descent.
	grok := exec.Command("sleep", "30")
	if err := grok.Start(); err != nil {
		t.Fatal(err)
	}
	defer grok.Process.Kill()
	c.PID = os.Getpid()
	list = "[" + entry(other, 1, "2026-12-01T10:00:02Z") + "," + entry(uid, grok.Process.Pid, "2026-12-01T10:00:01Z") + "]"
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		if got := grokA().ParseCapture([]byte(list), c); got != uid {
			t.Errorf("by directory, time and descent: %q", got)
		}
		second := exec.Command("sleep", "30")
		if err := second.Start(); err != nil {
			t.Fatal(err)
		}
		defer second.Process.Kill()
		two := "[" + entry(other, second.Process.Pid, "2026-12-01T10:00:02Z") + "," + entry(uid, grok.Process.Pid, "2026-12-01T10:00:01Z") + "]"
		if got := grokA().ParseCapture([]byte(two), c); got != "" {
			t.Errorf("two candidates: %q, want no guess", got)
		}
	}
	// Another Grok in the same directory, opened since the run began, not
	// under the run's child: never this run's.
	c.PID = grok.Process.Pid
	alone := "[" + entry(other, os.Getpid(), "2026-12-01T10:00:02Z") + "]"
	if got := grokA().ParseCapture([]byte(alone), c); got != "" {
		t.Errorf("another process's session taken: %q", got)
	}
	if got := grokA().ParseCapture([]byte(list), Capture{Cwd: "/w/proj", Started: at}); got != "" {
		t.Errorf("a child not yet started was given %q", got)
	}
	for _, bad := range []string{claudeStart(uid, "startup"), `[{"session_id":"$(rm -rf ~)","pid":4242}]`, "not json", `{"a":1}`} {
		if got := grokA().ParseCapture([]byte(bad), Capture{PID: 4242}); got != "" {
			t.Errorf("ParseCapture(%.30q) = %q", bad, got)
		}
	}
}

// A preview shows the start and the end of a conversation, the user's
// prompts and the answers, never an agent's own context lines.
func TestExcerpts(t *testing.T) {
	home := t.TempDir()
	id := harnesstest.UUID(t)
	dir := writeGrokSession(t, home, "/w", id, "first prompt")
	for i := 0; i < 5; i++ {
		f, _ := os.OpenFile(filepath.Join(dir, "chat_history.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "user", "content": fmt.Sprintf("<user_query>\nprompt %d\n</user_query>", i), "prompt_index": i + 1}))
		f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "assistant", "content": fmt.Sprintf("answer %d", i)}))
		f.Close()
	}
	x := grokA().Excerpt(home, "/w", id, 2, 2)
	got := fmt.Sprint(x.First, x.Last, x.Total)
	want := "[{user first prompt} {assistant ACK}] [{user prompt 4} {assistant answer 4}] 12"
	if got != want {
		t.Errorf("Excerpt = %s, want %s", got, want)
	}
	if x := grokA().Excerpt(home, "/w", harnesstest.UUID(t), 2, 2); x.Total != 0 {
		t.Errorf("an unknown session: %+v", x)
	}
}
