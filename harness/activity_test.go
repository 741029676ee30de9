package harness

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// A conversation's last activity is its last message as its store dates
// it, however long the lines after it and whatever its file's time says
// (issue 21, item 12).
func TestLastActive(t *testing.T) {
	home := t.TempDir()
	cwd := "/work/proj"
	id := harnesstest.UUID(t)
	when := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	path := writeTranscriptAt(t, home, ClaudeSlug(cwd), cwd, id, "nine days old", when)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "assistant", "sessionId": id, "cwd": cwd,
		"timestamp": when.Add(time.Minute).Format(time.RFC3339Nano), "message": map[string]any{"role": "assistant", "content": "ok"}}))
	// A long line after it (a snapshot, a summary) with no message.
	f.WriteString(harnesstest.JSONLine(t, map[string]any{"type": "file-history-snapshot", "snapshot": strings.Repeat("x", 200<<10)}))
	f.WriteString(`{"type":"user","timestamp":"2030-01-01T00:00:00Z"`) // being written: no newline yet
	f.Close()
	os.Chtimes(path, time.Now(), time.Now())
	claude := Claude
	if got := LastActive(claude, home, cwd, id); !got.Equal(when.Add(time.Minute)) {
		t.Errorf("claude: %v, want %v", got, when.Add(time.Minute))
	}
	if got := LastActive(claude, home, "/elsewhere", id); !got.IsZero() {
		t.Errorf("claude, another directory: %v", got)
	}
}
