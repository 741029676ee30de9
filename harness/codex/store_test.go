package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

func TestStore(t *testing.T) {
	home := t.TempDir()
	spawn := time.Now()
	cwd := "/work/proj"
	main := harnesstest.V7At(spawn.Add(200 * time.Millisecond))
	writeRollout(t, home, main, cwd, false, "refactor the store")
	writeRollout(t, home, harnesstest.V7At(spawn.Add(time.Second)), cwd, true, "")                // subagent
	writeRollout(t, home, harnesstest.V7At(spawn.Add(2*time.Second)), "/other", false, "")        // another directory
	writeRollout(t, home, harnesstest.V7At(spawn.Add(-time.Hour)), cwd, false, "earlier")         // outside the window
	writeRollout(t, home, harnesstest.V7At(spawn.Add(-5*time.Second)), cwd, false, "just before") // an earlier run's
	h := Agent
	if got := h.Correlate(home, cwd, spawn); got != main {
		t.Fatalf("Correlate = %q, want %q", got, main)
	}
	if !h.Exists(home, cwd, main) || h.Exists(home, cwd, harnesstest.V7At(spawn)) {
		t.Error("Exists is wrong")
	}
	if got := h.Title(home, cwd, main); got != "refactor the store" {
		t.Errorf("Title = %q", got)
	}
	// A rollout whose first line is still being written is not a candidate.
	partial := harnesstest.V7At(spawn.Add(3 * time.Second))
	at := time.UnixMilli(spawn.Add(3 * time.Second).UnixMilli()).Local()
	harnesstest.WriteFile(t, filepath.Join(dayDir(home, at), fmt.Sprintf("rollout-%s-%s.jsonl", at.Format("2006-01-02T15-04-05"), partial)),
		`{"timestamp":"x","type":"session_meta","payload":{"id":"`+partial)
	if got := h.Correlate(home, cwd, spawn); got != main {
		t.Fatalf("partial rollout changed the match: %q", got)
	}
	if h.Exists(home, cwd, partial) {
		t.Error("a partial rollout counts as a conversation")
	}
	writeRollout(t, home, harnesstest.V7At(spawn.Add(4*time.Second)), cwd, false, "")
	if got := h.Correlate(home, cwd, spawn); got != "" {
		t.Fatalf("two candidates must give no match, got %s", got)
	}
	// A v4 ID is found by walking.
	v4 := harnesstest.UUID(t)
	harnesstest.WriteFile(t, filepath.Join(home, "sessions", "2020", "01", "02", "rollout-2020-01-02T03-04-05-"+v4+".jsonl"),
		harnesstest.JSONLine(t, map[string]any{"type": "session_meta", "payload": map[string]any{"id": v4, "cwd": cwd}}))
	if !h.Exists(home, cwd, v4) {
		t.Error("a v4 rollout was not found")
	}
}

// A home of 50,000 rollouts spread over two years: correlation opens only the
// five day directories of its window.
func BenchmarkCorrelate50k(b *testing.B) {
	home := b.TempDir()
	cwd := "/work/proj"
	end := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 50000; i++ {
		at := end.Add(-time.Duration(i) * (2 * 365 * 24 * time.Hour / 50000))
		id := harnesstest.V7At(at)
		local := at.Local()
		dir := dayDir(home, local)
		os.MkdirAll(dir, 0o755)
		name := fmt.Sprintf("rollout-%s-%s.jsonl", local.Format("2006-01-02T15-04-05"), id)
		os.WriteFile(filepath.Join(dir, name), []byte(`{"type":"session_meta","payload":{"id":"`+id+`","cwd":"/x"}}`+"\n"), 0o644)
	}
	spawn := end.Add(-72 * time.Hour) // the whole ±2-day window exists
	target := harnesstest.V7At(spawn.Add(time.Second))
	writeRollout(b, home, target, cwd, false, "")
	b.ResetTimer()
	var st scanStats
	for b.Loop() {
		var id string
		id, st = correlate(home, cwd, spawn)
		if id != target {
			b.Fatalf("got %q", id)
		}
	}
	b.ReportMetric(float64(st.Dirs), "dirs/op")
	b.ReportMetric(float64(st.Entries), "entries/op")
	b.ReportMetric(float64(st.Opened), "opened/op")
}

// The anchor for the figure above: the same correlation over an empty home.
func BenchmarkCorrelateEmpty(b *testing.B) {
	home := b.TempDir()
	spawn := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for b.Loop() {
		if id, _ := correlate(home, "/work/proj", spawn); id != "" {
			b.Fatal(id)
		}
	}
}
