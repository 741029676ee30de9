package harness

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
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

// The agents, as the tests use them.
func claudeA() Agent { return Claude }

// testAgents are the agents of this package, until each has its own.
func testAgents() []Agent { return []Agent{Claude} }

// testLookup finds one of testAgents by name.
func testLookup(name string) (Agent, bool) {
	for _, a := range testAgents() {
		if a.Name == name {
			return a, true
		}
	}
	return Agent{}, false
}
