package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/store"
)

// claudeWorld is a Claude home with one conversation in a directory of its
// own, and an open store; it returns the conversation as discovery finds it.
func claudeWorld(t *testing.T) (*store.Store, harness.Found) {
	t.Helper()
	home, state := t.TempDir(), t.TempDir()
	cwd, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", home)
	useState(t, state)
	id, _ := harness.NewID()
	var b strings.Builder
	for _, l := range []map[string]any{
		{"type": "permission-mode", "sessionId": id},
		{"type": "user", "sessionId": id, "cwd": cwd, "timestamp": "2026-11-30T08:00:00.000Z", "message": map[string]any{"role": "user", "content": "adopt me"}},
		{"type": "assistant", "sessionId": id, "cwd": cwd, "message": map[string]any{"role": "assistant", "content": "ok"}},
	} {
		j, _ := json.Marshal(l)
		b.Write(append(j, '\n'))
	}
	p := filepath.Join(home, "projects", harness.ClaudeSlug(cwd), id+".jsonl")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	found, _ := harness.Claude{}.Discover(home, cwd, "")
	if len(found) != 1 {
		t.Fatalf("discovered %d", len(found))
	}
	st, err := store.Open(filepath.Join(state, "fleetcom"), store.Config{ResumeLine: resumeLine})
	if err != nil {
		t.Fatal(err)
	}
	return st, found[0]
}

// holding writes Claude's record of a running session of f in process pid.
func holding(t *testing.T, f harness.Found, pid int) {
	t.Helper()
	p := filepath.Join(f.Home, "sessions", strconv.Itoa(pid)+".json")
	os.MkdirAll(filepath.Dir(p), 0o700)
	b, _ := json.Marshal(map[string]any{"pid": pid, "sessionId": f.ID, "cwd": f.Cwd, "startedAt": "x"})
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestAdoptRecords(t *testing.T) {
	st, f := claudeWorld(t)
	holding(t, f, os.Getpid()) // our own process is never "another" holder
	rec, err := adopt(st, f)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Source != "adopted" || rec.Cwd != f.Cwd || rec.Home != f.Home || rec.Program != "claude" ||
		rec.Title != "adopt me" || !rec.Resumable || rec.Resume != "claude --resume '"+f.ID+"'" ||
		!rec.Started.Equal(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)) || rec.Ended == nil {
		t.Errorf("record = %+v", rec)
	}
	got, ok, err := st.Get("claude", f.ID)
	if err != nil || !ok || got.Source != "adopted" {
		t.Errorf("stored = %+v %v %v", got, ok, err)
	}
}

func TestAdoptRefuses(t *testing.T) {
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}

	cases := map[string]struct {
		damage func(t *testing.T, f *harness.Found)
		want   string
	}{
		"live in another process": {func(t *testing.T, f *harness.Found) { holding(t, *f, sleeper.Process.Pid) },
			"is open in process " + strconv.Itoa(sleeper.Process.Pid)},
		"not an id":         {func(t *testing.T, f *harness.Found) { f.ID = strings.ToUpper(f.ID) }, "invalid session id"},
		"another directory": {func(t *testing.T, f *harness.Found) { f.Cwd = t.TempDir() }, "belongs to"},
		"gone from disk":    {func(t *testing.T, f *harness.Found) { os.RemoveAll(filepath.Join(f.Home, "projects")) }, "no claude transcript"},
		"directory removed": {func(t *testing.T, f *harness.Found) { os.Remove(f.Cwd) }, "no longer exists"},
		"unknown tool":      {func(t *testing.T, f *harness.Found) { f.Tool = "gemini" }, "unknown tool"},
		"metadata only": {func(t *testing.T, f *harness.Found) {
			p := filepath.Join(f.Home, "projects", harness.ClaudeSlug(f.Cwd), f.ID+".jsonl")
			os.WriteFile(p, []byte(`{"type":"permission-mode","sessionId":"`+f.ID+`"}`+"\n"), 0o644)
		}, "holds no message"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			st, f := claudeWorld(t)
			c.damage(t, &f)
			_, err := adopt(st, f)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("adopt = %v, want an error with %q", err, c.want)
			}
			var u usageError
			if (name == "not an id" || name == "unknown tool") != errors.As(err, &u) {
				t.Errorf("exit class of %v", err)
			}
			if all, _ := st.All(); len(all) != 0 {
				t.Errorf("a refused adoption wrote %+v", all)
			}
		})
	}
	// A session file of a process that has exited does not hold anything.
	st, f := claudeWorld(t)
	holding(t, f, dead.Process.Pid)
	if _, err := adopt(st, f); err != nil {
		t.Errorf("a dead holder refused the adoption: %v", err)
	}
}

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
	if found, _ := findIn(cwd, "", nil); len(found) != 2500 {
		b.Fatalf("found %d", len(found))
	}
	for b.Loop() {
		if code, err := cmdComplete([]string{"--", "resume", ""}); code != 0 || err != nil {
			b.Fatal(code, err)
		}
	}
}
