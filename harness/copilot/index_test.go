package copilot

import (
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/harness/readertest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The session folders in testdata/copilotindex were written by the real
// Copilot CLI 1.0.102 against the e2e suite's fake model (their long
// strings, the system message above all, shortened), events.jsonl and
// workspace.yaml of each:
//   - 11c108af-…: four prompts over two runs (the second a resume, logged
//     as session.resume), one of them a bash call the user allowed (an
//     assistant.message with a tool request and no text, the tool's run);
//   - 00c76b22-…: one prompt, then /rename "wren work".
const (
	copilotFour  = "11c108af-3ed7-47e3-82b4-2f8c70abf94b"
	copilotNamed = "00c76b22-7a0b-45e6-9e2b-8baca84bed37"
)

var copilotLimits = harness.Limits{Text: true, Message: 1 << 10, Line: 1 << 20}

// copilotHomeOf copies session folders of testdata into a Copilot home and
// returns the home.
func copilotHomeOf(t *testing.T, ids ...string) string {
	t.Helper()
	home := t.TempDir()
	for _, id := range ids {
		dir := filepath.Join(sessionsDir(home), id)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"events.jsonl", "workspace.yaml"} {
			data, err := os.ReadFile(filepath.Join("testdata", "copilotindex", id, f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	return home
}

func copilotLog(home, id string) string {
	return filepath.Join(sessionsDir(home), id, "events.jsonl")
}

func readCopilot(t *testing.T, path string, c harness.Cursor, l harness.Limits) (harness.Learned, harness.Cursor) {
	t.Helper()
	d, next, err := copilot{}.Read(path, c, l)
	if err != nil || len(d) != 1 {
		t.Fatalf("Read(%s): %+v, %v", path, d, err)
	}
	return d[0], next
}

func TestCopilotReadLearnsTheSession(t *testing.T) {
	home := copilotHomeOf(t, copilotFour)
	p := copilotLog(home, copilotFour)
	l, c := readCopilot(t, p, harness.Cursor{}, copilotLimits)
	if l.ID != copilotFour || l.Cwd != "/tmp/fleetcom-e2e-2515654863/my project" || l.Side || l.Summary != "" {
		t.Errorf("learned %+v", l)
	}
	// Four prompts; five replies, one of them the tool call with no text.
	if l.Turns != 4 || l.Messages != 9 {
		t.Errorf("turns %d, messages %d", l.Turns, l.Messages)
	}
	want := []string{"remember PELICAN-4821", "ACK PELICAN-4821 CODES PELICAN-4821", "please HOLD", "ACK HOLD CODES PELICAN-4821",
		"now PERMIT", "ACK PERMIT CODES PELICAN-4821", "which codes now", "ACK now CODES PELICAN-4821"}
	if !slices.Equal(l.Texts, want) {
		t.Errorf("texts %q, want %q: no system message, tool call or output", l.Texts, want)
	}
	// What copilot's own readers say of the same session.
	c0 := copilot{}
	if !c0.Exists(home, "", copilotFour) {
		t.Error("copilot's Exists does not see it")
	}
	if got := c0.Title(home, "", copilotFour); l.Title != got || got != "remember PELICAN-4821" {
		t.Errorf("title %q, copilot's Titler %q", l.Title, got)
	}
	if got := c0.Active(home, "", copilotFour); !l.Active.Equal(got) || got.IsZero() {
		t.Errorf("active %v, copilot's Active %v", l.Active, got)
	}
	if s, _ := find(home, copilotFour); !l.Started.Equal(s.head.started) || l.Started.IsZero() {
		t.Errorf("started %v, copilot's %v", l.Started, s.head.started)
	}
	// Not named: workspace.yaml's name is the first prompt.
	if !l.Named || l.Name != "" || c0.ConversationName(home, "", copilotFour) != "" {
		t.Errorf("name %q (named %v)", l.Name, l.Named)
	}
	fi, _ := os.Stat(p)
	if c.Offset != fi.Size() {
		t.Errorf("stopped at %d of %d", c.Offset, fi.Size())
	}
	l2, c2 := readCopilot(t, p, c, copilotLimits)
	if l2.Messages != 0 || l2.Title != "" || c2.Offset != c.Offset {
		t.Errorf("a second read with nothing new: %+v at %d", l2, c2.Offset)
	}

	home = copilotHomeOf(t, copilotNamed)
	l, _ = readCopilot(t, copilotLog(home, copilotNamed), harness.Cursor{}, copilotLimits)
	if !l.Named || l.Name != "wren work" || l.Name != c0.ConversationName(home, "", copilotNamed) || l.Title != "remember WREN-3141" {
		t.Errorf("the named session: %+v", l)
	}
}

// Reading a log in two steps, cut anywhere (a line half written at the
// cut), learns what one read learns.
func TestCopilotReadInStepsIsReadAtOnce(t *testing.T) {
	home := copilotHomeOf(t, copilotFour)
	p := copilotLog(home, copilotFour)
	data, _ := os.ReadFile(p)
	whole, _ := readCopilot(t, p, harness.Cursor{}, copilotLimits)
	for _, cut := range harnesstest.CutPoints(data) {
		os.WriteFile(p, data[:cut], 0o600)
		d1, c, err := copilot{}.Read(p, harness.Cursor{}, copilotLimits)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p, data, 0o600)
		d2, _, err := copilot{}.Read(p, c, copilotLimits)
		if err != nil || len(d2) != 1 {
			t.Fatalf("cut %d: second read %+v, %v", cut, d2, err)
		}
		sum := readertest.SumLearned(append(d1, d2...))
		if sum.Turns != whole.Turns || sum.Messages != whole.Messages || sum.Title != whole.Title ||
			sum.Cwd != whole.Cwd || !sum.Started.Equal(whole.Started) || !sum.Active.Equal(whole.Active) ||
			!slices.Equal(sum.Texts, whole.Texts) {
			t.Fatalf("cut at %d: %+v, want %+v", cut, sum, whole)
		}
	}
}

func TestCopilotReadTextOff(t *testing.T) {
	home := copilotHomeOf(t, copilotFour)
	l, _ := readCopilot(t, copilotLog(home, copilotFour), harness.Cursor{}, harness.Limits{Line: 1 << 20})
	if len(l.Texts) != 0 || l.Messages != 9 || l.Title != "remember PELICAN-4821" {
		t.Errorf("text off: %+v", l)
	}
}

// A log that has no prompt yet (its first lines, as Copilot writes them at
// the first prompt) has no messages, as copilot's Exists says.
func TestCopilotReadNoPromptHasNoMessages(t *testing.T) {
	home := copilotHomeOf(t, copilotFour)
	p := copilotLog(home, copilotFour)
	data, _ := os.ReadFile(p)
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(p, []byte(strings.Join(lines[:6], "")), 0o600) // session.start, model change, hooks
	l, _ := readCopilot(t, p, harness.Cursor{}, copilotLimits)
	if l.Messages != 0 || l.Turns != 0 || l.Title != "" || l.Cwd == "" || l.Started.IsZero() {
		t.Errorf("learned %+v", l)
	}
	if (copilot{}).Exists(home, "", copilotFour) {
		t.Error("copilot's Exists sees a session with no prompt")
	}
}

// Tool output is read past, not decoded: a line over the limit is skipped
// whole, and output that quotes a log's lines is no message.
func TestCopilotReadSkipsToolOutput(t *testing.T) {
	home := copilotHomeOf(t, copilotNamed)
	p := copilotLog(home, copilotNamed)
	base, _ := readCopilot(t, p, harness.Cursor{}, copilotLimits)
	big := strings.Repeat("x", 1<<16)
	quoted := `{\"type\":\"user.message\",\"data\":{\"content\":\"quoted\"},\"timestamp\":\"2030-01-01T00:00:00Z\"}`
	harnesstest.AppendLines(t, p,
		`{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true,"result":{"content":"`+big+big+`"}},"id":"e1","timestamp":"2026-12-06T04:33:00.000Z","parentId":"x"}`,
		`{"type":"tool.execution_complete","data":{"toolCallId":"c2","success":true,"result":{"content":"`+quoted+big+`"}},"id":"e2","timestamp":"2026-12-06T04:33:01.000Z","parentId":"e1"}`,
		`{"type":"user.message","data":{"content":"the real prompt","transformedContent":"the real prompt"},"id":"e3","timestamp":"2026-12-06T04:33:02.000Z","parentId":"e2"}`,
	)
	l, _ := readCopilot(t, p, harness.Cursor{}, harness.Limits{Text: true, Line: 1 << 17})
	if l.Turns != base.Turns+1 || l.Messages != base.Messages+1 || l.Texts[len(l.Texts)-1] != "the real prompt" {
		t.Errorf("learned %+v", l)
	}
	if want := time.Date(2026, 12, 6, 4, 33, 2, 0, time.UTC); !l.Active.Equal(want) {
		t.Errorf("active %v, want %v", l.Active, want)
	}
}

// workspace.yaml is read again with every read of the log: a rename, or a
// move's new directory, shows with the log's next line.
func TestCopilotReadFollowsWorkspace(t *testing.T) {
	home := copilotHomeOf(t, copilotFour)
	p := copilotLog(home, copilotFour)
	_, c := readCopilot(t, p, harness.Cursor{}, copilotLimits)
	ws := filepath.Join(filepath.Dir(p), "workspace.yaml")
	data, _ := os.ReadFile(ws)
	edited := strings.Replace(string(data), "name: remember PELICAN-4821\nuser_named: false", "name: 'pelican: work'\nuser_named: true", 1)
	edited = yamlSetString(edited, "cwd", "/tmp/fleetcom-e2e-2515654863/my project", "/srv/moved")
	os.WriteFile(ws, []byte(edited), 0o600)
	harnesstest.AppendLines(t, p, `{"type":"session.resume","data":{"resumeTime":"2026-12-06T05:00:00.000Z","context":{"cwd":"/srv/moved"}},"id":"r","timestamp":"2026-12-06T05:00:00.000Z","parentId":null}`)
	l, _ := readCopilot(t, p, c, copilotLimits)
	if !l.Named || l.Name != "pelican: work" || l.Cwd != "/srv/moved" || l.Messages != 0 {
		t.Errorf("after a rename and a move: %+v", l)
	}
	if got := (copilot{}).ConversationName(home, "", copilotFour); got != l.Name {
		t.Errorf("copilot's Namer says %q", got)
	}
}

func yamlSetString(data, key, from, to string) string {
	return string(yamlSet([]byte(data), key, from, to))
}

// A folder whose files name another session is none.
func TestCopilotReadOther(t *testing.T) {
	home := copilotHomeOf(t, copilotFour)
	p := copilotLog(home, copilotFour)
	other := filepath.Join(sessionsDir(home), "11c108af-3ed7-47e3-82b4-2f8c70abf94c")
	os.MkdirAll(other, 0o700)
	data, _ := os.ReadFile(p)
	os.WriteFile(filepath.Join(other, "events.jsonl"), data, 0o600)
	for _, c := range []harness.Cursor{{}, {Offset: int64(len(data)) / 2}} {
		d, _, err := copilot{}.Read(filepath.Join(other, "events.jsonl"), c, copilotLimits)
		if len(d) != 0 || err != nil {
			t.Errorf("another session's log, from %d: %+v, %v", c.Offset, d, err)
		}
	}
	// The log is this folder's, workspace.yaml another's.
	ws, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "workspace.yaml"))
	os.WriteFile(filepath.Join(filepath.Dir(p), "workspace.yaml"), []byte(strings.Replace(string(ws), copilotFour, "11c108af-3ed7-47e3-82b4-2f8c70abf94c", 1)), 0o600)
	if d, _, _ := (copilot{}).Read(p, harness.Cursor{}, copilotLimits); len(d) != 0 {
		t.Errorf("a log beside another session's workspace.yaml: %+v", d)
	}
	if (copilot{}).Exists(home, "", copilotFour) {
		t.Error("copilot's Exists sees it")
	}
}

func TestCopilotTrees(t *testing.T) {
	home := copilotHomeOf(t, copilotFour)
	trees := copilot{}.Trees(home)
	if len(trees) != 1 || !trees[0].Owns {
		t.Fatalf("trees %+v", trees)
	}
	rel, _ := filepath.Rel(trees[0].Root, copilotLog(home, copilotFour))
	parts := strings.Split(rel, string(filepath.Separator))
	if len(parts) != len(trees[0].Levels) {
		t.Fatalf("%s: %d levels", rel, len(parts))
	}
	for i, part := range parts {
		if ok, _ := filepath.Match(trees[0].Levels[i], part); !ok {
			t.Errorf("level %d: %q does not match %q", i, part, trees[0].Levels[i])
		}
	}
	if ok, _ := filepath.Match(trees[0].Levels[1], "workspace.yaml"); ok {
		t.Error("workspace.yaml is read with its log, not as a file of its own")
	}
}
