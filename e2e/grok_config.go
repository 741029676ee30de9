package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// grokHookRecorder appends one JSON line per run: the GROK_SESSION_ID the
// hook's environment carries, its label, and the payload Grok wrote on
// stdin. The line goes out in one write: Grok runs the SessionEnd hooks of
// all its sessions at once, and pieces written separately interleave.
const grokHookRecorder = `out="$1"
payload=$(cat)
printf '{"env_session_id":"%s","label":"%s","payload":%s}\n' "$GROK_SESSION_ID" "$2" "${payload:-null}" >> "$out"
`

// GrokHookPayload is what a Grok command hook gets on stdin (both the
// camelCase keys and their Claude-style snake_case copies), plus what the
// recorder adds.
type GrokHookPayload struct {
	HookEventName  string `json:"hookEventName"`   // "session_start"
	Event          string `json:"hook_event_name"` // "SessionStart"
	SessionID      string `json:"sessionId"`
	SessionIDSnake string `json:"session_id"`
	CWD            string `json:"cwd"`
	WorkspaceRoot  string `json:"workspaceRoot"`
	Source         string `json:"source"` // "new" or "load"
	Reason         string `json:"reason"` // SessionEnd: "shutdown"
	TranscriptPath string `json:"transcriptPath"`

	// EnvSessionID is $GROK_SESSION_ID in the hook's environment and
	// Label the recorder's second argument.
	EnvSessionID string `json:"-"`
	Label        string `json:"-"`
}

// GrokHookRecorder writes the recording hook script and returns its path and
// the file its payloads land in.
func (w *World) GrokHookRecorder(name string) (script, record string) {
	w.t.Helper()
	record = filepath.Join(w.Root, name+".jsonl")
	return w.Script(name, grokHookRecorder), record
}

// grokHookFile is a hooks JSON document that runs command on SessionStart
// and SessionEnd.
func grokHookFile(command string) map[string]any {
	group := []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command}}}}
	return map[string]any{"hooks": map[string]any{"SessionStart": group, "SessionEnd": group}}
}

// SetGrokUserHook installs a recording hook as the user's own
// $GROK_HOME/hooks/<name>.json and returns the file its payloads land in.
func (w *World) SetGrokUserHook(name string) string {
	w.t.Helper()
	script, record := w.GrokHookRecorder(name)
	w.writeJSON(filepath.Join(w.GrokHome(), "hooks", name+".json"),
		grokHookFile(shellQuote(script)+" "+shellQuote(record)+" "+name))
	return record
}

// GrokHookPayloads reads what a recording hook got, oldest first; event
// keeps the payloads of one event ("session_start"), or all when empty.
func GrokHookPayloads(record, event string) []GrokHookPayload {
	var out []GrokHookPayload
	b, _ := os.ReadFile(record)
	forLines(b, func(line []byte) {
		var l struct {
			Env     string          `json:"env_session_id"`
			Label   string          `json:"label"`
			Payload json.RawMessage `json:"payload"`
		}
		var p GrokHookPayload
		if json.Unmarshal(line, &l) != nil || json.Unmarshal(l.Payload, &p) != nil {
			return
		}
		p.EnvSessionID, p.Label = l.Env, l.Label
		if event == "" || p.HookEventName == event {
			out = append(out, p)
		}
	})
	return out
}

// WaitGrokStarts waits until the record holds at least n SessionStart
// payloads and returns them.
func WaitGrokStarts(t testing.TB, record string, n int) []GrokHookPayload {
	t.Helper()
	var got []GrokHookPayload
	if !eventually(replyWait, func() bool { got = GrokHookPayloads(record, "session_start"); return len(got) >= n }) {
		b, _ := os.ReadFile(record)
		t.Fatalf("want %d SessionStart payloads, got %d:\n%s", n, len(got), b)
	}
	return got
}

// grokAgentFile is an agent definition whose frontmatter runs command on
// SessionStart. promptMode "extend" keeps Grok's own system prompt.
func grokAgentFile(command string) string {
	return fmt.Sprintf(`---
name: fleetcom-e2e-agent
description: an agent that only adds a SessionStart hook
promptMode: extend
hooks:
  SessionStart:
    - hooks:
        - type: command
          command: %s
---
`, tomlString(command)) // a JSON string is a valid YAML double-quoted scalar
}
