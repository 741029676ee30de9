package main

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// writeCodexHome writes a Codex home of n rollouts over two years from 20
// directories, one in twenty of them cwd, shaped like 0.171's (base
// instructions cut to 4 KB), with each day directory dated on its day.
func writeCodexHome(t testing.TB, home, cwd string, n int) {
	t.Helper()
	end := time.Now().Add(-time.Hour)
	step := 2 * 365 * 24 * time.Hour / time.Duration(n)
	instructions := strings.Repeat("You are a coding agent running in a terminal. ", 90)
	days := map[string]time.Time{}
	for i := 0; i < n; i++ {
		at := end.Add(-time.Duration(i) * step)
		ms := uint64(at.UnixMilli())
		id := fmtV7(ms, uint64(i))
		dir := filepath.Join(home, "sessions", at.Format("2006"), at.Format("01"), at.Format("02"))
		if _, ok := days[dir]; !ok {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			days[dir] = at
		}
		dirOf := filepath.Join(filepath.Dir(cwd), "codex-project-"+strconv.Itoa(i%20))
		if i%20 == 0 {
			dirOf = cwd
		}
		data := `{"timestamp":"x","type":"session_meta","payload":{"session_id":"` + id + `","id":"` + id + `","timestamp":"x","cwd":"` + dirOf +
			`","originator":"codex_cli_rs","cli_version":"0.171.0","source":"cli","thread_source":"user","base_instructions":{"text":"` + instructions + `"}}}` + "\n" +
			`{"type":"event_msg","payload":{"type":"user_message","message":"codex task ` + strconv.Itoa(i) + `"}}` + "\n"
		p := filepath.Join(dir, "rollout-"+at.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, at, at)
	}
	for dir, at := range days {
		os.Chtimes(dir, at, at)
	}
}

// fmtV7 formats a version 7 ID from a millisecond time and a counter.
func fmtV7(ms, n uint64) string {
	h := strconv.FormatUint(ms, 16)
	h = strings.Repeat("0", 12-len(h)) + h
	c := strconv.FormatUint(n, 16)
	c = strings.Repeat("0", 12-len(c)) + c
	return h[:8] + "-" + h[8:] + "-7000-8000-" + c
}

// TestWriteBenchCodexHome builds the Codex home a timing of the binary runs
// against when FLEETCOM_BENCH_CODEX names its directory (and
// FLEETCOM_BENCH_CWD the directory to complete in); go test alone skips it.
func TestWriteBenchCodexHome(t *testing.T) {
	home := os.Getenv("FLEETCOM_BENCH_CODEX")
	if home == "" {
		t.Skip("FLEETCOM_BENCH_CODEX is not set: only a timing run builds this home")
	}
	writeCodexHome(t, home, os.Getenv("FLEETCOM_BENCH_CWD"), 50000)
}

// BenchmarkCompleteFound is `fleetcom __complete resume ”` in process with
// 10,000 records in 1,000 directories and a Codex home of 50,000 rollouts,
// 2,500 of them in the directory completed in; the Codex index is warm.
func BenchmarkCompleteFound(b *testing.B) {
	state := b.TempDir()
	cwd := writeBenchStore(b, filepath.Join(state, "fleetcom"), filepath.Join(b.TempDir(), "work"), 1000, 10)
	codex := b.TempDir()
	writeCodexHome(b, codex, cwd, 50000)
	useState(b, state)
	b.Setenv("CODEX_HOME", codex)
	b.Setenv("CLAUDE_CONFIG_DIR", b.TempDir())
	b.Setenv("GROK_HOME", b.TempDir())
	b.Chdir(cwd)
	stdout = io.Discard
	defer func() { stdout = os.Stdout }()
	for b.Loop() {
		if code := dispatch([]string{"__complete", "--", "resume", ""}); code != 0 {
			b.Fatal(code)
		}
	}
}
