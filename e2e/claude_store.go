package e2e

import (
	"encoding/json"
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
