package claude

import (
	"fmt"
	"github.com/fleetcom/fleetcom/harness"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// claudeTranscriptLines are lines in the shape Claude Code writes them
// (2.1.x): metadata, a sub-agent's lines, a prompt, a tool call and its
// results, a reply, a slash command's wrapper, a name and a summary.
var claudeTranscriptLines = []string{
	`{"type":"file-history-snapshot","messageId":"m0","snapshot":{"messageId":"m0","trackedFileBackups":{},"timestamp":"2026-12-01T10:00:00.000Z"},"isSnapshotUpdate":false}`,
	`{"parentUuid":null,"isSidechain":true,"userType":"external","cwd":"/src/app","sessionId":"S","version":"2.1.332","type":"user","message":{"role":"user","content":"sub-agent task words"},"uuid":"u0","timestamp":"2026-12-01T10:00:00.500Z"}`,
	`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/src/app","sessionId":"S","version":"2.1.332","gitBranch":"main","type":"user","message":{"role":"user","content":"fix the flaky login test"},"uuid":"u1","timestamp":"2026-12-01T10:00:01.000Z"}`,
	`{"parentUuid":"u1","isSidechain":false,"userType":"external","cwd":"/src/app","sessionId":"S","version":"2.1.332","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-5-5","content":[{"type":"thinking","thinking":"secret reasoning words"},{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/src/app/login_test.go"}}]},"type":"assistant","uuid":"a1","timestamp":"2026-12-01T10:00:02.000Z"}`,
	`{"parentUuid":"a1","isSidechain":false,"userType":"external","cwd":"/src/app","sessionId":"S","version":"2.1.332","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"package login // tool output words"}]},"uuid":"u2","timestamp":"2026-12-01T10:00:03.000Z","toolUseResult":{"type":"text"}}`,
	`{"parentUuid":"u2","isSidechain":false,"userType":"external","cwd":"/src/app","sessionId":"S","version":"2.1.332","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_2","type":"tool_result","content":[{"type":"text","text":"nested tool words"}]},{"type":"text","text":"text beside a tool result"}]},"uuid":"u2b","timestamp":"2026-12-01T10:00:03.500Z"}`,
	`{"parentUuid":"u2","isSidechain":false,"userType":"external","cwd":"/src/app","sessionId":"S","version":"2.1.332","message":{"id":"msg_2","type":"message","role":"assistant","content":[{"type":"text","text":"The race is in the session cache."}]},"type":"assistant","uuid":"a2","timestamp":"2026-12-01T10:00:04.000Z"}`,
	`{"parentUuid":"a2","isSidechain":false,"userType":"external","cwd":"/src/app","sessionId":"S","version":"2.1.332","type":"user","message":{"role":"user","content":"<command-name>/rename</command-name>"},"isMeta":false,"uuid":"u3","timestamp":"2026-12-01T10:00:05.000Z"}`,
	`{"type":"custom-title","customTitle":"login race","sessionId":"S"}`,
	`{"type":"summary","summary":"Fixing a flaky login test","leafUuid":"a2"}`,
}

func writeClaudeTranscript(t *testing.T, lines ...string) string {
	t.Helper()
	id := "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"
	p := filepath.Join(t.TempDir(), "projects", "-src-app", id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestClaudeReadLearnsTheConversation(t *testing.T) {
	p := writeClaudeTranscript(t, claudeTranscriptLines...)
	d, c, err := claude{}.Read(p, harness.Cursor{}, harness.Limits{Text: true, Message: 1 << 10, Line: 1 << 20})
	if err != nil || len(d) != 1 {
		t.Fatalf("Read: %v, %v", d, err)
	}
	l := d[0]
	if l.ID != "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e" || l.Cwd != "/src/app" || l.Title != "fix the flaky login test" ||
		l.Name != "login race" || !l.Named || l.Summary != "Fixing a flaky login test" {
		t.Errorf("learned %+v", l)
	}
	if l.Turns != 1 || l.Messages != 3 {
		t.Errorf("turns %d, messages %d; want the one prompt, and it with two replies", l.Turns, l.Messages)
	}
	wantStart, _ := time.Parse(time.RFC3339, "2026-12-01T10:00:01Z")
	wantActive, _ := time.Parse(time.RFC3339, "2026-12-01T10:00:04Z")
	if !l.Started.Equal(wantStart) || !l.Active.Equal(wantActive) {
		t.Errorf("started %v, active %v", l.Started, l.Active)
	}
	want := []string{"fix the flaky login test", "The race is in the session cache."}
	if !slices.Equal(l.Texts, want) {
		t.Errorf("texts %q, want %q: no sub-agent, thinking, tool output or command wrapper", l.Texts, want)
	}
	fi, _ := os.Stat(p)
	if c.Offset != fi.Size() {
		t.Errorf("stopped at %d of %d", c.Offset, fi.Size())
	}
	// Nothing new: nothing learned but the ID.
	d, c2, _ := claude{}.Read(p, c, harness.Limits{Text: true, Line: 1 << 20})
	if d[0].Messages != 0 || d[0].Title != "" || c2.Offset != c.Offset {
		t.Errorf("a second read with nothing new: %+v at %d", d[0], c2.Offset)
	}
}

func TestClaudeReadGoesOnFromItsCursor(t *testing.T) {
	p := writeClaudeTranscript(t, claudeTranscriptLines[:3]...)
	lim := harness.Limits{Text: true, Line: 1 << 20}
	d, c, _ := claude{}.Read(p, harness.Cursor{}, lim)
	if d[0].Title != "fix the flaky login test" || d[0].Turns != 1 {
		t.Fatalf("first read: %+v", d[0])
	}
	// A second prompt, then a line still being written.
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"isSidechain":false,"cwd":"/src/app","type":"user","message":{"role":"user","content":"and the logout one"},"timestamp":"2026-12-01T11:00:00.000Z"}` + "\n")
	f.WriteString(`{"isSidechain":false,"cwd":"/src/app","type":"assis`)
	d, c2, _ := claude{}.Read(p, c, lim)
	if d[0].Title != "" || d[0].Turns != 1 || !slices.Equal(d[0].Texts, []string{"and the logout one"}) {
		t.Errorf("second read: %+v; want the new prompt only, and no new title", d[0])
	}
	fi, _ := f.Stat()
	if c2.Offset >= fi.Size() || c2.Offset <= c.Offset {
		t.Errorf("cursor %d: want past the new line, before the half-written one (file %d)", c2.Offset, fi.Size())
	}
	f.WriteString(`tant","message":{"role":"assistant","content":[{"type":"text","text":"done"}]},"timestamp":"2026-12-01T11:00:01.000Z"}` + "\n")
	f.Close()
	d, _, _ = claude{}.Read(p, c2, lim)
	if d[0].Messages != 1 || !slices.Equal(d[0].Texts, []string{"done"}) {
		t.Errorf("third read: %+v", d[0])
	}
}

// A transcript that opens with thousands of sub-agent lines and long tool
// results reads them without decoding them, and a line over the limit is
// skipped whole.
func TestClaudeReadSkipsWhatIsNotTheUsers(t *testing.T) {
	var lines []string
	big := strings.Repeat("x", 1<<16)
	for i := 0; i < 2000; i++ {
		lines = append(lines, `{"isSidechain":true,"cwd":"/src/app","type":"user","message":{"role":"user","content":"`+big[:200]+`"}}`)
	}
	lines = append(lines, `{"isSidechain":false,"cwd":"/src/app","type":"user","message":{"role":"user","content":[{"tool_use_id":"t","type":"tool_result","content":"`+big+`"}]}}`)
	lines = append(lines, `{"isSidechain":false,"cwd":"/src/app","type":"user","message":{"role":"user","content":"`+big+big+`"}}`)
	lines = append(lines, claudeTranscriptLines[2])
	p := writeClaudeTranscript(t, lines...)
	d, _, err := claude{}.Read(p, harness.Cursor{}, harness.Limits{Line: 1 << 17})
	if err != nil || d[0].Title != "fix the flaky login test" || d[0].Turns != 1 {
		t.Errorf("Read: %+v, %v", d[0], err)
	}
}

// A conversation belongs to its first line's directory, however a tool
// later moved the shell; a transcript filed under another directory's
// project folder (moved by hand) is not the conversation of either, since
// Claude finds it in neither: it is skipped, then and on every later read.
func TestClaudeReadHomesTheConversation(t *testing.T) {
	moved := strings.ReplaceAll(claudeTranscriptLines[5], `"cwd":"/src/app"`, `"cwd":"/src/app/sub"`)
	lines := append(slices.Clone(claudeTranscriptLines[:5]), moved)
	p := writeClaudeTranscript(t, lines...)
	lim := harness.Limits{Text: true, Message: 1 << 10, Line: 1 << 20}
	d, _, err := claude{}.Read(p, harness.Cursor{}, lim)
	if err != nil || len(d) != 1 || d[0].Cwd != "/src/app" {
		t.Fatalf("Read: %+v, %v; want the conversation of /src/app", d, err)
	}

	elsewhere := filepath.Join(filepath.Dir(filepath.Dir(p)), "-src-other", filepath.Base(p))
	if err := os.MkdirAll(filepath.Dir(elsewhere), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p, elsewhere); err != nil {
		t.Fatal(err)
	}
	d, c, err := claude{}.Read(elsewhere, harness.Cursor{}, lim)
	if err != nil || len(d) != 0 {
		t.Fatalf("Read of a transcript in a foreign folder: %+v, %v; want nothing", d, err)
	}
	d, _, err = claude{}.Read(elsewhere, c, lim)
	if err != nil || len(d) != 0 {
		t.Fatalf("Read again from its cursor: %+v, %v; want nothing", d, err)
	}
}

// Tool results of megabytes, past the read buffer and past the line limit,
// change nothing the reader learns: it passes over them from their heads.
func TestClaudeReadLongToolResults(t *testing.T) {
	lim := harness.Limits{Text: true, Message: 1 << 10, Line: 2 << 20}
	small, _, err := claude{}.Read(writeClaudeTranscript(t, claudeTranscriptLines...), harness.Cursor{}, lim)
	if err != nil || len(small) != 1 {
		t.Fatalf("Read: %v, %v", small, err)
	}
	lines := slices.Clone(claudeTranscriptLines)
	lines[4] = strings.Replace(lines[4], "tool output words", "tool output words"+strings.Repeat("x", 1<<20), 1)
	lines[5] = strings.Replace(lines[5], "nested tool words", "nested tool words"+strings.Repeat("y", 3<<20), 1)
	big, c, err := claude{}.Read(writeClaudeTranscript(t, lines...), harness.Cursor{}, lim)
	if err != nil || len(big) != 1 {
		t.Fatalf("Read: %v, %v", big, err)
	}
	if fmt.Sprintf("%+v", big[0]) != fmt.Sprintf("%+v", small[0]) {
		t.Errorf("with long tool results: %+v\nwith short ones: %+v", big[0], small[0])
	}
	if want := int64(len(strings.Join(lines, "\n")) + 1); c.Offset != want {
		t.Errorf("stopped at %d of %d", c.Offset, want)
	}
	for i, want := range map[int]bool{4: true, 5: true, 2: false, 3: false, 6: false} {
		if got := claudeHead([]byte(lines[i])).Cut; got != want {
			t.Errorf("claudeHead(line %d) = %v, want %v", i, got, want)
		}
	}
}

// The preview shows no sub-agent's lines, reads the same from a transcript
// whose tool results are megabytes long, and still shows the text typed
// beside one of them.
func TestClaudeExcerpt(t *testing.T) {
	excerpt := func(lines []string) harness.Excerpt {
		p := writeClaudeTranscript(t, lines...)
		home := filepath.Dir(filepath.Dir(filepath.Dir(p)))
		id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		return claude{}.Excerpt(home, "/src/app", id, 10, 400)
	}
	small := excerpt(claudeTranscriptLines)
	if small.Total == 0 {
		t.Fatalf("no excerpt: %+v", small)
	}
	if got := fmt.Sprintf("%+v", small); strings.Contains(got, "sub-agent task words") {
		t.Errorf("a sub-agent's task is shown as the user's: %s", got)
	}
	lines := slices.Clone(claudeTranscriptLines)
	lines[4] = strings.Replace(lines[4], "tool output words", "tool output words"+strings.Repeat("x", 1<<20), 1)
	lines[5] = strings.Replace(lines[5], "nested tool words", "nested tool words"+strings.Repeat("y", 3<<20), 1)
	if big := excerpt(lines); fmt.Sprintf("%+v", big) != fmt.Sprintf("%+v", small) {
		t.Errorf("with long tool results: %+v\nwith short ones: %+v", big, small)
	}
	// Text typed beside a long result, after it: in the rest of the line.
	beside := strings.Replace(lines[4], `"}]},"uuid"`, `"},{"type":"text","text":"typed beside"}]},"uuid"`, 1)
	if beside == lines[4] {
		t.Fatal("the fixture's line 4 changed shape")
	}
	lines[4] = beside
	if got := fmt.Sprintf("%+v", excerpt(lines)); !strings.Contains(got, "typed beside") {
		t.Errorf("the text beside a long result is missing: %s", got)
	}
	for i, want := range map[int]bool{4: false, 5: false} {
		if got := excerptHead([]byte(lines[i])).Cut; got != want {
			t.Errorf("excerptHead(line %d) = %v, want %v", i, got, want)
		}
	}
	big4 := strings.Replace(claudeTranscriptLines[4], "tool output words", "tool output words"+strings.Repeat("x", 1<<20), 1)
	if h := excerptHead([]byte(big4)); !h.Cut || string(h.Unless) != `,{"type":"text"` {
		t.Errorf("excerptHead(a long result) = %+v, want a cut", h)
	}
}
