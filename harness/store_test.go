package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestClaudeSlug(t *testing.T) {
	long := "/tmp/slugt/" + strings.Repeat("a", 120) + "/" + strings.Repeat("b.c_d ", 20) + "é/x"
	cases := map[string]string{
		"/home/u/proj":         "-home-u-proj",
		"/home/u/my.proj_v2":   "-home-u-my-proj-v2",
		"/home/u/a b":          "-home-u-a-b",
		"/home/u/--x":          "-home-u---x",
		"/home/u/café":         "-home-u-caf-",
		"/home/u/😀":            "-home-u---", // one code point, two UTF-16 units
		strings.Repeat("/", 3): "---",
		// Measured with Claude Code 2.1.197: cut to 200, then "-" and the
		// base-36 hash of the path.
		long: "-tmp-slugt-" + strings.Repeat("a", 120) + strings.Repeat("-b-c-d", 11) + "-b--dyubk",
	}
	for in, want := range cases {
		if got := ClaudeSlug(in); got != want {
			t.Errorf("ClaudeSlug(%q) = %q, want %q", in, got, want)
		}
	}
	if got := ClaudeSlug("/" + strings.Repeat("x", 199)); len(got) != 200 {
		t.Errorf("a 200-character slug must not be cut: %d", len(got))
	}
}

func TestClaudeExistsAndTitle(t *testing.T) {
	home := t.TempDir()
	cwd := "/work/proj"
	talked, meta, other, far := mustID(t), mustID(t), mustID(t), mustID(t)
	writeTranscript(t, home, cwd, talked, "  fix the\tflaky\x1b[31m test\n please ")
	writeTranscript(t, home, cwd, meta, "")
	writeTranscript(t, home, "/elsewhere", other, "elsewhere")
	long := "/" + strings.Repeat("deep/", 50)
	writeTranscriptAt(t, home, "not-recomputable-slug", long, far, "long path", time.Now())
	h := Claude{}
	cases := []struct {
		id, cwd string
		exists  bool
		title   string
	}{
		{talked, cwd, true, "fix the flaky [31m test please"},
		{meta, cwd, false, ""},
		{other, cwd, true, "elsewhere"}, // found by the unique projects/*/<id> fallback
		{far, long, true, "long path"},
		{mustID(t), cwd, false, ""},
		{"../" + talked, cwd, false, ""},
	}
	for _, c := range cases {
		if got := h.Exists(home, c.cwd, c.id); got != c.exists {
			t.Errorf("Exists(%s) = %v, want %v", c.id, got, c.exists)
		}
		if got := h.Title(home, c.cwd, c.id); got != c.title {
			t.Errorf("Title(%s) = %q, want %q", c.id, got, c.title)
		}
	}
	// A prompt history file or any non-ID name is never a conversation.
	writeFile(t, filepath.Join(home, "projects", ClaudeSlug(cwd), "prompt_history.jsonl"), `{"type":"user"}`+"\n")
	if h.Correlate(home, cwd, time.Now()) == "prompt_history" {
		t.Error("a history file was taken for a session")
	}
}

func TestClaudeTitleSkipsMetaAndCommands(t *testing.T) {
	home, cwd, id := t.TempDir(), "/w", mustID(t)
	path := filepath.Join(home, "projects", ClaudeSlug(cwd), id+".jsonl")
	data := jsonLine(t, map[string]any{"type": "user", "isMeta": true, "message": map[string]any{"content": "Caveat: local"}})
	data += jsonLine(t, map[string]any{"type": "user", "message": map[string]any{"content": "<command-name>/model</command-name>"}})
	data += jsonLine(t, map[string]any{"type": "user", "message": map[string]any{"content": []any{
		map[string]any{"type": "tool_result", "content": "x"}}}})
	data += jsonLine(t, map[string]any{"type": "user", "message": map[string]any{"content": []any{
		map[string]any{"type": "text", "text": strings.Repeat("long prompt ", 20)}}}})
	writeFile(t, path, data)
	got := (Claude{}).Title(home, cwd, id)
	if !strings.HasPrefix(got, "long prompt long prompt") || !strings.HasSuffix(got, "…") || len([]rune(got)) > titleLen+1 {
		t.Errorf("Title = %q", got)
	}
}

func TestClaudeCorrelate(t *testing.T) {
	home, cwd := t.TempDir(), "/work/proj"
	spawn := time.Now()
	old := mustID(t)
	writeTranscriptAt(t, home, ClaudeSlug(cwd), cwd, old, "old", spawn.Add(-time.Hour))
	h := Claude{}
	if got := h.Correlate(home, cwd, spawn); got != "" {
		t.Fatalf("an older conversation was correlated: %s", got)
	}
	fresh := mustID(t)
	writeTranscriptAt(t, home, ClaudeSlug(cwd), cwd, fresh, "new", spawn.Add(5*time.Second))
	writeTranscriptAt(t, home, ClaudeSlug(cwd), cwd, mustID(t), "", spawn.Add(5*time.Second)) // metadata only
	if got := h.Correlate(home, cwd, spawn); got != fresh {
		t.Fatalf("Correlate = %q, want %q", got, fresh)
	}
	writeTranscriptAt(t, home, ClaudeSlug(cwd), cwd, mustID(t), "concurrent", spawn.Add(6*time.Second))
	if got := h.Correlate(home, cwd, spawn); got != "" {
		t.Fatalf("two candidates must give no match, got %s", got)
	}
}

func TestCodexStore(t *testing.T) {
	home := t.TempDir()
	spawn := time.Now()
	cwd := "/work/proj"
	main := v7At(spawn.Add(200 * time.Millisecond))
	writeRollout(t, home, main, cwd, false, "refactor the store")
	writeRollout(t, home, v7At(spawn.Add(time.Second)), cwd, true, "")         // subagent
	writeRollout(t, home, v7At(spawn.Add(2*time.Second)), "/other", false, "") // another directory
	writeRollout(t, home, v7At(spawn.Add(-time.Hour)), cwd, false, "earlier")  // outside the window
	h := Codex{}
	if got := h.Correlate(home, cwd, spawn); got != main {
		t.Fatalf("Correlate = %q, want %q", got, main)
	}
	if !h.Exists(home, cwd, main) || h.Exists(home, cwd, v7At(spawn)) {
		t.Error("Exists is wrong")
	}
	if got := h.Title(home, cwd, main); got != "refactor the store" {
		t.Errorf("Title = %q", got)
	}
	// A rollout whose first line is still being written is not a candidate.
	partial := v7At(spawn.Add(3 * time.Second))
	at := time.UnixMilli(spawn.Add(3 * time.Second).UnixMilli()).Local()
	writeFile(t, filepath.Join(dayDir(home, at), fmt.Sprintf("rollout-%s-%s.jsonl", at.Format("2006-01-02T15-04-05"), partial)),
		`{"timestamp":"x","type":"session_meta","payload":{"id":"`+partial)
	if got := h.Correlate(home, cwd, spawn); got != main {
		t.Fatalf("partial rollout changed the match: %q", got)
	}
	if h.Exists(home, cwd, partial) {
		t.Error("a partial rollout counts as a conversation")
	}
	writeRollout(t, home, v7At(spawn.Add(4*time.Second)), cwd, false, "")
	if got := h.Correlate(home, cwd, spawn); got != "" {
		t.Fatalf("two candidates must give no match, got %s", got)
	}
	// A v4 ID is found by walking.
	v4 := mustID(t)
	writeFile(t, filepath.Join(home, "sessions", "2020", "01", "02", "rollout-2020-01-02T03-04-05-"+v4+".jsonl"),
		jsonLine(t, map[string]any{"type": "session_meta", "payload": map[string]any{"id": v4, "cwd": cwd}}))
	if !h.Exists(home, cwd, v4) {
		t.Error("a v4 rollout was not found")
	}
}

func TestGrokStore(t *testing.T) {
	home := t.TempDir()
	cwd := "/work/100%/proj"
	if got := GrokDirName(cwd); got != "%2Fwork%2F100%25%2Fproj" {
		t.Fatalf("GrokDirName = %q", got)
	}
	spawn := time.Now()
	id := mustID(t)
	writeGrokSession(t, home, cwd, id, "hello grok")
	os.WriteFile(filepath.Join(home, "sessions", GrokDirName(cwd), "prompt_history"), []byte("x"), 0o644)
	h := Grok{}
	if !h.Exists(home, cwd, id) || h.Exists(home, cwd, mustID(t)) {
		t.Error("Exists is wrong")
	}
	if !h.Exists(home, "/moved", id) {
		t.Error("resume by ID does not depend on the directory")
	}
	if got := h.Title(home, cwd, id); got != "hello grok" {
		t.Errorf("Title = %q", got)
	}
	if got := h.Correlate(home, cwd, spawn); got != id {
		t.Errorf("Correlate = %q, want %q", got, id)
	}
	writeGrokSession(t, home, cwd, mustID(t), "")
	if got := h.Correlate(home, cwd, spawn); got != "" {
		t.Errorf("two candidates must give no match, got %s", got)
	}
}

// A home of 50,000 rollouts spread over two years: correlation opens only the
// five day directories of its window.
func BenchmarkCodexCorrelate50k(b *testing.B) {
	home := b.TempDir()
	cwd := "/work/proj"
	end := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 50000; i++ {
		at := end.Add(-time.Duration(i) * (2 * 365 * 24 * time.Hour / 50000))
		id := v7At(at)
		local := at.Local()
		dir := dayDir(home, local)
		os.MkdirAll(dir, 0o755)
		name := fmt.Sprintf("rollout-%s-%s.jsonl", local.Format("2006-01-02T15-04-05"), id)
		os.WriteFile(filepath.Join(dir, name), []byte(`{"type":"session_meta","payload":{"id":"`+id+`","cwd":"/x"}}`+"\n"), 0o644)
	}
	spawn := end.Add(-time.Hour)
	target := v7At(spawn.Add(time.Second))
	writeRollout(b, home, target, cwd, false, "")
	b.ResetTimer()
	var st scanStats
	for b.Loop() {
		var id string
		id, st = codexCorrelate(home, cwd, spawn)
		if id != target {
			b.Fatalf("got %q", id)
		}
	}
	b.ReportMetric(float64(st.Dirs), "dirs/op")
	b.ReportMetric(float64(st.Entries), "entries/op")
	b.ReportMetric(float64(st.Opened), "opened/op")
}
