package copilot

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// only finds this agent by name, as the list would.
func only(name string) (harness.Agent, bool) { return Agent, name == spec.Name }

// fixture writes a session folder the way Copilot 1.0.102 does:
// workspace.yaml at once, events.jsonl (session.start, then a prompt and an
// answer) only when there is a prompt. ws is workspace.yaml's text, "" for
// the plain one naming cwd.
func fixture(t testing.TB, home, cwd, id, prompt, ws string, at time.Time) string {
	t.Helper()
	dir := filepath.Join(home, "session-state", id)
	if ws == "" {
		ws = "id: " + id + "\ncwd: " + cwd + "\nclient_name: github/cli\n"
		if prompt != "" {
			ws += "name: " + prompt + "\n"
		}
		ws += "user_named: false\nsummary_count: 0\ncreated_at: 2026-12-02T00:57:11.380Z\n"
	}
	harnesstest.WriteFile(t, filepath.Join(dir, "workspace.yaml"), ws)
	harnesstest.WriteFile(t, filepath.Join(dir, "checkpoints", "index.md"), "# Checkpoint History\n")
	if prompt == "" {
		return dir
	}
	stamp := at.UTC().Format("2006-01-02T15:04:05.000Z")
	events := harnesstest.JSONLine(t, map[string]any{"type": "session.start", "data": map[string]any{
		"sessionId": id, "version": 1, "producer": "copilot-agent", "copilotVersion": "1.0.102", "startTime": stamp,
		"context": map[string]any{"cwd": cwd}}, "id": harnesstest.UUID(t), "timestamp": stamp, "parentId": nil}) +
		harnesstest.JSONLine(t, map[string]any{"type": "hook.start", "data": map[string]any{"hookType": "sessionStart",
			"input": map[string]any{"sessionId": id, "cwd": cwd, "source": "new"}}, "timestamp": stamp}) +
		harnesstest.JSONLine(t, map[string]any{"type": "user.message", "data": map[string]any{"content": prompt,
			"transformedContent": "<current_datetime>" + stamp + "</current_datetime>\n\n" + prompt}, "timestamp": stamp}) +
		harnesstest.JSONLine(t, map[string]any{"type": "system.message", "data": map[string]any{"role": "system",
			"content": "You are the GitHub Copilot CLI.\n* Current working directory: " + cwd + "\n"}, "timestamp": stamp}) +
		harnesstest.JSONLine(t, map[string]any{"type": "assistant.message", "data": map[string]any{"content": "ACK " + prompt}, "timestamp": stamp}) +
		harnesstest.JSONLine(t, map[string]any{"type": "session.shutdown", "data": map[string]any{}, "timestamp": stamp})
	harnesstest.WriteFile(t, filepath.Join(dir, "events.jsonl"), events)
	past := at.Add(time.Second)
	os.Chtimes(filepath.Join(dir, "events.jsonl"), past, past)
	return dir
}

// The accepted forms: the bare command and --resume=<id>, joined, as
// Copilot prints it; other spellings are opaque. The canonical line quotes
// the ID after the '=', and `fleetcom run` takes that line back.
func TestForms(t *testing.T) {
	a := Agent
	for _, c := range []struct {
		args   []string
		ok     bool
		resume string
	}{
		{nil, true, ""},
		{[]string{"--resume=" + uid}, true, uid},
		{[]string{"--resume", uid}, false, ""},
		{[]string{"-r", uid}, false, ""},
		{[]string{"--resume=" + strings.ToUpper(uid)}, false, ""},
		{[]string{"--resume=" + uid[:8]}, false, ""},
		{[]string{"--resume="}, false, ""},
		{[]string{"--resume"}, false, ""},
		{[]string{"--session-id", uid}, false, ""},
		{[]string{"-p", "hi"}, false, ""},
		{[]string{"--resume=" + uid, "-p", "x"}, false, ""},
	} {
		f, ok := a.Detect(c.args)
		if ok != c.ok || f.Resume != c.resume {
			t.Errorf("Detect(%q) = %+v, %v; want resume %q, %v", c.args, f, ok, c.resume, c.ok)
		}
	}
	line, err := harness.ResumeLine(a, "", uid, nil)
	if want := "copilot --resume='" + uid + "'"; err != nil || line != want {
		t.Fatalf("ResumeLine = %q, %v; want %q", line, err, want)
	}
	// What a shell reads as --resume=<id>: the canonical line, the ID bare,
	// the whole word quoted.
	for _, s := range []string{line, "copilot --resume=" + uid, "/opt/bin/copilot --resume='" + uid + "'", "copilot '--resume=" + uid + "'"} {
		got, f, ok := harness.DetectCommand(s, only)
		if !ok || got.Name != "copilot" || f.Resume != uid {
			t.Errorf("DetectCommand(%q) = %s %+v %v", s, got.Name, f, ok)
		}
	}
	for _, s := range []string{"copilot --resume '" + uid + "'", "copilot --resume=\"" + uid + "\"", "copilot --resume=''" + uid + "''",
		"copilot --resume='" + uid, "copilot --resume=x'" + uid + "'"} {
		if _, _, ok := harness.DetectCommand(s, only); ok {
			t.Errorf("DetectCommand(%q) accepted", s)
		}
	}
	if _, err := harness.ResumeLine(a, "", "../x", nil); err == nil {
		t.Error("ResumeLine took an ID outside the grammar")
	}
}

func TestInstrument(t *testing.T) {
	home := t.TempDir()
	plugin := "/run/fleetcom/copilot-plugin-0a1b2c3d4e5f/plugin.json"
	capture := "/run/fleetcom/copilot-capture-5f4e3d2c1b0a/plugin.json"
	run := harness.Run{Home: home, Capture: "/run/fleetcom/1-x/task.json",
		Assets: map[string]string{pluginAsset: plugin, captureAsset: capture},
		NewID:  func() (string, error) { return uid, nil }}
	a := Agent

	in, err := a.Instrument(harness.Form{Tool: "copilot"}, run)
	want := []string{"--plugin-dir", filepath.Dir(plugin), "--session-id", uid}
	if err != nil || !slices.Equal(in.Args, want) || in.Pinned != uid || !in.States ||
		!slices.Equal(in.Env, []string{harness.EnvCapture + "=" + run.Capture}) {
		t.Errorf("bare: %+v, %v; want args %q", in, err, want)
	}
	in, err = a.Instrument(harness.Form{Tool: "copilot", Resume: other}, run)
	if err != nil || !slices.Equal(in.Args, []string{"--plugin-dir", filepath.Dir(plugin)}) || in.Pinned != other {
		t.Errorf("resume: %+v, %v", in, err)
	}
	if _, err := a.Instrument(harness.Form{Tool: "copilot", Resume: "nope"}, run); err == nil {
		t.Error("a resume of an ID outside the grammar was instrumented")
	}
	off := run
	off.Hooks = harness.HooksOff
	in, _ = a.Instrument(harness.Form{Tool: "copilot"}, off)
	if !slices.Equal(in.Args[:2], []string{"--plugin-dir", filepath.Dir(capture)}) || in.States {
		t.Errorf("hooks off: %+v, want the capture plugin and no states", in)
	}

	// --session-id resumes a session that exists: an ID in use is never
	// pinned, a fresh one is.
	fixture(t, home, "/p", uid, "", "", time.Now())
	ids := []string{uid, other}
	run.NewID = func() (string, error) { id := ids[0]; ids = ids[1:]; return id, nil }
	in, _ = a.Instrument(harness.Form{Tool: "copilot"}, run)
	if in.Pinned != other || !slices.Contains(in.Args, other) || slices.Contains(in.Args, uid) {
		t.Errorf("with %s in use: %+v, want %s pinned", uid, in, other)
	}
	run.NewID = func() (string, error) { return uid, nil }
	in, err = a.Instrument(harness.Form{Tool: "copilot"}, run)
	if err != nil || in.Pinned != "" || slices.Contains(in.Args, "--session-id") || in.Env == nil {
		t.Errorf("only IDs in use: %+v, %v; want no pinned ID, the plugin still", in, err)
	}
	// No namespace assets (a runtime root that could not be used): the
	// run is pinned, not hooked.
	in, _ = a.Instrument(harness.Form{Tool: "copilot"}, harness.Run{Home: t.TempDir()})
	if slices.Contains(in.Args, "--plugin-dir") || in.Env != nil || in.States || in.Pinned == "" {
		t.Errorf("without assets: %+v", in)
	}
}

func TestParseCapture(t *testing.T) {
	a := Agent
	data := `{"hook_event_name":"SessionStart","session_id":"` + uid + `"}
{"hook_event_name":"UserPromptSubmit"}
{"hook_event_name":"SessionEnd","session_id":"` + uid + `","reason":"user_exit"}
{"hook_event_name":"SessionStart","session_id":"` + other + `"}
{"hook_event_name":"SessionStart","session_id":"../../etc"}
{"hook_event_name":"SessionStart","session_id":"` + strings.ToUpper(uid) + `"}
{"hook_event_name":"Stop","session_id":"` + uid + `"}
`
	if got := a.ParseCapture([]byte(data), harness.Capture{}); got != other {
		t.Errorf("ParseCapture = %q, want the latest SessionStart %s", got, other)
	}
	if got := a.ParseCapture([]byte(`{"hook_event_name":"UserPromptSubmit"}`+"\n"), harness.Capture{}); got != "" {
		t.Errorf("ParseCapture without SessionStart = %q", got)
	}
}

// The exit summary as Copilot 1.0.102 writes it: beside the logo when the
// TUI closes (twice: in the alternate screen, then after it), and on
// stderr after -p (no newline at the end).
func TestScrapeExit(t *testing.T) {
	a := Agent
	tui := "\x1b[?1049h\x1b[2J  \xe2\x95\xad\xe2\x94\x80\xe2\x95\xae   Changes    \x1b[32m+0\x1b[m \x1b[31m-0\x1b[m\x1b[K\r\n" +
		"   \xe2\x96\x94\xe2\x96\x94\xe2\x96\x94\xe2\x96\x94    Resume     copilot --resume=" + other + "\x1b[K\x1b]111;\x07\x1b[?1049l\x1b[?25h\r\n" +
		"   \xe2\x96\x94\xe2\x96\x94\xe2\x96\x94\xe2\x96\x94    Resume     copilot --resume=" + uid + "\r\n\r\n\x1b]111;\x07"
	for _, c := range []struct{ name, tail, want string }{
		{"tui", tui, uid},
		{"print", "ACK hi\n\n\nChanges    +0 -0\nDuration   1s\nTokens     ↑ 12.0k • ↓ 8\nResume     copilot --resume=" + uid, uid},
		{"quoted", "copilot --resume='" + uid + "'\n", uid},
		{"unknown id's advice", "Error: No session, task, or name matched 'x'.\n\nTo resume by session or task ID:  copilot --resume=<id>\n", ""},
		{"spaced", "copilot --resume " + uid + "\n", ""},
		{"runs on", "copilot --resume=" + uid + "0\n", ""},
		{"another program", "xcopilot --resume=" + uid + "\n", ""},
		{"claude's", "claude --resume " + uid + "\n", ""},
	} {
		if got := a.ScrapeExit([]byte(c.tail)); got != c.want {
			t.Errorf("%s: ScrapeExit = %q, want %q", c.name, got, c.want)
		}
	}
	if !a.BannerShown([]byte(tui)) || a.BannerShown([]byte("Resume the thing\n")) {
		t.Error("the exit summary's Resume line is the banner, and only it")
	}
}

func TestStore(t *testing.T) {
	home := t.TempDir()
	proj, elsewhere := t.TempDir(), t.TempDir()
	a := Agent
	at := time.Date(2026, 12, 2, 0, 57, 11, 0, time.UTC)
	fixture(t, home, proj, uid, "remember PELICAN-4821", "", at)
	empty := harnesstest.UUID(t)
	fixture(t, home, proj, empty, "", "", at) // quit before a prompt
	there := harnesstest.UUID(t)
	fixture(t, home, elsewhere, there, "elsewhere", "", at.Add(time.Minute))

	if !a.Exists(home, proj, uid) || !a.Exists(home, "", uid) {
		t.Error("a session with a prompt is not there")
	}
	if a.Exists(home, proj, empty) {
		t.Error("a session quit before its first prompt exists")
	}
	if a.Exists(home, proj, there) || a.Exists(home, elsewhere, uid) {
		t.Error("a session exists for another directory than its own")
	}
	if a.Exists(home, proj, "../"+uid) {
		t.Error("an ID outside the grammar exists")
	}
	if got := a.Title(home, proj, uid); got != "remember PELICAN-4821" {
		t.Errorf("Title = %q", got)
	}
	x := a.Excerpt(home, proj, uid, 5, 5)
	if len(x.First) != 2 || x.First[0].Text != "remember PELICAN-4821" || x.First[1].Role != "assistant" {
		t.Errorf("Excerpt = %+v", x)
	}
	if got := harness.LastActive(a, home, proj, uid); !got.Equal(at) {
		t.Errorf("Active = %v, want %v", got, at)
	}

	found, err := a.Discover(home, proj, "")
	if err != nil || len(found) != 1 || found[0].ID != uid || found[0].Cwd != proj || found[0].Title != "remember PELICAN-4821" || !found[0].Started.Equal(at) {
		t.Errorf("Discover = %+v, %v", found, err)
	}
	f, err := a.Lookup(home, there)
	if err != nil || f.Cwd != elsewhere {
		t.Errorf("Lookup = %+v, %v", f, err)
	}
	if _, err := a.Lookup(home, empty); !errors.Is(err, harness.ErrEmptyConversation) {
		t.Errorf("Lookup of an empty session: %v", err)
	}
	if _, err := a.Lookup(home, other); !errors.Is(err, harness.ErrNoConversation) {
		t.Errorf("Lookup of nothing: %v", err)
	}
	if err := a.Adoptable(home, proj, uid); err != nil {
		t.Errorf("Adoptable: %v", err)
	}
	if err := a.Adoptable(home, proj, there); !errors.Is(err, harness.ErrElsewhere) {
		t.Errorf("Adoptable of another directory's: %v", err)
	}
	if got := a.Correlate(home, proj, at.Add(-time.Second)); got != uid {
		t.Errorf("Correlate = %q", got)
	}
	if got := a.Correlate(home, proj, at.Add(time.Hour)); got != "" {
		t.Errorf("Correlate after the session = %q", got)
	}
	// A folder whose files name another session is none.
	bad := harnesstest.UUID(t)
	fixture(t, home, proj, bad, "hi", "id: "+uid+"\ncwd: "+proj+"\n", at)
	if a.Exists(home, proj, bad) {
		t.Error("a folder whose workspace.yaml names another session exists")
	}
}

func TestNamesAndHolders(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	a := Agent
	named := "id: " + uid + "\ncwd: " + proj + "\nname: 'it''s: wren work'\nuser_named: true\n"
	dir := fixture(t, home, proj, uid, "hello", named, time.Now())
	if got := a.ConversationName(home, proj, uid); got != "it's: wren work" {
		t.Errorf("name = %q", got)
	}
	fixture(t, home, proj, other, "hello", "", time.Now())
	if got := a.ConversationName(home, proj, other); got != "" {
		t.Errorf("a first prompt is no name: %q", got)
	}
	harnesstest.WriteFile(t, filepath.Join(dir, "inuse.4242.lock"), "4242")
	harnesstest.WriteFile(t, filepath.Join(dir, "inuse.4242.hold"), "")
	harnesstest.WriteFile(t, filepath.Join(dir, "inuse.77.lock"), "78") // not its own pid
	harnesstest.WriteFile(t, filepath.Join(dir, "inuse.x.lock"), "x")
	if got := a.Holders(home, uid); !slices.Equal(got, []int{4242}) {
		t.Errorf("Holders = %v", got)
	}
	if got := a.Holders(home, "../x"); got != nil {
		t.Errorf("Holders of a bad ID = %v", got)
	}
}

// BenchmarkDiscover: Copilot files sessions by ID, so a directory's
// sessions are found by reading each folder's workspace.yaml (and the head
// of the log of the directory's own): here 1000 folders, 10 of them the
// directory's.
func BenchmarkDiscover(b *testing.B) {
	home, proj, other := b.TempDir(), "/tmp/bench project", "/tmp/elsewhere"
	at := time.Now()
	for i := range 1000 {
		dir := other
		if i%100 == 0 {
			dir = proj
		}
		fixture(b, home, dir, harnesstest.UUID(b), "prompt", "", at)
	}
	a := Agent
	b.ResetTimer()
	for range b.N {
		if got, _ := a.Discover(home, proj, ""); len(got) != 10 {
			b.Fatalf("found %d", len(got))
		}
	}
}

// The IDs the tests name.
const uid, other, pinned = harnesstest.UID, harnesstest.Other, harnesstest.Pinned

// Copilot records the checkout's branch in workspace.yaml (measured on
// 1.0.102, in a worktree): fleetcom reads it for a directory that is gone.
func TestBranch(t *testing.T) {
	home, proj := t.TempDir(), "/src/app-login"
	at := time.Date(2026, 12, 6, 10, 11, 33, 0, time.UTC)
	fixture(t, home, proj, uid, "hello", "id: "+uid+"\ncwd: "+proj+"\ngit_root: "+proj+
		"\nbranch: wt/branch\nclient_name: github/cli\nuser_named: false\nsummary_count: 0\n", at)
	fixture(t, home, "/src/notes", other, "hello", "", at)
	if got := Agent.Branch(home, proj, uid); got != "wt/branch" {
		t.Errorf("Branch = %q, want wt/branch", got)
	}
	if got := Agent.Branch(home, "/elsewhere", uid); got != "" {
		t.Errorf("Branch of another directory = %q", got)
	}
	if got := Agent.Branch(home, "/src/notes", other); got != "" {
		t.Errorf("Branch outside a repository = %q", got)
	}
}
