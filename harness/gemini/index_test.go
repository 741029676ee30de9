package gemini

import (
	"bytes"
	"fmt"
	"github.com/fleetcom/fleetcom/harness"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The fixtures in testdata/index are session files Gemini CLI 0.61.0
// wrote (run offline against a fake model, their directories renamed to
// /home/me/…): a prompt answered with a tool call, its output and a reply,
// resumed in the same minute and again in a later one (…-04-38-416ad4ad,
// and the two-line stub of the later resume, …-04-40-416ad4ad); a session
// with a /rewind (…-6b27dac8); and one Gemini wrote a summary into when
// the next session started (…-b322d3e1).
const (
	geminiToolFile    = "session-2026-12-06T04-38-416ad4ad.jsonl"
	geminiStubFile    = "session-2026-12-06T04-40-416ad4ad.jsonl"
	geminiRewindFile  = "session-2026-12-06T04-36-6b27dac8.jsonl"
	geminiSummaryFile = "session-2026-12-06T04-34-b322d3e1.jsonl"
)

var geminiFixtures = []string{geminiToolFile, geminiStubFile, geminiRewindFile, geminiSummaryFile}

// geminiIndexHome makes a Gemini home whose folder "proj" belongs to dir
// and holds the named fixtures; it returns the home and the chats folder.
func geminiIndexHome(t *testing.T, dir string, names ...string) (string, string) {
	t.Helper()
	home := filepath.Join(t.TempDir(), ".gemini")
	chats := filepath.Join(home, "tmp", "proj", "chats")
	if err := os.MkdirAll(chats, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "tmp", "proj", ".project_root"), []byte(dir), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("testdata", "index", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(chats, n), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home, chats
}

var geminiLimits = harness.Limits{Text: true, Message: 1 << 10, Line: 1 << 20}

// geminiTotals is what the index keeps of a file's reads, merged.
type geminiTotals struct {
	ID, Cwd, Title, Summary string
	Turns, Messages         int
	Started, Active         time.Time
	Side                    bool
	Texts                   []string
}

func (g *geminiTotals) add(t *testing.T, d harness.Delta) {
	t.Helper()
	if len(d) > 1 {
		t.Fatalf("a read of one file learned %d conversations", len(d))
	}
	for _, l := range d {
		if g.ID != "" && l.ID != g.ID {
			t.Fatalf("ID %s, then %s", g.ID, l.ID)
		}
		g.ID = l.ID
		if l.Cwd != "" {
			g.Cwd = l.Cwd
		}
		if g.Title == "" || l.Retitle && l.Title != "" {
			g.Title = l.Title // as the index merges titles
		}
		if l.Summary != "" {
			g.Summary = l.Summary
		}
		g.Turns += l.Turns
		g.Messages += l.Messages
		if !l.Started.IsZero() && (g.Started.IsZero() || l.Started.Before(g.Started)) {
			g.Started = l.Started
		}
		if l.Active.After(g.Active) {
			g.Active = l.Active
		}
		g.Side = g.Side || l.Side
		g.Texts = append(g.Texts, l.Texts...)
	}
}

// readGeminiWhole reads a file once.
func readGeminiWhole(t *testing.T, p string, l harness.Limits) (geminiTotals, harness.Cursor) {
	t.Helper()
	d, c, err := gemini{}.Read(p, harness.Cursor{}, l)
	if err != nil {
		t.Fatal(err)
	}
	var g geminiTotals
	g.add(t, d)
	return g, c
}

func TestGeminiReadRealSession(t *testing.T) {
	home, chats := geminiIndexHome(t, "/home/me/proj two", geminiToolFile)
	p := filepath.Join(chats, geminiToolFile)
	g, c := readGeminiWhole(t, p, geminiLimits)
	if g.ID != "416ad4ad-cbea-4587-9c36-444c9ce84abd" || g.Cwd != "/home/me/proj two" || g.Title != "LIST the files of OSPREY" ||
		g.Summary != "" || g.Side {
		t.Errorf("learned %+v", g)
	}
	// Three prompts and their three answers. The tool's output, handed
	// back as a user message, is neither; nor is the reply that called
	// the tool (written twice, the second time with the call), once the
	// resume replays it as a bare function call.
	if g.Turns != 3 || g.Messages != 6 {
		t.Errorf("turns %d, messages %d; want 3 and 6", g.Turns, g.Messages)
	}
	want := []string{"LIST the files of OSPREY", "The folder holds README and main.go OSPREY-9",
		"and again WREN-5", "ACK and again WREN-5", "later minute KESTREL", "ACK later minute KESTREL"}
	if !slices.Equal(g.Texts, want) {
		t.Errorf("texts %q,\nwant %q: no context block, tool output, or a resume's replay", g.Texts, want)
	}
	start, _ := time.Parse(time.RFC3339, "2026-12-06T04:38:04.029Z")
	active, _ := time.Parse(time.RFC3339, "2026-12-06T04:40:08.642Z")
	if !g.Started.Equal(start) || !g.Active.Equal(active) {
		t.Errorf("started %v, active %v; want %v, %v", g.Started, g.Active, start, active)
	}
	fi, _ := os.Stat(p)
	if c.Offset != fi.Size() || len(c.State) > harness.MaxState {
		t.Errorf("stopped at %d of %d, state of %d bytes", c.Offset, fi.Size(), len(c.State))
	}
	// Nothing new: nothing learned.
	d, c2, _ := gemini{}.Read(p, c, geminiLimits)
	if len(d) != 1 || d[0].Messages != 0 || d[0].Turns != 0 || d[0].Title != "" || len(d[0].Texts) != 0 || c2.Offset != c.Offset {
		t.Errorf("a second read with nothing new: %+v at %d", d, c2.Offset)
	}
	if got := (gemini{}).Near(home, "/home/me/proj two"); got != nil {
		t.Errorf("Near without a projects.json entry: %q", got)
	}
}

// The reader decides as the replay of the whole file (geminichat.go) does:
// resumable, prompts, messages, first prompt, summary, last activity.
func TestGeminiReadAgreesWithTheReplay(t *testing.T) {
	_, chats := geminiIndexHome(t, "/home/me/proj", geminiFixtures...)
	for _, n := range geminiFixtures {
		t.Run(n, func(t *testing.T) {
			p := filepath.Join(chats, n)
			g, _ := readGeminiWhole(t, p, geminiLimits)
			c, ok := readSession(p, true)
			if !ok {
				t.Fatal("the replay does not read it")
			}
			turns, msgs := 0, 0
			for _, m := range c.messages {
				if m.Resumable {
					msgs++
					if m.Type == "user" {
						turns++
					}
				}
			}
			if g.ID != c.SessionID && (g.ID != "" || c.resumable) || g.Turns != turns || g.Messages != msgs || (g.Messages > 0) != c.resumable {
				t.Errorf("read %s: %d turns, %d messages; the replay %s: %d, %d, resumable %v",
					g.ID, g.Turns, g.Messages, c.SessionID, turns, msgs, c.resumable)
			}
			want := harness.CleanTitle(c.FirstPrompt)
			if c.Summary != "" {
				want = harness.CleanTitle(c.Summary) // Gemini's own title names it
			}
			if g.Title != want || g.Summary != harness.CleanTitle(c.Summary) {
				t.Errorf("title %q, summary %q; the replay %q, %q", g.Title, g.Summary, c.FirstPrompt, c.Summary)
			}
			if c.resumable && !g.Active.Equal(c.active()) || !c.resumable && !g.Active.IsZero() {
				t.Errorf("active %v; the replay %v (resumable %v)", g.Active, c.active(), c.resumable)
			}
		})
	}
}

func TestGeminiReadRewindAndSummary(t *testing.T) {
	_, chats := geminiIndexHome(t, "/home/me/proj one", geminiRewindFile, geminiSummaryFile)
	g, _ := readGeminiWhole(t, filepath.Join(chats, geminiRewindFile), geminiLimits)
	// Rewound to the second prompt: it and its reply are gone, and the
	// prompt typed after takes their place.
	if g.Turns != 2 || g.Messages != 4 || g.Title != "first interactive ALPHA" {
		t.Errorf("after a rewind: %+v", g)
	}
	g, _ = readGeminiWhole(t, filepath.Join(chats, geminiSummaryFile), geminiLimits)
	if g.Summary != "Listing the project files" || g.Title != "Listing the project files" || g.Turns != 1 || g.Messages != 2 {
		t.Errorf("summary: %+v", g)
	}
}

// The stub a resume in a later minute leaves, and a session quit before
// its first prompt (its first two lines), hold no conversation: they give
// nothing, not even their ID (the stub outlives the conversation it names
// when Gemini's cleanup deletes that).
func TestGeminiReadEmptySession(t *testing.T) {
	_, chats := geminiIndexHome(t, "/home/me/proj", geminiStubFile, geminiSummaryFile)
	p := filepath.Join(chats, geminiStubFile)
	d, c, err := gemini{}.Read(p, harness.Cursor{}, geminiLimits)
	if fi, _ := os.Stat(p); len(d) != 0 || err != nil || c.Offset != fi.Size() {
		t.Errorf("stub: %+v at %d, %v", d, c.Offset, err)
	}
	p = filepath.Join(chats, geminiSummaryFile)
	data, _ := os.ReadFile(p)
	lines := bytes.SplitAfter(data, []byte("\n"))
	os.WriteFile(p, bytes.Join(lines[:2], nil), 0o644)
	d, c, _ = gemini{}.Read(p, harness.Cursor{}, geminiLimits)
	if len(d) != 0 {
		t.Errorf("before a prompt: %+v", d)
	}
	// The first prompt comes: the conversation, with its directory.
	os.WriteFile(p, data, 0o644)
	var g geminiTotals
	d, _, _ = gemini{}.Read(p, c, geminiLimits)
	g.add(t, d)
	if g.ID != "b322d3e1-1aa7-4cca-b099-66967ff474a1" || g.Cwd != "/home/me/proj" || g.Messages != 2 || g.Turns != 1 ||
		g.Title != "Listing the project files" || g.Active.IsZero() {
		t.Errorf("after the first prompt: %+v", g)
	}
}

// Reading a file in two steps, cut at any line or in the middle of one,
// learns what reading it once does.
func TestGeminiReadInStepsIsReadingOnce(t *testing.T) {
	for _, n := range geminiFixtures {
		_, chats := geminiIndexHome(t, "/home/me/proj", n)
		p := filepath.Join(chats, n)
		whole, _ := readGeminiWhole(t, p, geminiLimits)
		data, _ := os.ReadFile(p)
		var cuts []int
		for i, start := 0, 0; i < len(data); i++ {
			if data[i] == '\n' {
				cuts = append(cuts, start+(i-start)/2, i+1)
				start = i + 1
			}
		}
		for _, cut := range cuts {
			os.WriteFile(p, data[:cut], 0o644)
			var g geminiTotals
			d, c, err := gemini{}.Read(p, harness.Cursor{}, geminiLimits)
			if err != nil {
				t.Fatal(err)
			}
			g.add(t, d)
			os.WriteFile(p, data, 0o644)
			d, _, err = gemini{}.Read(p, c, geminiLimits)
			if err != nil {
				t.Fatal(err)
			}
			g.add(t, d)
			if fmt.Sprint(g) != fmt.Sprint(whole) {
				t.Errorf("%s cut at %d:\n%+v\nwhole:\n%+v", n, cut, g, whole)
			}
		}
	}
}

func TestGeminiReadWithoutText(t *testing.T) {
	_, chats := geminiIndexHome(t, "/home/me/proj", geminiToolFile)
	g, _ := readGeminiWhole(t, filepath.Join(chats, geminiToolFile), harness.Limits{Line: 1 << 20})
	if len(g.Texts) != 0 || g.Turns != 3 || g.Title != "LIST the files of OSPREY" {
		t.Errorf("text off: %+v", g)
	}
}

// A half-written last line is left for the next read; a line over the
// limit is skipped whole.
func TestGeminiReadHalfLineAndHugeLine(t *testing.T) {
	_, chats := geminiIndexHome(t, "/home/me/proj", geminiSummaryFile)
	p := filepath.Join(chats, geminiSummaryFile)
	data, _ := os.ReadFile(p)
	lines := bytes.SplitAfter(data, []byte("\n"))
	head := bytes.Join(lines[:3], nil) // the prompt's line is the third
	os.WriteFile(p, append(bytes.Clone(head), lines[3][:10]...), 0o644)
	d, c, _ := gemini{}.Read(p, harness.Cursor{}, geminiLimits)
	if c.Offset != int64(len(head)) || d[0].Turns != 1 {
		t.Errorf("cursor %d (want %d), %+v", c.Offset, len(head), d)
	}
	huge := `{"id":"99999999-0000-4000-8000-000000000000","timestamp":"2026-12-06T04:35:00.000Z","type":"user","content":[{"text":"` +
		strings.Repeat("x", 4<<10) + `"}]}` + "\n"
	os.WriteFile(p, append(bytes.Clone(head), huge...), 0o644)
	d, c, _ = gemini{}.Read(p, harness.Cursor{}, harness.Limits{Text: true, Line: 2 << 10})
	if d[0].Turns != 1 || c.Offset != int64(len(head)+len(huge)) {
		t.Errorf("a line over the limit: %+v at %d", d, c.Offset)
	}
}

// A reply's tool calls, which hold the tool's whole output, are not
// decoded: a reply whose calls would not decode still counts, with its
// text.
func TestGeminiReadCutsToolCalls(t *testing.T) {
	line := []byte(`{"id":"13a6ed4b-1111-4222-8333-444455556666","timestamp":"2026-12-06T04:38:15.000Z","type":"gemini","content":"looking","thoughts":[],"model":"m","toolCalls":[{"id":"t1","result":[` +
		strings.Repeat(`{"output":"x"},`, 100) + `not json at all]}]}`)
	var m geminiIndexMsg
	if !geminiDecodeMsg(line, &m) || m.ID == nil || m.Type != "gemini" || !m.tools || textOf(m.Content) != "looking" {
		t.Errorf("decoded %+v", m)
	}
}

// A reply whose tool calls hold more output than the read buffer, or
// than the line limit, is read from its head alone: it counts, with its
// text, and the line after it is read. A tool's output handed back is
// read from its head too, unless a text part follows the output.
func TestGeminiReadLongToolCalls(t *testing.T) {
	_, chats := geminiIndexHome(t, "/home/me/proj", geminiSummaryFile)
	p := filepath.Join(chats, geminiSummaryFile)
	data, _ := os.ReadFile(p)
	lines := bytes.SplitAfter(data, []byte("\n"))
	head := bytes.Join(lines[:3], nil) // the session, the context, the first prompt
	reply := func(id, text string, out int) string {
		return `{"id":"` + id + `","timestamp":"2026-12-06T04:38:15.000Z","type":"gemini","content":"` + text +
			`","thoughts":[],"model":"m","toolCalls":[{"id":"t1","result":[{"output":"` + strings.Repeat("x", out) + `"}]}]}` + "\n"
	}
	var b bytes.Buffer
	b.Write(head)
	b.WriteString(reply("r-1", "looking at KESTREL", 1<<20))
	b.WriteString(reply("r-2", "and at MERLIN", 3<<20))
	// A tool's output handed back, then one with a text part after it:
	// that one is read whole, and is a prompt.
	handed := func(id, text string) string {
		out := `{"id":"` + id + `","timestamp":"2026-12-06T04:38:20.000Z","type":"user","content":[{"functionResponse":{"id":"c1","name":"read_file","response":{"output":"` +
			strings.Repeat("z", 1<<20) + `"}}}`
		if text != "" {
			out += `,{"text":"` + text + `"}`
		}
		return out + "]}\n"
	}
	b.WriteString(handed("t-1", ""))
	b.WriteString(handed("t-2", "and PIPIT too"))
	b.WriteString(`{"id":"u-2","timestamp":"2026-12-06T04:39:00.000Z","type":"user","content":[{"text":"thanks"}]}` + "\n")
	os.WriteFile(p, b.Bytes(), 0o644)
	d, c, err := gemini{}.Read(p, harness.Cursor{}, harness.Limits{Text: true, Message: 8 << 10, Line: 2 << 20})
	if err != nil || len(d) != 1 || c.Offset != int64(b.Len()) {
		t.Fatalf("%+v at %d, %v", d, c.Offset, err)
	}
	g := d[0]
	if g.Turns != 3 || g.Messages != 5 || !slices.Contains(g.Texts, "looking at KESTREL") || !slices.Contains(g.Texts, "and at MERLIN") ||
		!slices.Contains(g.Texts, "and PIPIT too") {
		t.Errorf("turns %d, messages %d, texts %q", g.Turns, g.Messages, g.Texts)
	}
	// The preview's replay reads them so too.
	chat, ok := readSession(p, true)
	var said []string
	for _, m := range chat.messages {
		if m.Resumable {
			said = append(said, m.Text)
		}
	}
	if !ok || len(said) != 5 || said[1] != "looking at KESTREL" || said[2] != "and at MERLIN" || said[3] != "and PIPIT too" || said[4] != "thanks" {
		t.Errorf("the replay: %q", said)
	}
}

// A long session folds its oldest messages into counts: the state stays
// bounded, reading it in steps still adds up, and a rewind into the
// folded part keeps them.
func TestGeminiReadLongSession(t *testing.T) {
	_, chats := geminiIndexHome(t, "/home/me/proj", geminiSummaryFile)
	p := filepath.Join(chats, geminiSummaryFile)
	data, _ := os.ReadFile(p)
	head := bytes.SplitAfter(data, []byte("\n"))[0]
	var b bytes.Buffer
	b.Write(head)
	for i := range 1500 {
		fmt.Fprintf(&b, `{"id":"u-%d","timestamp":"2026-12-06T05:00:00.000Z","type":"user","content":[{"text":"prompt %d"}]}`+"\n", i, i)
		fmt.Fprintf(&b, `{"id":"g-%d","timestamp":"2026-12-06T05:00:01.000Z","type":"gemini","content":"reply %d"}`+"\n", i, i)
		fmt.Fprintf(&b, `{"$set":{"lastUpdated":"2026-12-06T05:00:01.000Z"}}`+"\n")
	}
	os.WriteFile(p, b.Bytes(), 0o644)
	whole, c := readGeminiWhole(t, p, geminiLimits)
	if whole.Turns != 1500 || whole.Messages != 3000 || len(whole.Texts) != 3000 || len(c.State) > harness.MaxState {
		t.Errorf("turns %d, messages %d, texts %d, state %d bytes", whole.Turns, whole.Messages, len(whole.Texts), len(c.State))
	}
	var g geminiTotals
	c = harness.Cursor{}
	full := b.Bytes()
	for end := 0; end < len(full); {
		end = min(end+7919, len(full))
		os.WriteFile(p, full[:end], 0o644)
		d, next, err := gemini{}.Read(p, c, geminiLimits)
		if err != nil {
			t.Fatal(err)
		}
		g.add(t, d)
		c = next
	}
	if fmt.Sprint(g) != fmt.Sprint(whole) {
		t.Errorf("in steps: %d turns, %d messages, %d texts", g.Turns, g.Messages, len(g.Texts))
	}
	rewind := func(id string) {
		f, _ := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
		f.WriteString(`{"$rewindTo":"` + id + `"}` + "\n")
		f.Close()
		d, next, _ := gemini{}.Read(p, c, geminiLimits)
		g.add(t, d)
		c = next
	}
	rewind("u-1400")
	if g.Turns != 1400 || g.Messages != 2800 {
		t.Errorf("after a rewind: %d turns, %d messages; want 1400, 2800", g.Turns, g.Messages)
	}
	rewind("u-3")
	if g.Turns <= 0 || g.Turns >= 1400 || g.Messages != 2*g.Turns {
		t.Errorf("after a rewind into the folded part: %d turns, %d messages; want the folded ones", g.Turns, g.Messages)
	}
}

// Files that are not a session of their name learn nothing.
func TestGeminiReadNotASession(t *testing.T) {
	_, chats := geminiIndexHome(t, "/home/me/proj", geminiSummaryFile)
	data, _ := os.ReadFile(filepath.Join(chats, geminiSummaryFile))
	for name, body := range map[string][]byte{
		"session-2026-12-06T04-34-b322d3e1.jsonl": []byte("not json\n" + string(data)),
		"session-2026-12-06T04-34-aaaaaaaa.jsonl": data, // another ID's file name
		"notes-b322d3e1.jsonl":                    data,
	} {
		p := filepath.Join(chats, name)
		os.WriteFile(p, body, 0o644)
		if d, _, err := (gemini{}).Read(p, harness.Cursor{}, geminiLimits); len(d) != 0 || err != nil {
			t.Errorf("%s: %+v, %v", name, d, err)
		}
	}
}

func TestGeminiTreesAndNear(t *testing.T) {
	home, chats := geminiIndexHome(t, "/home/me/proj", geminiSummaryFile)
	os.WriteFile(filepath.Join(home, "projects.json"), []byte(`{"projects":{"/home/me/proj":"proj","/home/me/other":"proj"}}`), 0o644)
	if got := (gemini{}).Near(home, "/home/me/proj"); !slices.Equal(got, []string{chats}) {
		t.Errorf("Near %q, want %q", got, chats)
	}
	if got := (gemini{}).Near(home, "/home/me/other"); got != nil {
		t.Errorf("Near of a folder whose marker names another directory: %q", got)
	}
	trees := gemini{}.Trees(home)
	if len(trees) != 1 || !trees[0].Owns {
		t.Fatalf("trees %+v", trees)
	}
	rel, _ := filepath.Rel(trees[0].Root, filepath.Join(chats, geminiSummaryFile))
	parts := strings.Split(rel, string(filepath.Separator))
	for i, pat := range trees[0].Levels {
		if ok, _ := filepath.Match(pat, parts[i]); !ok || len(parts) != len(trees[0].Levels) {
			t.Errorf("level %d (%s) does not match %s", i, pat, rel)
		}
	}
	// A subagent's session, filed under its parent's ID, is below the
	// levels.
	if ok, _ := filepath.Match(trees[0].Levels[2], "b322d3e1-1aa7-4cca-b099-66967ff474a1"); ok {
		t.Error("a subagent's folder matches the file level")
	}
}
