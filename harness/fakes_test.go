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

// writeGrokSession writes a Grok session directory as Grok 1.0.41 does: at
// start a summary and a history holding the system lines; with a prompt,
// Grok's <user_info> context first, then the prompt wrapped in
// <user_query>, and the update log. An empty prompt is a session quit
// before its first one.
func writeGrokSession(t testing.TB, home, cwd, id, prompt string) string {
	t.Helper()
	dir := filepath.Join(home, "sessions", grokDirName(cwd), id)
	n := 0
	history := harnesstest.JSONLine(t, map[string]any{"type": "system", "content": "You are Grok."}) +
		harnesstest.JSONLine(t, map[string]any{"type": "user", "content": "<system-reminder>workflows</system-reminder>", "synthetic_reason": "system_reminder"})
	if prompt != "" {
		n = 3
		history += harnesstest.JSONLine(t, map[string]any{"type": "user", "content": "<user_info>\nOS Version: linux\nWorkspace Path: " + cwd + "\n</user_info>\n\n<rules>…"}) +
			harnesstest.JSONLine(t, map[string]any{"type": "user", "content": "<user_query>\n" + prompt + "\n</user_query>", "prompt_index": 0}) +
			harnesstest.JSONLine(t, map[string]any{"type": "assistant", "content": "ACK", "model_id": "fake-model"})
		harnesstest.WriteFile(t, filepath.Join(dir, "updates.jsonl"), harnesstest.JSONLine(t, map[string]any{"method": "session/update", "params": map[string]any{
			"sessionId": id, "update": map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": prompt}}}}))
	}
	harnesstest.WriteFile(t, filepath.Join(dir, "summary.json"), harnesstest.JSONLine(t, map[string]any{
		"info": map[string]any{"id": id, "cwd": cwd}, "created_at": "2026-12-01T10:00:00.000Z", "num_messages": n}))
	harnesstest.WriteFile(t, filepath.Join(dir, "chat_history.jsonl"), history)
	return dir
}

// The agents, as the tests use them.
func claudeA() Agent { return Claude }
func codexA() Agent  { return Codex }
func grokA() Agent   { return Grok }

// testAgents are the agents of this package, until each has its own.
func testAgents() []Agent { return []Agent{Claude, Codex, Copilot, Gemini, Grok, Opencode} }

// testLookup finds one of testAgents by name.
func testLookup(name string) (Agent, bool) {
	for _, a := range testAgents() {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}
