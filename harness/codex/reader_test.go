package codex

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

// The rollouts in testdata/codexindex were written by the real Codex CLI
// 0.171.0 against the e2e suite's fake model, their long strings (the
// model's base instructions, the skills list) shortened:
//   - 01a2499b-ed39-…: the TUI with fleetcom's hooks, two turns, the second
//     a shell command the user allowed (a function call and its output);
//   - 01a2499e-27d9-…: the TUI with fleetcom's hooks, quit before any
//     prompt: a rollout of one session_meta line (issue 29, item 2);
//   - 01a2499f-d854-…: `codex exec` with one prompt.
//
// session_index.jsonl is that home's names file after a /rename.
const (
	codexTwoTurns = "rollout-2026-12-06T04-28-05-01a2499b-ed39-7602-b874-0b1ca77745f6.jsonl"
	codexNoPrompt = "rollout-2026-12-06T04-30-31-01a2499e-27d9-7132-8e6a-b09fe81b25e7.jsonl"
	codexExec     = "rollout-2026-12-06T04-32-22-01a2499f-d854-7691-83d7-81b266867300.jsonl"
)

var codexLimits = harness.Limits{Text: true, Message: 1 << 10, Line: 1 << 20}

// codexHomeOf copies rollouts of testdata into a Codex home, in their day
// folder, and returns the home.
func codexHomeOf(t *testing.T, names ...string) string {
	t.Helper()
	home := t.TempDir()
	day := filepath.Join(home, "sessions", "2026", "12", "06")
	if err := os.MkdirAll(day, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("testdata", "codexindex", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(day, n), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func rolloutPath(home, name string) string {
	return filepath.Join(home, "sessions", "2026", "12", "06", name)
}

func readCodex(t *testing.T, path string, c harness.Cursor, l harness.Limits) (harness.Learned, harness.Cursor) {
	t.Helper()
	d, next, err := codex{}.Read(path, c, l)
	if err != nil || len(d) != 1 {
		t.Fatalf("Read(%s): %+v, %v", filepath.Base(path), d, err)
	}
	return d[0], next
}

func TestCodexReadLearnsTheThread(t *testing.T) {
	home := codexHomeOf(t, codexTwoTurns)
	p := rolloutPath(home, codexTwoTurns)
	l, c := readCodex(t, p, harness.Cursor{}, codexLimits)
	id := "01a2499b-ed39-7602-b874-0b1ca77745f6"
	if l.ID != id || l.Cwd != "/tmp/fleetcom-e2e-63350852/my project" || l.Side || l.Name != "" || l.Named {
		t.Errorf("learned %+v", l)
	}
	if l.Turns != 2 || l.Messages != 4 {
		t.Errorf("turns %d, messages %d; want two prompts and their replies", l.Turns, l.Messages)
	}
	want := []string{"please HOLD", "ACK HOLD", "now PERMIT", "ACK PERMIT"}
	if !slices.Equal(l.Texts, want) {
		t.Errorf("texts %q, want %q: no injected context, tool call or output", l.Texts, want)
	}
	// What codex's own readers say of the same rollout.
	if got := readTitle(p); l.Title != got || got != "please HOLD" {
		t.Errorf("title %q, codex's Titler %q", l.Title, got)
	}
	if got := (codex{}).Active(home, "", id); !l.Active.Equal(got) || got.IsZero() {
		t.Errorf("active %v, codex's Active %v", l.Active, got)
	}
	if want := time.Date(2026, 12, 6, 4, 28, 5, 452e6, time.UTC); !l.Started.Equal(want) {
		t.Errorf("started %v, want session_meta's %v", l.Started, want)
	}
	fi, _ := os.Stat(p)
	if c.Offset != fi.Size() {
		t.Errorf("stopped at %d of %d", c.Offset, fi.Size())
	}
	// Nothing new: nothing learned but the ID.
	l2, c2 := readCodex(t, p, c, codexLimits)
	if l2.ID != id || l2.Messages != 0 || l2.Title != "" || l2.Cwd != "" || c2.Offset != c.Offset {
		t.Errorf("a second read with nothing new: %+v at %d", l2, c2.Offset)
	}

	// codex exec writes the same events.
	home = codexHomeOf(t, codexExec)
	l, _ = readCodex(t, rolloutPath(home, codexExec), harness.Cursor{}, codexLimits)
	if l.Turns != 1 || l.Messages != 2 || l.Title != "exec EAGLE-12" ||
		!slices.Equal(l.Texts, []string{"exec EAGLE-12", "ACK EAGLE-12 CODES EAGLE-12"}) {
		t.Errorf("codex exec: %+v", l)
	}
}

// A session opened and quit before any prompt (with fleetcom's hooks Codex
// leaves a rollout of it, and prints a resume hint) has no message: it is
// never "newest", and list hides it (issue 29, item 2).
func TestCodexReadQuitBeforePromptHasNoMessages(t *testing.T) {
	home := codexHomeOf(t, codexNoPrompt)
	p := rolloutPath(home, codexNoPrompt)
	if !(codex{}).Exists(home, "", "01a2499e-27d9-7132-8e6a-b09fe81b25e7") {
		t.Fatal("fixture: codex's Exists does not see the rollout")
	}
	l, _ := readCodex(t, p, harness.Cursor{}, codexLimits)
	if l.ID != "01a2499e-27d9-7132-8e6a-b09fe81b25e7" || l.Messages != 0 || l.Turns != 0 || l.Title != "" || len(l.Texts) != 0 {
		t.Errorf("learned %+v; want the ID and no messages", l)
	}
	if l.Cwd != "/tmp/fleetcom-e2e-63350852/my project" || l.Started.IsZero() {
		t.Errorf("learned %+v; want its directory and start", l)
	}
}

// Reading a rollout in two steps, cut anywhere (a line half written at the
// cut), learns what one read learns.
func TestCodexReadInStepsIsReadAtOnce(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "codexindex", codexTwoTurns))
	if err != nil {
		t.Fatal(err)
	}
	home := codexHomeOf(t)
	p := rolloutPath(home, codexTwoTurns)
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, data, 0o600)
	whole, _ := readCodex(t, p, harness.Cursor{}, codexLimits)
	for _, cut := range harnesstest.CutPoints(data) {
		os.WriteFile(p, data[:cut], 0o600)
		d1, c, err := codex{}.Read(p, harness.Cursor{}, codexLimits)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p, data, 0o600)
		d2, _, err := codex{}.Read(p, c, codexLimits)
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

func TestCodexReadTextOff(t *testing.T) {
	home := codexHomeOf(t, codexTwoTurns)
	l, _ := readCodex(t, rolloutPath(home, codexTwoTurns), harness.Cursor{}, harness.Limits{Line: 1 << 20})
	if len(l.Texts) != 0 || l.Messages != 4 || l.Title != "please HOLD" {
		t.Errorf("text off: %+v", l)
	}
}

// Tool output is read past, not decoded: a line over the limit is skipped
// whole, and output that quotes a rollout's lines is no message.
func TestCodexReadSkipsToolOutput(t *testing.T) {
	home := codexHomeOf(t, codexNoPrompt)
	p := rolloutPath(home, codexNoPrompt)
	big := strings.Repeat("x", 1<<16)
	quoted := `{\"type\":\"event_msg\",\"payload\":{\"type\":\"item_completed\",\"item\":{\"type\":\"UserMessage\",\"content\":[{\"type\":\"text\",\"text\":\"quoted\"}]}}}`
	harnesstest.AppendLines(t, p,
		`{"timestamp":"2026-12-06T04:31:00.000Z","ordinal":1,"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"`+big+big+`"}}`,
		`{"timestamp":"2026-12-06T04:31:01.000Z","ordinal":2,"type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"`+quoted+`"}}`,
		`{"timestamp":"2026-12-06T04:31:02.000Z","ordinal":3,"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"CommandExecution","id":"c3","command":["cat","rollout.jsonl"],"aggregated_output":"`+quoted+big+`","exit_code":0}}}`,
		`{"timestamp":"2026-12-06T04:31:03.000Z","ordinal":4,"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"UserMessage","id":"m1","content":[{"type":"text","text":"the real prompt","text_elements":[]}]}}}`,
	)
	l, _ := readCodex(t, p, harness.Cursor{}, harness.Limits{Text: true, Line: 1 << 17})
	if l.Turns != 1 || l.Messages != 1 || l.Title != "the real prompt" || !slices.Equal(l.Texts, []string{"the real prompt"}) {
		t.Errorf("learned %+v", l)
	}
	if want := time.Date(2026, 12, 6, 4, 31, 3, 0, time.UTC); !l.Active.Equal(want) {
		t.Errorf("active %v, want %v", l.Active, want)
	}
}

// A sub-agent's thread is a side thread; a file whose first line is not
// its own session_meta is no thread.
func TestCodexReadSideAndOther(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "codexindex", codexNoPrompt))
	if err != nil {
		t.Fatal(err)
	}
	home := codexHomeOf(t)
	day := filepath.Dir(rolloutPath(home, codexNoPrompt))
	os.MkdirAll(day, 0o755)
	sub := strings.Replace(string(data), `"thread_source":"user"`, `"thread_source":"subagent"`, 1)
	p := filepath.Join(day, codexNoPrompt)
	os.WriteFile(p, []byte(sub), 0o600)
	if l, _ := readCodex(t, p, harness.Cursor{}, codexLimits); !l.Side {
		t.Errorf("a sub-agent's thread: %+v", l)
	}
	// Another thread's session_meta, under this name.
	other := filepath.Join(day, "rollout-2026-12-06T04-30-31-01a2499e-27d9-7132-8e6a-b09fe81b25e8.jsonl")
	os.WriteFile(other, data, 0o600)
	harnesstest.AppendLines(t, other, `{"timestamp":"2026-12-06T04:31:03.000Z","type":"event_msg","payload":{"type":"user_message","message":"hi"}}`)
	for _, c := range []harness.Cursor{{}, {Offset: int64(len(data))}} {
		if d, _, err := (codex{}).Read(other, c, codexLimits); len(d) != 0 || err != nil {
			t.Errorf("another thread's rollout from %d: %+v, %v", c.Offset, d, err)
		}
	}
	// Not a rollout's name.
	bad := filepath.Join(day, "rollout-x.jsonl")
	os.WriteFile(bad, data, 0o600)
	if d, _, _ := (codex{}).Read(bad, harness.Cursor{}, codexLimits); len(d) != 0 {
		t.Errorf("a file that is no rollout: %+v", d)
	}
}

// Older builds log user_message and agent_message events; one message said
// by both kinds of event (a rollout resumed by a newer build) counts once.
func TestCodexReadOlderEvents(t *testing.T) {
	home := t.TempDir()
	id := harnesstest.V7At(time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC))
	p := writeRollout(t, home, id, "/src/app", false, "")
	harnesstest.AppendLines(t, p,
		`{"timestamp":"2026-11-21T08:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"<environment_context>cwd</environment_context>","kind":"environment_context"}}`,
		`{"timestamp":"2026-11-21T08:00:02.000Z","type":"event_msg","payload":{"type":"user_message","message":"fix the build","kind":"plain","images":[]}}`,
		`{"timestamp":"2026-11-21T08:00:03.000Z","type":"event_msg","payload":{"type":"agent_message","message":"Fixed."}}`,
		`{"timestamp":"2026-11-21T08:00:04.000Z","type":"event_msg","payload":{"type":"user_message","message":"now the tests"}}`,
		`{"timestamp":"2026-11-21T08:00:04.001Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":"now the tests"}]}}}`,
		`{"timestamp":"2026-11-21T08:00:05.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"AgentMessage","content":[{"type":"Text","text":"Done."}]}}}`,
	)
	l, _ := readCodex(t, p, harness.Cursor{}, codexLimits)
	want := []string{"fix the build", "Fixed.", "now the tests", "Done."}
	if l.Turns != 2 || l.Messages != 4 || !slices.Equal(l.Texts, want) {
		t.Errorf("learned %+v, want texts %q", l, want)
	}
	// codex's Titler takes the first user_message event, the injected
	// block too.
	if l.Title != "fix the build" {
		t.Errorf("title %q", l.Title)
	}
}

// The names file is read from where the last read stopped; the last name
// of an ID wins, and an empty one takes the name away, as codex's Namer
// says.
func TestCodexReadNames(t *testing.T) {
	home := t.TempDir()
	p := filepath.Join(home, codexNamesFile)
	data, err := os.ReadFile(filepath.Join("testdata", "codexindex", codexNamesFile))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, data, 0o600)
	d, c, err := codex{}.Read(p, harness.Cursor{}, codexLimits)
	want := harness.Delta{
		{ID: "01a2499b-ed39-7602-b874-0b1ca77745f6", Name: "Fake session title", Named: true},
		{ID: "01a2499c-426d-7e83-a233-7674a0a498df", Name: "ibis work", Named: true},
	}
	if err != nil || !slices.EqualFunc(d, want, sameName) {
		t.Errorf("names: %+v, %v; want %+v", d, err, want)
	}
	for _, w := range want {
		if got := (codex{}).ConversationName(home, "", w.ID); got != w.Name {
			t.Errorf("codex's Namer says %q of %s", got, w.ID)
		}
	}
	harnesstest.AppendLines(t, p,
		`{"id":"01a2499c-426d-7e83-a233-7674a0a498df","thread_name":"  ","updated_at":"2026-12-06T05:00:00Z"}`,
		`{"id":"not-an-id","thread_name":"x"}`,
		`{"id":"01a2499b-ed39-7602-b874-0b1ca77745f6","thread_name":"heron\twork","updated_at":"2026-12-06T05:00:01Z"}`,
	)
	f, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"id":"01a2499b-ed39-7602-b874-0b1ca77745f6","thread_name":"heron`) // being written
	f.Close()
	d, c2, _ := codex{}.Read(p, c, codexLimits)
	want = harness.Delta{
		{ID: "01a2499c-426d-7e83-a233-7674a0a498df", Name: "", Named: true},
		{ID: "01a2499b-ed39-7602-b874-0b1ca77745f6", Name: "heron work", Named: true},
	}
	if !slices.EqualFunc(d, want, sameName) {
		t.Errorf("appended names: %+v, want %+v", d, want)
	}
	fi, _ := os.Stat(p)
	if c2.Offset <= c.Offset || c2.Offset >= fi.Size() {
		t.Errorf("cursor %d: want past the whole lines, before the half-written one (file %d)", c2.Offset, fi.Size())
	}
	for _, w := range want {
		if got := (codex{}).ConversationName(home, "", w.ID); got != w.Name {
			t.Errorf("codex's Namer says %q of %s, the index %q", got, w.ID, w.Name)
		}
	}
}

func sameName(a, b harness.Learned) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Named == b.Named
}

func TestCodexTrees(t *testing.T) {
	home := codexHomeOf(t, codexTwoTurns)
	trees := codex{}.Trees(home)
	if len(trees) != 2 || !trees[0].Owns || trees[1].Owns {
		t.Fatalf("trees %+v", trees)
	}
	// The rollout and the names file match their trees, level by level.
	p := rolloutPath(home, codexTwoTurns)
	rel, _ := filepath.Rel(trees[0].Root, p)
	parts := strings.Split(rel, string(filepath.Separator))
	if len(parts) != len(trees[0].Levels) {
		t.Fatalf("%s under %s: %d levels", rel, trees[0].Root, len(parts))
	}
	for i, part := range parts {
		if ok, _ := filepath.Match(trees[0].Levels[i], part); !ok {
			t.Errorf("level %d: %q does not match %q", i, part, trees[0].Levels[i])
		}
	}
	if ok, _ := filepath.Match(trees[1].Levels[0], codexNamesFile); !ok || trees[1].Root != home {
		t.Errorf("names tree %+v", trees[1])
	}
	near := codex{}.Near(home, "/anywhere")
	if !slices.Contains(near, dayDir(home, time.Now())) {
		t.Errorf("near %q: want today's folder", near)
	}
}

// Reading a names file of 20,000 names (2.2 MB) whole, then only what one
// rename appended.
func BenchmarkCodexReadNames(b *testing.B) {
	p := filepath.Join(b.TempDir(), codexNamesFile)
	f, _ := os.Create(p)
	for i := 0; i < 20000; i++ {
		f.WriteString(`{"id":"` + harnesstest.V7At(time.Unix(int64(1_700_000_000+i), 0)) + `","thread_name":"Fix the flaky login test in the session cache ` +
			strings.Repeat("x", i%40) + `","updated_at":"2026-12-06T05:00:00.000000000Z"}` + "\n")
	}
	f.Close()
	_, c, _ := codex{}.Read(p, harness.Cursor{}, codexLimits)
	harnesstest.AppendLines(b, p, `{"id":"01a2499b-ed39-7602-b874-0b1ca77745f6","thread_name":"heron work","updated_at":"2026-12-06T05:00:01Z"}`)
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			codex{}.Read(p, harness.Cursor{}, codexLimits)
		}
	})
	b.Run("appended", func(b *testing.B) {
		for b.Loop() {
			codex{}.Read(p, c, codexLimits)
		}
	})
	b.Run("namer", func(b *testing.B) {
		for b.Loop() {
			threadNames.Lock()
			threadNames.path = ""
			threadNames.Unlock()
			readThreadNames(p)
		}
	})
}

// Reading a rollout of 40 MB, most of it tool output.
func BenchmarkCodexReadToolOutput(b *testing.B) {
	data, _ := os.ReadFile(filepath.Join("testdata", "codexindex", codexTwoTurns))
	home := b.TempDir()
	p := filepath.Join(home, codexTwoTurns)
	os.WriteFile(p, data, 0o600)
	out := strings.Repeat("line of output ", 1<<16) // 1 MB
	for i := 0; i < 20; i++ {
		harnesstest.AppendLines(b, p,
			`{"timestamp":"2026-12-06T04:31:00.000Z","ordinal":1,"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"`+out+`"}}`,
			`{"timestamp":"2026-12-06T04:31:02.000Z","ordinal":3,"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"CommandExecution","id":"c3","aggregated_output":"`+out+`","exit_code":0}}}`)
	}
	fi, _ := os.Stat(p)
	b.SetBytes(fi.Size())
	for b.Loop() {
		codex{}.Read(p, harness.Cursor{}, harness.Limits{Text: true, Message: 8 << 10, Line: 8 << 20})
	}
}

// Each text is cut to harness.Limits.Message bytes, on a rune boundary.
func TestReadersClipTexts(t *testing.T) {
	home := codexHomeOf(t, codexTwoTurns)
	l, _ := readCodex(t, rolloutPath(home, codexTwoTurns), harness.Cursor{}, harness.Limits{Text: true, Message: 4, Line: 1 << 20})
	if want := []string{"plea", "ACK ", "now ", "ACK "}; !slices.Equal(l.Texts, want) {
		t.Errorf("codex: %q, want %q", l.Texts, want)
	}
	if got := harness.ClipText("hé!", 2); got != "h" {
		t.Errorf("ClipText cut a rune: %q", got)
	}
}

// Lines longer than the read buffer: a tool's output and a command's run
// reach the reader as their heads, and count for their time even past the
// line limit; a long reply is read whole. The preview reads them so too.
func TestCodexReadLongLines(t *testing.T) {
	home := codexHomeOf(t, codexNoPrompt)
	p := rolloutPath(home, codexNoPrompt)
	out := strings.Repeat("y", 1<<20)
	harnesstest.AppendLines(t, p,
		`{"timestamp":"2026-12-06T04:31:00.000Z","ordinal":1,"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"UserMessage","id":"m1","content":[{"type":"text","text":"count the lines","text_elements":[]}]}}}`,
		`{"timestamp":"2026-12-06T04:31:01.000Z","ordinal":2,"type":"event_msg","payload":{"type":"user_message","message":"count the lines","images":[]}}`,
		`{"timestamp":"2026-12-06T04:31:02.000Z","ordinal":3,"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"`+out+`"}}`,
		`{"timestamp":"2026-12-06T04:31:03.000Z","ordinal":4,"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"AgentMessage","id":"m2","content":[{"type":"Text","text":"PLOVER `+strings.Repeat("z", 300<<10)+`"}]}}}`,
		`{"timestamp":"2026-12-06T04:31:04.000Z","ordinal":5,"type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"u","item":{"type":"CommandExecution","id":"c2","command":["wc","-l"],"aggregated_output":"`+out+out+out+`","exit_code":0}}}`,
	)
	l, _ := readCodex(t, p, harness.Cursor{}, harness.Limits{Text: true, Message: 16, Line: 2 << 20})
	if l.Turns != 1 || l.Messages != 2 || l.Title != "count the lines" || len(l.Texts) != 2 || !strings.HasPrefix(l.Texts[1], "PLOVER") {
		t.Errorf("learned %+v", l)
	}
	if want := time.Date(2026, 12, 6, 4, 31, 4, 0, time.UTC); !l.Active.Equal(want) {
		t.Errorf("active %v, want %v (the command's line, past the limit)", l.Active, want)
	}
	if x := (codex{}).Excerpt(home, "", l.ID, 3, 4); x.Total != 1 || x.First[0].Text != "count the lines" {
		t.Errorf("preview %+v", x)
	}
}

// codexHead cuts only lines whose head says they hold no message.
func TestCodexHead(t *testing.T) {
	for _, c := range []struct {
		head string
		cut  bool
	}{
		{`{"timestamp":"x","ordinal":3,"type":"response_item","payload":{"type":"function_call_output","output":"`, true},
		{`{"timestamp":"x","type":"event_msg","payload":{"type":"exec_command_end","aggregated_output":"`, true},
		{`{"timestamp":"x","type":"event_msg","payload":{"type":"item_completed","thread_id":"t","item":{"type":"CommandExecution","aggregated_output":"`, true},
		{`{"timestamp":"x","type":"event_msg","payload":{"type":"item_completed","thread_id":"t","item":{"type":"AgentMessage","text":"`, false},
		{`{"timestamp":"x","type":"event_msg","payload":{"type":"item_completed","thread_id":"t","item":{"type":"UserMessage","content":"`, false},
		{`{"timestamp":"x","type":"event_msg","payload":{"type":"agent_message","message":"`, false},
		{`{"timestamp":"x","type":"event_msg","payload":{"type":"user_message","message":"`, false},
		{`{"timestamp":"x","type":"event_msg","payload":{"type":"item_completed","thread_id":"t","turn_id":"`, false},
		{`{"timestamp":"x","type":"session_meta","payload":{"id":"`, false},
	} {
		if got := codexHead([]byte(c.head + strings.Repeat("q", 4096))).Cut; got != c.cut {
			t.Errorf("codexHead(%.90s…) = %v, want %v", c.head, got, c.cut)
		}
	}
}

// A rollout's title is its first user_message, found past tool output of
// megabytes that speaks of "user"s, and not looked for past titleLimit.
func TestReadTitleBounded(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rollout-2026-12-06T04-28-05-01a2499b-ed39-7602-b874-0b1ca77745f6.jsonl")
	meta := `{"timestamp":"2026-12-06T04:28:05.452Z","type":"session_meta","payload":{"id":"01a2499b-ed39-7602-b874-0b1ca77745f6","cwd":"/p"}}`
	output := func(mb int) string {
		return `{"timestamp":"2026-12-06T04:28:06.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"` +
			strings.Repeat(`the \"user\" said \"user_message\" `, mb<<20/34) + `"}}`
	}
	prompt := `{"timestamp":"2026-12-06T04:28:07.000Z","type":"event_msg","payload":{"type":"user_message","message":"please HOLD"}}`
	item := `{"timestamp":"2026-12-06T04:28:07.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"from the item"}]}}`
	write := func(lines ...string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(meta, output(3), output(2), prompt)
	if got := readTitle(p); got != "please HOLD" {
		t.Errorf("after 5 MB of output: %q", got)
	}
	write(meta, output(3), item, output(1))
	if got := readTitle(p); got != "from the item" {
		t.Errorf("no user_message, a user's item: %q", got)
	}
	write(meta, output(titleLimit>>20+1), prompt)
	if got := readTitle(p); got != "" {
		t.Errorf("a prompt past titleLimit: %q", got)
	}
}
