package harness

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Builders for the tools' on-disk stores, shaped as CLI-FACTS.md describes.

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
	return writeTranscriptAt(t, home, ClaudeSlug(cwd), cwd, id, prompt, time.Now())
}

// writeRollout writes a Codex rollout for id in the local-time day directory of
// its v7 timestamp.
func writeRollout(t testing.TB, home, id, cwd string, subagent bool, prompt string) string {
	t.Helper()
	ms, ok := safe.UUIDTime(id)
	if !ok {
		ms = time.Now().UnixMilli()
	}
	at := time.UnixMilli(ms).Local()
	name := fmt.Sprintf("rollout-%s-%s.jsonl", at.Format("2006-01-02T15-04-05"), id)
	path := filepath.Join(dayDir(home, at), name)
	source := "user"
	if subagent {
		source = "subagent"
	}
	data := harnesstest.JSONLine(t, map[string]any{"timestamp": at.UTC().Format(time.RFC3339Nano), "type": "session_meta",
		"payload": map[string]any{"id": id, "session_id": id, "timestamp": at.UTC().Format(time.RFC3339Nano),
			"cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.171.0", "source": "cli", "thread_source": source}})
	if prompt != "" {
		data += harnesstest.JSONLine(t, map[string]any{"type": "response_item", "payload": map[string]any{"type": "message", "role": "user",
			"content": []any{map[string]any{"type": "input_text", "text": "<environment_context>cwd</environment_context>"}}}})
		data += harnesstest.JSONLine(t, map[string]any{"type": "event_msg", "payload": map[string]any{"type": "user_message", "message": prompt}})
	}
	harnesstest.WriteFile(t, path, data)
	return path
}

// The agents, as the tests use them.
func claudeA() Agent { return Claude }
func codexA() Agent  { return Codex }

// testAgents are the agents of this package, until each has its own.
func testAgents() []Agent { return []Agent{Claude, Codex} }

// testLookup finds one of testAgents by name.
func testLookup(name string) (Agent, bool) {
	for _, a := range testAgents() {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}
