package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WaitHooks waits until the hook record holds at least n payloads.
func WaitHooks(t testing.TB, record string, n int) []HookPayload {
	t.Helper()
	var got []HookPayload
	if !eventually(replyWait, func() bool { got = HookPayloads(record); return len(got) >= n }) {
		b, _ := os.ReadFile(record)
		t.Fatalf("want %d SessionStart payloads, got %d:\n%s", n, len(got), b)
	}
	return got
}

// ClaudeSlug is Claude's project directory name for a short path: every
// character outside [A-Za-z0-9] becomes '-'. Long paths get a hash suffix
// this does not compute; the suite's paths stay short.
func ClaudeSlug(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		if ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Transcript is what a Claude transcript file holds, as far as the suite
// cares.
type Transcript struct {
	Path  string
	Lines int
	// Messages counts user and assistant lines: zero means the file only
	// holds metadata and Claude cannot resume it.
	Messages int
	// Replies counts assistant lines: a conversation the model answered.
	Replies int
	Text    string
}

// ClaudeTranscripts returns the transcripts of the project dir, by ID.
func ClaudeTranscripts(claudeHome, dir string) map[string]Transcript {
	out := map[string]Transcript{}
	files, _ := filepath.Glob(filepath.Join(claudeHome, "projects", ClaudeSlug(dir), "*.jsonl"))
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		if !uuidRE.MatchString(id) {
			continue
		}
		tr := Transcript{Path: f}
		b, _ := os.ReadFile(f)
		tr.Text = string(b)
		forLines(b, func(line []byte) {
			tr.Lines++
			var l struct{ Type string }
			if json.Unmarshal(line, &l) == nil && (l.Type == "user" || l.Type == "assistant") {
				tr.Messages++
			}
			if l.Type == "assistant" {
				tr.Replies++
			}
		})
		out[id] = tr
	}
	return out
}

// HookPayload is what Claude hands a SessionStart command hook on stdin.
type HookPayload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	Event          string `json:"hook_event_name"`
	Source         string `json:"source"`
	Model          string `json:"model"`
}

// hookRecorder is a SessionStart hook that appends its stdin as one line.
const hookRecorder = `out="$1"
{ cat; echo; } >> "$out"
`

// ClaudeHookSettings writes a recording hook and a --settings file that runs
// it, and returns the settings path and the file the payloads land in.
func (w *World) ClaudeHookSettings() (settings, record string) {
	w.t.Helper()
	record = filepath.Join(w.Root, "hook-payloads.jsonl")
	hook := w.Script("session-start-hook", hookRecorder)
	settings = filepath.Join(w.Root, "hook-settings.json")
	w.writeJSON(settings, map[string]any{
		"hooks": map[string]any{"SessionStart": []any{map[string]any{
			"hooks": []any{map[string]any{"type": "command", "command": shellQuote(hook) + " " + shellQuote(record)}},
		}}},
	})
	return settings, record
}

// HookPayloads reads what the recording hook got, oldest first.
func HookPayloads(record string) []HookPayload {
	var out []HookPayload
	b, _ := os.ReadFile(record)
	forLines(b, func(line []byte) {
		var p HookPayload
		if json.Unmarshal(line, &p) == nil {
			out = append(out, p)
		}
	})
	return out
}

// WaitClaudeRecorded waits until a transcript of the project dir holds
// text, as Claude writes a turn out after showing it.
func WaitClaudeRecorded(t testing.TB, claudeHome, dir, text string) {
	t.Helper()
	if !eventually(replyWait, func() bool {
		for _, tr := range ClaudeTranscripts(claudeHome, dir) {
			if strings.Contains(tr.Text, text) {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no transcript of %s holds %q after %s", dir, text, replyWait)
	}
}

// ClaudeChain describes the transcript id of the project dir one entry a
// line (its type, its uuid and the parent it names, the start of its
// text), for a failure that needs to show how Claude will read it back.
func ClaudeChain(claudeHome, dir, id string) string {
	tr, ok := ClaudeTranscripts(claudeHome, dir)[id]
	if !ok {
		return "(no such transcript)"
	}
	short := func(s string) string { return s[:min(len(s), 8)] }
	var b strings.Builder
	forLines([]byte(tr.Text), func(line []byte) {
		var e struct {
			Type       string
			UUID       string `json:"uuid"`
			ParentUUID string `json:"parentUuid"`
		}
		_ = json.Unmarshal(line, &e)
		text := string(line)
		if i := strings.Index(text, `"content"`); i >= 0 {
			text = text[i:]
		}
		fmt.Fprintf(&b, "%-10s %-8s <- %-8s %.80s\n", e.Type, short(e.UUID), short(e.ParentUUID), text)
	})
	return b.String()
}
