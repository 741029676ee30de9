package shim

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/store"
)

// FuzzExitHint drives the exit hint from the terminal tail to the decision
// that records it. Whatever the child printed, an ID the decision takes from
// the hint is one the run already knew (pinned or captured) or one whose
// conversation is in the run's own directory: a hint naming another
// project's conversation, which the seeds include, never wins.
func FuzzExitHint(f *testing.F) {
	claude, ok := agents.Named("claude")
	if !ok {
		f.Fatal("no claude agent registered")
	}
	home, root := f.TempDir(), f.TempDir()
	here, there := filepath.Join(root, "here"), filepath.Join(root, "there")
	const (
		mine    = "0b0f5cbe-7c55-4a8e-9a54-0f1f4c0d3a11"
		foreign = "5d0c1a2b-3e4f-4a6b-8c9d-0e1f2a3b4c5d"
		pinned  = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"
	)
	for _, c := range []struct{ dir, id string }{{here, mine}, {there, foreign}} {
		if err := os.MkdirAll(c.dir, 0o755); err != nil {
			f.Fatal(err)
		}
		writeClaudeTranscript(f, home, c.dir, c.id)
	}
	for _, s := range []string{
		"Resume this session with:\nclaude --resume " + mine + "\n",
		"Resume this session with:\nclaude --resume " + foreign + "\n",
		"claude --resume " + pinned,
		"\x1b[2mclaude --resume " + foreign + "\x1b[0m\r\n",
		"claude --resume " + mine + "\nclaude --resume " + foreign,
		"claude --resume ../../" + foreign,
		"",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, tail []byte, withPin bool) {
		r := &recorder{a: claude, base: store.Record{Tool: "claude", Home: home, Cwd: here, Started: time.Now()}}
		if withPin {
			r.pinned = pinned
		}
		ev := &evidence{hint: claude.ScrapeExit(tail)}
		if ev.hint != "" && !claude.ID.Valid(ev.hint) {
			t.Fatalf("the hint %q passed no grammar", ev.hint)
		}
		id, source := r.decide(ev)
		if source != "hint" {
			return
		}
		if id != r.pinned && id != mine {
			t.Fatalf("a hint naming %s was taken for a run in %s (pinned %q)", id, here, r.pinned)
		}
	})
}

// writeClaudeTranscript writes the smallest transcript Claude Code keeps
// for a conversation with one exchange, in dir's project folder.
func writeClaudeTranscript(t testing.TB, home, dir, id string) {
	t.Helper()
	claude, _ := agents.Named("claude")
	place, err := claude.Behaviour.(harness.Mover).Place(home, dir, id, dir, []harness.File{{Name: "transcript.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	path := place.Path
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	stamp := time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	var data []byte
	for _, line := range []map[string]any{
		{"type": "user", "sessionId": id, "cwd": dir, "timestamp": stamp, "message": map[string]any{"role": "user", "content": "hello"}},
		{"type": "assistant", "sessionId": id, "cwd": dir, "timestamp": stamp,
			"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "ACK"}}}},
	} {
		b, err := json.Marshal(line)
		if err != nil {
			t.Fatal(err)
		}
		data = append(append(data, b...), '\n')
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
