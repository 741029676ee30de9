package grok

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// testRun is what a run gets: its capture file in dir, and a fixed pinned
// ID.
func testRun(dir string) harness.Run {
	return harness.Run{Capture: filepath.Join(dir, "task-1-1.json"), NewID: func() (string, error) { return pinned, nil }}
}

// fakeBinary writes an executable script that prints help.
func fakeBinary(t *testing.T, help string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "grok")
	if err := testexec.WriteFile(p, []byte("#!/bin/sh\nprintf '%s\\n' '"+help+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeSession writes a Grok session directory as Grok 1.0.41 does: at
// start a summary and a history holding the system lines; with a prompt,
// Grok's <user_info> context first, then the prompt wrapped in
// <user_query>, and the update log. An empty prompt is a session quit
// before its first one.
func writeSession(t testing.TB, home, cwd, id, prompt string) string {
	t.Helper()
	dir := filepath.Join(home, "sessions", dirName(cwd), id)
	n := 0
	history := harnesstest.JSONLine(t, map[string]any{"type": "system", "content": "You are Grok."}) +
		harnesstest.JSONLine(t, map[string]any{"type": "user", "content": "<system-reminder>workflows</system-reminder>", "synthetic_reason": "system_reminder"})
	if prompt != "" {
		n = 3
		history += harnesstest.JSONLine(t, map[string]any{"type": "user", "content": "<user_info>\nOS Version: linux\nWorkspace Path: " + cwd + "\n</user_info>\n\n<rules>…"}) +
			harnesstest.JSONLine(t, map[string]any{"type": "user", "content": "<user_query>\n" + prompt + "\n</user_query>", "prompt_index": 0}) +
			harnesstest.JSONLine(t, map[string]any{"type": "assistant", "content": "ACK", "model_id": "fake-model"})
		harnesstest.WriteFile(t, filepath.Join(dir, "updates.jsonl"), harnesstest.JSONLine(t, map[string]any{"method": "session/update", "params": map[string]any{
			"sessionId": id, "update": map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": prompt}}}}))
	}
	harnesstest.WriteFile(t, filepath.Join(dir, "summary.json"), harnesstest.JSONLine(t, map[string]any{
		"info": map[string]any{"id": id, "cwd": cwd}, "created_at": "2026-12-01T10:00:00.000Z", "num_messages": n}))
	harnesstest.WriteFile(t, filepath.Join(dir, "chat_history.jsonl"), history)
	return dir
}

// Grok's live channel is its own active_sessions.json, shared by every
// Grok of the home: the session the run's process has open, else the one
// opened in the run's directory since the run began by a process under the
// run's child; never another Grok's that happens to share the directory.
func TestParseCapture(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	c := harness.Capture{PID: 4242, Cwd: "/w/proj", Started: at}
	entry := func(id string, pid int, opened string) string {
		return `{"session_id":"` + id + `","pid":` + strconv.Itoa(pid) + `,"cwd":"/w/proj","opened_at":"` + opened + `"}`
	}
	list := "[" + entry(other, 1, "2026-12-01T09:00:00Z") + "," + entry(uid, 4242, "2026-12-01T10:00:01Z") + "]"
	if got := Agent.ParseCapture([]byte(list), c); got != uid {
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
		if got := Agent.ParseCapture([]byte(list), c); got != uid {
			t.Errorf("by directory, time and descent: %q", got)
		}
		second := exec.Command("sleep", "30")
		if err := second.Start(); err != nil {
			t.Fatal(err)
		}
		defer second.Process.Kill()
		two := "[" + entry(other, second.Process.Pid, "2026-12-01T10:00:02Z") + "," + entry(uid, grok.Process.Pid, "2026-12-01T10:00:01Z") + "]"
		if got := Agent.ParseCapture([]byte(two), c); got != "" {
			t.Errorf("two candidates: %q, want no guess", got)
		}
	}
	// Another Grok in the same directory, opened since the run began, not
	// under the run's child: never this run's.
	c.PID = grok.Process.Pid
	alone := "[" + entry(other, os.Getpid(), "2026-12-01T10:00:02Z") + "]"
	if got := Agent.ParseCapture([]byte(alone), c); got != "" {
		t.Errorf("another process's session taken: %q", got)
	}
	if got := Agent.ParseCapture([]byte(list), harness.Capture{Cwd: "/w/proj", Started: at}); got != "" {
		t.Errorf("a child not yet started was given %q", got)
	}
	for _, bad := range []string{`{"session_id":"` + uid + `","hook_event_name":"SessionStart","source":"startup"}`, `[{"session_id":"$(rm -rf ~)","pid":4242}]`, "not json", `{"a":1}`} {
		if got := Agent.ParseCapture([]byte(bad), harness.Capture{PID: 4242}); got != "" {
			t.Errorf("ParseCapture(%.30q) = %q", bad, got)
		}
	}
}

// A preview shows the start and the end of a conversation, the user's
// prompts and the answers, never an agent's own context lines.
func TestExcerpts(t *testing.T) {
	home := t.TempDir()
	id := harnesstest.UUID(t)
	dir := writeSession(t, home, "/w", id, "first prompt")
	for i := 0; i < 5; i++ {
		f, _ := os.OpenFile(filepath.Join(dir, "chat_history.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "user", "content": fmt.Sprintf("<user_query>\nprompt %d\n</user_query>", i), "prompt_index": i + 1}))
		f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "assistant", "content": fmt.Sprintf("answer %d", i)}))
		f.Close()
	}
	x := Agent.Excerpt(home, "/w", id, 2, 2)
	got := fmt.Sprint(x.First, x.Last, x.Total)
	want := "[{user first prompt} {assistant ACK}] [{user prompt 4} {assistant answer 4}] 12"
	if got != want {
		t.Errorf("Excerpt = %s, want %s", got, want)
	}
	if x := Agent.Excerpt(home, "/w", harnesstest.UUID(t), 2, 2); x.Total != 0 {
		t.Errorf("an unknown session: %+v", x)
	}
}

func TestStore(t *testing.T) {
	home := t.TempDir()
	cwd := "/work/100%/proj"
	if got := dirName(cwd); got != "%2Fwork%2F100%25%2Fproj" {
		t.Fatalf("dirName = %q", got)
	}
	spawn := time.Now()
	id := harnesstest.UUID(t)
	writeSession(t, home, cwd, id, "hello grok")
	os.WriteFile(filepath.Join(home, "sessions", dirName(cwd), "prompt_history"), []byte("x"), 0o644)
	h := Agent
	if !h.Exists(home, cwd, id) || h.Exists(home, cwd, harnesstest.UUID(t)) {
		t.Error("Exists is wrong")
	}
	// A record's check looks where its directory says (issue 21, item 6).
	if h.Exists(home, "/moved", id) || !h.Exists(home, "", id) {
		t.Error("Exists looks beyond the directory's folder, or not at all without one")
	}
	if got := h.Title(home, cwd, id); got != "hello grok" {
		t.Errorf("Title = %q", got)
	}
	if got := h.Correlate(home, cwd, spawn); got != id {
		t.Errorf("Correlate = %q, want %q", got, id)
	}
	writeSession(t, home, cwd, harnesstest.UUID(t), "")
	if got := h.Correlate(home, cwd, spawn); got != id {
		t.Errorf("an empty session must not count, got %s", got)
	}
	writeSession(t, home, cwd, harnesstest.UUID(t), "second")
	if got := h.Correlate(home, cwd, spawn); got != "" {
		t.Errorf("two candidates must give no match, got %s", got)
	}
}

// Grok's last activity is summary.json's last_active_at (issue 21, item
// 12).
func TestLastActive(t *testing.T) {
	cwd := "/work/proj"
	grokHome := t.TempDir()
	gid := harnesstest.UUID(t)
	dir := writeSession(t, grokHome, cwd, gid, "hi")
	os.WriteFile(filepath.Join(dir, "summary.json"), []byte(`{"info":{"id":"`+gid+`","cwd":"`+cwd+`"},"num_messages":3,"last_active_at":"2026-11-21T10:00:00Z"}`), 0o644)
	if got, want := harness.LastActive(Agent, grokHome, cwd, gid), time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("grok: %v, want %v", got, want)
	}
}

func TestInstrument(t *testing.T) {
	ns := testRun("/run/fc/12-ab")
	// Which grok it is comes from its install, never from running it: a
	// binary that would answer --help with --session-id is not asked.
	community := ns
	community.Binary = fakeBinary(t, "  -s, --session-id <UUID>")
	official := ns
	official.Binary = harnesstest.NPMBinary(t, xaiPackage, "grok", "1.0.41")
	cases := []struct {
		name string
		f    harness.Form
		ns   harness.Run
		want harness.Instrumentation
	}{
		{"grok bare", harness.Form{Tool: "grok"}, ns, harness.Instrumentation{
			Args: []string{"--session-id", pinned}, Pinned: pinned}},
		{"grok resume", harness.Form{Tool: "grok", Resume: uid}, ns, harness.Instrumentation{Pinned: uid}},
		{"community grok", harness.Form{Tool: "grok"}, community, harness.Instrumentation{}},
		{"official grok", harness.Form{Tool: "grok"}, official, harness.Instrumentation{
			Args: []string{"--session-id", pinned}, Pinned: pinned}},
	}
	for _, c := range cases {
		got, err := Agent.Instrument(c.f, c.ns)
		if diff := cmp.Diff(c.want, got); err != nil || diff != "" {
			t.Errorf("%s: %v, instrumentation (-want +got):\n%s", c.name, err, diff)
		}
	}
}

func TestScrapeExit(t *testing.T) {
	cases := []struct{ name, tail, want string }{
		{"grok long", "grok --resume " + uid + "\n", uid},
		{"grok short", "To resume: grok -r " + uid + "\n", uid},
		{"grok never takes claude's", "claude --resume " + uid + "\n", ""},
	}
	for _, c := range cases {
		if got := Agent.ScrapeExit([]byte(c.tail)); got != c.want {
			t.Errorf("%s: ScrapeExit = %q, want %q (plain %q)", c.name, got, c.want, harness.PlainText([]byte(c.tail)))
		}
	}
}

// The IDs the tests name.
const uid, other, pinned = harnesstest.UID, harnesstest.Other, harnesstest.Pinned
