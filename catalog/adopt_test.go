package catalog

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/store"
)

// claudeWorld is a Claude home with one conversation in a directory of its
// own, and an open store; it returns the conversation as discovery finds it.
func claudeWorld(t *testing.T) (*Catalog, harness.Found) {
	t.Helper()
	home, state := t.TempDir(), t.TempDir()
	cwd, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := safe.NewUUID()
	var b strings.Builder
	for _, l := range []map[string]any{
		{"type": "permission-mode", "sessionId": id},
		{"type": "user", "sessionId": id, "cwd": cwd, "timestamp": "2026-11-30T08:00:00.000Z", "message": map[string]any{"role": "user", "content": "adopt me"}},
		{"type": "assistant", "sessionId": id, "cwd": cwd, "message": map[string]any{"role": "assistant", "content": "ok"}},
	} {
		j, _ := json.Marshal(l)
		b.Write(append(j, '\n'))
	}
	claude, _ := agents.Named("claude")
	place, _ := claude.Behaviour.(harness.Mover).Place(home, cwd, id, cwd, []harness.File{{Name: "transcript.jsonl"}})
	p := place.Path
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	found, _ := claude.Discover(home, cwd, "")
	if len(found) != 1 {
		t.Fatalf("discovered %d", len(found))
	}
	st, err := store.Open(filepath.Join(state, "fleetcom"), store.Config{Valid: agents.ValidID})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CLAUDE_CONFIG_DIR": home, "HOME": t.TempDir()}
	return New(st, Config{Getenv: func(k string) string { return env[k] }}), found[0]
}

// adoptFound adopts f as Settle would.
func adoptFound(c *Catalog, f harness.Found) (store.Record, error) {
	a, ok := agents.Named(f.Tool)
	if !ok {
		return store.Record{}, invalid("unknown tool %q", f.Tool)
	}
	p := Plan{Entry: foundEntry(f), Agent: a}
	err := c.Settle(&p)
	return p.Entry.Record, err
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
	c, f := claudeWorld(t)
	holding(t, f, os.Getpid()) // our own process is never "another" holder
	rec, err := adoptFound(c, f)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Source != "adopted" || rec.Cwd != f.Cwd || rec.Home != f.Home || rec.Program != "claude" ||
		rec.Title != "adopt me" || !rec.Resumable ||
		!rec.Started.Equal(time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)) || rec.Ended == nil {
		t.Errorf("record = %+v", rec)
	}
	if line, err := c.Line(Entry{Record: rec}); err != nil || line != "claude --resume '"+f.ID+"'" {
		t.Errorf("line = %q, %v", line, err)
	}
	got, ok, err := c.Store().Get("claude", f.ID)
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
			"is open in process " + strconv.Itoa(sleeper.Process.Pid) + " ("},
		"not an id":         {func(t *testing.T, f *harness.Found) { f.ID = strings.ToUpper(f.ID) }, "invalid session id"},
		"another directory": {func(t *testing.T, f *harness.Found) { f.Cwd = t.TempDir() }, "belongs to"},
		"gone from disk":    {func(t *testing.T, f *harness.Found) { os.RemoveAll(filepath.Join(f.Home, "projects")) }, "no claude transcript"},
		"directory removed": {func(t *testing.T, f *harness.Found) { os.Remove(f.Cwd) }, "no longer exists"},
		"metadata only": {func(t *testing.T, f *harness.Found) {
			a, _ := agents.Named("claude")
			p, _ := a.Behaviour.(harness.Mover).Locate(f.Home, f.Cwd, f.ID)
			os.WriteFile(p.Path, []byte(`{"type":"permission-mode","sessionId":"`+f.ID+`"}`+"\n"), 0o644)
		}, "holds no message"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			cat, f := claudeWorld(t)
			c.damage(t, &f)
			_, err := adoptFound(cat, f)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("adopt = %v, want an error with %q", err, c.want)
			}
			var ce *Error
			if !errors.As(err, &ce) || (name == "not an id") != (ce.Kind == Invalid) {
				t.Errorf("kind of %v", err)
			}
			if all, _ := cat.Store().All(); len(all) != 0 {
				t.Errorf("a refused adoption wrote %+v", all)
			}
		})
	}
	// A session file of a process that has exited does not hold anything.
	cat, f := claudeWorld(t)
	holding(t, f, dead.Process.Pid)
	if _, err := adoptFound(cat, f); err != nil {
		t.Errorf("a dead holder refused the adoption: %v", err)
	}
}
