package claude

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// writeTranscriptAt writes a transcript the way Claude does: metadata lines
// first, then (when prompt is not empty) a user and an assistant line.
func writeTranscriptAt(t testing.TB, home, slug, cwd, id, prompt string, ts time.Time) string {
	t.Helper()
	path := filepath.Join(home, "projects", slug, id+".jsonl")
	data := harnesstest.JSONLine(t, map[string]any{"type": "permission-mode", "permissionMode": "default", "sessionId": id})
	data += harnesstest.JSONLine(t, map[string]any{"type": "file-history-snapshot", "messageId": "m0", "sessionId": id})
	if prompt != "" {
		stamp := ts.UTC().Format("2006-01-02T15:04:05.000Z")
		data += harnesstest.JSONLine(t, map[string]any{"type": "user", "sessionId": id, "cwd": cwd, "timestamp": stamp,
			"message": map[string]any{"role": "user", "content": prompt}})
		data += harnesstest.JSONLine(t, map[string]any{"type": "assistant", "sessionId": id, "cwd": cwd, "timestamp": stamp,
			"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "ACK"}}}})
	}
	harnesstest.WriteFile(t, path, data)
	return path
}

func writeTranscript(t testing.TB, home, cwd, id, prompt string) string {
	return writeTranscriptAt(t, home, projectSlug(cwd), cwd, id, prompt, time.Now())
}

func sessionStart(id, source string) string {
	return `{"session_id":"` + id + `","transcript_path":"/h/.claude/projects/-w/` + id + `.jsonl","cwd":"/w",` +
		`"hook_event_name":"SessionStart","source":"` + source + `","model":"claude-opus"}`
}

func TestParseCapture(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"empty", "", ""},
		{"one", sessionStart(uid, "startup") + "\n", uid},
		{"latest wins after /clear", sessionStart(uid, "startup") + "\n" + sessionStart(other, "clear") + "\n", other},
		{"no trailing newline", sessionStart(uid, "startup"), uid},
		{"other events ignored", sessionStart(uid, "startup") + "\n" +
			`{"session_id":"` + other + `","hook_event_name":"Stop"}` + "\n", uid},
		{"subagent payload ignored", sessionStart(uid, "startup") + "\n" +
			`{"session_id":"` + other + `","hook_event_name":"SessionStart","agent_id":"a1"}` + "\n", uid},
		{"null agent_id still a subagent's", sessionStart(uid, "startup") + "\n" +
			`{"session_id":"` + other + `","hook_event_name":"SessionStart","agent_id":null}` + "\n", uid},
		{"invalid id ignored", sessionStart(uid, "startup") + "\n" + sessionStart(strings.ToUpper(other), "clear") + "\n", uid},
		{"shell text ignored", sessionStart(uid, "startup") + "\n" + sessionStart("x'; rm -rf ~; '", "clear") + "\n", uid},
		{"garbage lines", "not json\n\x00\x01\n" + sessionStart(uid, "resume") + "\n{\"truncated", uid},
		{"crlf", sessionStart(uid, "startup") + "\r\n", uid},
	}
	for _, c := range cases {
		if got := (Agent).ParseCapture([]byte(c.data), harness.Capture{}); got != c.want {
			t.Errorf("%s: ParseCapture = %q, want %q", c.name, got, c.want)
		}
	}
}

func testRun(dir string) harness.Run {
	return harness.Run{
		Capture: filepath.Join(dir, "task-1-1.json"),
		NewID:   func() (string, error) { return pinned, nil },
	}
}

func TestInstrument(t *testing.T) {
	ns := testRun("/run/fc/12-ab")
	capture := harness.EnvCapture + "=/run/fc/12-ab/task-1-1.json"
	hooksOff := ns
	hooksOff.Hooks = harness.HooksOff
	cases := []struct {
		name string
		f    harness.Form
		ns   harness.Run
		want harness.Instrumentation
	}{
		{"claude bare", harness.Form{Tool: "claude"}, ns, harness.Instrumentation{
			Args:   []string{"--session-id", pinned, "--settings", inlineSettings()},
			Env:    []string{capture},
			Pinned: pinned, States: true}},
		{"claude resume", harness.Form{Tool: "claude", Resume: uid}, ns, harness.Instrumentation{
			Args:   []string{"--settings", inlineSettings()},
			Env:    []string{capture},
			Pinned: uid, States: true}},
		{"claude hooks off", harness.Form{Tool: "claude"}, hooksOff, harness.Instrumentation{
			Args:   []string{"--session-id", pinned, "--settings", captureSettings},
			Env:    []string{capture},
			Pinned: pinned}},
	}
	for _, c := range cases {
		got, err := Agent.Instrument(c.f, c.ns)
		if diff := cmp.Diff(c.want, got); err != nil || diff != "" {
			t.Errorf("%s: %v, instrumentation (-want +got):\n%s", c.name, err, diff)
		}
	}
}

// Injected flags never conflict with the user's own.
func TestInstrumentWithOptions(t *testing.T) {
	ns := testRun("/ns")
	in, _ := (Agent).Instrument(harness.Form{Tool: "claude", Options: []string{"--settings", "mine.json"}}, ns)
	if harness.HasOption(in.Args, "--settings") || in.Pinned != pinned {
		t.Errorf("claude with the user's --settings: %q", in.Args)
	}
}

// The printed line, evaluated by a real shell, gives back exactly the argv.
func TestResumeLineEvalWithOptions(t *testing.T) {
	opts := harness.Surviving(Agent, []string{"--permission-mode", "acceptEdits", "--append-system-prompt",
		"it's \"quoted\" $HOME `id` \\ * ünï\nline", "--model=opus", "--resume", other, "-x", "'"})
	line, err := harness.ResumeLine(Agent, "claude", uid, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, shell := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Skipf("%s not installed", shell)
		}
		script := "claude() { printf '%s\\0' \"$@\"; }\n" + line
		out, err := exec.Command(shell, "-c", script).Output()
		if err != nil {
			t.Fatalf("%s: %v", shell, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		want := append([]string{"--resume", uid}, opts...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: argv from %q (-want +got):\n%s", shell, line, diff)
		}
	}
}

func TestScrapeExit(t *testing.T) {
	const (
		esc  = "\x1b"
		dim  = esc + "[2m"
		off  = esc + "[22m"
		rst  = esc + "[0m"
		osc  = esc + "]0;✳ Claude Code\x07"
		home = esc + "[H" + esc + "[2J"
	)
	cases := []struct{ name, tail, want string }{
		{"claude plain", "Resume this session with:\nclaude --resume " + uid + "\n", uid},
		{"claude dim two lines", osc + "\r\n" + dim + "Resume this session with:" + off + "\r\n" +
			dim + "claude --resume " + uid + off + "\r\n" + rst, uid},
		{"claude styled words", dim + "claude" + rst + " " + esc + "[1m--resume" + rst + " " + esc + "[36m" + uid + rst, uid},
		{"claude cursor moves between words", "claude" + esc + "[1C--resume" + esc + "[1C" + uid, uid},
		{"claude hint split over two lines", "Resume this session with: claude --resume\r\n" + uid + "\r\n", uid},
		{"claude last hint wins", "claude --resume " + other + "\n... later ...\nclaude --resume " + uid + "\n", uid},
		{"claude quoted", "claude --resume '" + uid + "'\n", uid},
		{"claude uppercase ignored", "claude --resume " + strings.ToUpper(uid) + "\n", ""},
		{"claude uppercase last falls back to earlier valid", "claude --resume " + uid + "\nclaude --resume " + strings.ToUpper(other), uid},
		{"claude braced ignored", "claude --resume {" + uid + "}\n", ""},
		{"claude id runs on", "claude --resume " + uid + "0\n", ""},
		{"claude id with trailing word", "claude --resume " + uid + "x\n", ""},
		{"claude short id", "claude --resume " + uid[:30] + "\n", ""},
		{"claude other spelling", "claude -r " + uid + "\n", ""},
		{"claude inside another word", "myclaude --resume " + uid + "\n", ""},
		{"claude path program", "/usr/bin/claude --resume " + uid + "\n", uid},
		{"claude never takes codex's", "To continue this session, run:\n  codex resume " + uid + "\n", ""},
		{"claude never takes grok's", "grok --resume " + uid + "\n", ""},
		{"claude truncated escape at start", "38;5;246mclaude --resume " + uid + "\n", uid},
		{"claude truncated bracket escape", "[2mclaude --resume " + uid + "\n", uid},
		{"claude truncated utf8 at start", "\x9c\xa8 claude --resume " + uid + "\n", uid},
		{"claude utf8 around", "✻ Résumé — claude --resume " + uid + " ✓\n", uid},
		{"claude incomplete escape at end", "claude --resume " + uid + "\n" + esc + "[", uid},
		{"claude redraw with cr", "Working…\rclaude --resume " + uid + "\r\n", uid},
		{"claude cleared screen after", "claude --resume " + uid + home, uid},
		{"claude nothing", "Bye!\n", ""},
		{"claude id split by a control byte", "claude --resume " + uid[:30] + "\x04" + uid[30:] + "\n", ""},
		{"claude id styled piece by piece", "claude --resume " + uid[:30] + "\x1b[1m" + uid[30:] + "\n", uid},
		{"claude echoed model", dim + "Resume this session with:" + off + "\r\n" + dim + "claude --model opus --resume " + uid + off + "\r\n", uid},
		{"claude echoed equals and short options", "Resume this session with:\nclaude --model=opus -d --permission-mode default --resume " + uid + "\n", uid},
		{"claude echoed settings path", "Resume this session with:\r\nclaude --settings /run/user/1000/fleetcom/4242-9f3c/claude-settings.json --add-dir /srv/a@b:c+d --resume " + uid + "\r\n", uid},
		{"claude echoed and wrapped inside a word", "Resume this session with:\r\nclaude --append-system-prompt " + strings.Repeat("b", 150) + "\r\n" + strings.Repeat("b", 30) + " --resume " + uid + "\r\n", uid},
		{"claude echoed banner placed by cursor moves", "Resume" + esc + "[1Cthis" + esc + "[1Csession" + esc + "[1Cwith:" + esc + "[2;1Hclaude --model opus --resume " + uid, uid},
		{"claude options without the banner", "claude --model opus --resume " + uid + "\n", ""},
		{"claude options not right under the banner", "Resume this session with:\nrun this: claude --model opus --resume " + uid + "\n", ""},
		{"claude echoed quoted value", "Resume this session with:\nclaude --append-system-prompt 'be brief' --resume " + uid + "\n", ""},
		{"claude echoed shell text", "Resume this session with:\nclaude --x $(touch) --resume " + uid + "\n", ""},
		{"claude echoed line goes on", "Resume this session with:\nclaude --model opus --resume " + uid + " --fork-session\n", ""},
		{"claude echoed after an earlier bare hint", "claude --resume " + other + "\nResume this session with:\nclaude --model opus --resume " + uid + "\n", uid},
		{"claude bare after an echoed hint", "Resume this session with:\nclaude --model opus --resume " + other + "\n/clear\nclaude --resume " + uid + "\n", uid},
		{"claude echoed hint uppercase", "Resume this session with:\nclaude --model opus --resume " + strings.ToUpper(uid) + "\n", ""},
	}
	for _, c := range cases {
		if got := Agent.ScrapeExit([]byte(c.tail)); got != c.want {
			t.Errorf("%s: ScrapeExit = %q, want %q (plain %q)", c.name, got, c.want, harness.PlainText([]byte(c.tail)))
		}
	}
}

// A conversation's last activity is its last message as its store dates
// it, however long the lines after it and whatever its file's time says
// (issue 21, item 12).
func TestLastActive(t *testing.T) {
	home := t.TempDir()
	cwd := "/work/proj"
	id := harnesstest.UUID(t)
	when := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	path := writeTranscriptAt(t, home, projectSlug(cwd), cwd, id, "nine days old", when)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "assistant", "sessionId": id, "cwd": cwd,
		"timestamp": when.Add(time.Minute).Format(time.RFC3339Nano), "message": map[string]any{"role": "assistant", "content": "ok"}}))
	// A long line after it (a snapshot, a summary) with no message.
	f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "file-history-snapshot", "snapshot": strings.Repeat("x", 200<<10)}))
	f.WriteString(`{"type":"user","timestamp":"2030-01-01T00:00:00Z"`) // being written: no newline yet
	f.Close()
	os.Chtimes(path, time.Now(), time.Now())
	claude := Agent
	if got := harness.LastActive(claude, home, cwd, id); !got.Equal(when.Add(time.Minute)) {
		t.Errorf("claude: %v, want %v", got, when.Add(time.Minute))
	}
	if got := harness.LastActive(claude, home, "/elsewhere", id); !got.IsZero() {
		t.Errorf("claude, another directory: %v", got)
	}
}

// The IDs the tests name.
const uid, other, pinned = harnesstest.UID, harnesstest.Other, harnesstest.Pinned

// Claude Code writes the checkout's branch on each message line (measured
// on 2.1.197): the last one is the conversation's; "HEAD" is what a
// detached checkout, or none, gives, and is passed on as written.
func TestBranch(t *testing.T) {
	home, cwd := t.TempDir(), "/src/app-login"
	id := harnesstest.UUID(t)
	path := writeTranscript(t, home, cwd, id, "")
	line := func(branch string) string {
		return harnesstest.JSONLine(t, map[string]any{"parentUuid": nil, "isSidechain": false, "type": "user",
			"message": map[string]any{"role": "user", "content": "hi"}, "uuid": harnesstest.UUID(t),
			"timestamp": "2026-12-06T10:10:42.587Z", "userType": "external", "entrypoint": "cli", "cwd": cwd,
			"sessionId": id, "version": "2.1.197", "gitBranch": branch})
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(line("main") + line("wt/branch"))
	f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "file-history-snapshot", "snapshot": "x"}))
	f.Close()
	if got := Agent.Branch(home, cwd, id); got != "wt/branch" {
		t.Errorf("Branch = %q, want wt/branch", got)
	}
	if got := Agent.Branch(home, "/elsewhere", id); got != "" {
		t.Errorf("Branch of another directory = %q", got)
	}
	plain := harnesstest.UUID(t)
	writeTranscript(t, home, cwd, plain, "hello")
	if got := Agent.Branch(home, cwd, plain); got != "" {
		t.Errorf("Branch without gitBranch = %q", got)
	}
}
