package codex_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	agent "github.com/fleetcom/fleetcom/harness/codex"
	"github.com/fleetcom/fleetcom/harness/readertest"
	"github.com/fleetcom/fleetcom/index"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// codexHome is a scratch Codex home for the index.
type codexHome struct {
	t    *testing.T
	home string
	cwd  string
}

// rollout writes a rollout in the shape Codex 0.171.0 writes it into the
// day folder of day, and returns its path: session_meta, then, unless
// prompt is "", the prompt and a reply as item_completed events.
func (h codexHome) rollout(day time.Time, dayName, id, prompt string) string {
	h.t.Helper()
	dir := filepath.Join(h.home, "sessions", day.Format("2006"), day.Format("01"), dayName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		h.t.Fatal(err)
	}
	at := day.UTC().Format(time.RFC3339Nano)
	data := `{"timestamp":"` + at + `","ordinal":0,"type":"session_meta","payload":{"session_id":"` + id + `","id":"` + id +
		`","timestamp":"` + at + `","cwd":"` + h.cwd + `","originator":"codex-tui","cli_version":"0.171.0","source":"cli","thread_source":"user"}}` + "\n"
	if prompt != "" {
		data += `{"timestamp":"` + at + `","ordinal":1,"type":"event_msg","payload":{"type":"item_completed","thread_id":"` + id +
			`","turn_id":"t","item":{"type":"UserMessage","id":"u","content":[{"type":"text","text":"` + prompt + `","text_elements":[]}]}}}` + "\n" +
			`{"timestamp":"` + at + `","ordinal":2,"type":"event_msg","payload":{"type":"item_completed","thread_id":"` + id +
			`","turn_id":"t","item":{"type":"AgentMessage","id":"a","content":[{"type":"Text","text":"ACK"}]}}}` + "\n"
	}
	p := filepath.Join(dir, "rollout-"+day.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// nearless is Codex without its Near folders.
type nearless struct {
	harness.Behaviour
	harness.Indexer
}

func (nearless) Near(string, string) []string { return nil }

// The index over a Codex home: a thread with its name, and a thread quit
// before its first prompt, which has no messages. A thread begun today, in
// a day folder new in a month the index has not looked at for days, is
// found by the quick refresh of any command, with or without Codex's Near
// folders (today's): the year and month folders above the day folders are
// looked at by every refresh.
func TestCodexIndexFindsNewThreads(t *testing.T) {
	codex := agent.Agent
	cwd := t.TempDir()
	for _, near := range []bool{true, false} {
		t.Run(fmt.Sprint("near=", near), func(t *testing.T) {
			h := codexHome{t: t, home: t.TempDir(), cwd: cwd}
			a := codex
			if !near {
				a.Behaviour = nearless{codex.Behaviour, codex.Behaviour.(harness.Indexer)}
			}
			now := time.Now()
			old := now.Add(-72 * time.Hour)
			// This month's folder and the folder of a day of it, unchanged for
			// days, holding more threads than a small index (whose refreshes
			// are all sweeps).
			bulk := ""
			for i := 0; i < 420; i++ {
				bulk = h.rollout(now, "00", safe.NewUUID(), fmt.Sprint("bulk ", i))
			}
			named := safe.NewUUID()
			h.rollout(now, "00", named, "fix the flaky login test")
			empty := safe.NewUUID()
			h.rollout(now, "00", empty, "")
			os.WriteFile(filepath.Join(h.home, "session_index.jsonl"),
				[]byte(`{"id":"`+named+`","thread_name":"login race","updated_at":"2026-12-06T05:00:00Z"}`+"\n"), 0o600)
			day := filepath.Dir(bulk)
			entries, _ := os.ReadDir(day)
			for _, e := range entries {
				os.Chtimes(filepath.Join(day, e.Name()), old, old)
			}
			for _, d := range []string{day, filepath.Dir(day), filepath.Dir(filepath.Dir(day)), filepath.Join(h.home, "sessions")} {
				os.Chtimes(d, old, old)
			}
			x := readertest.OpenIndex(t, a, h.home)
			if r, err := x.Refresh(index.Scope{}); err != nil || !r.Swept {
				t.Fatalf("first refresh: %+v, %v", r, err)
			}
			c, ok, _ := x.Get("codex", named)
			if !ok || c.Name != "login race" || c.Title != "fix the flaky login test" || c.Messages != 2 || c.Turns != 1 || c.Side {
				t.Errorf("the named thread: %+v", c)
			}
			if c, ok, _ := x.Get("codex", empty); !ok || c.Messages != 0 || !c.Stored {
				t.Errorf("the thread quit before a prompt: %+v; want it stored, with no messages", c)
			}
			// Today's folder appears, with a thread: the month folder changes,
			// the year folder above it does not.
			fresh := safe.NewUUID()
			h.rollout(now, now.Format("02"), fresh, "a new day")
			os.Chtimes(filepath.Dir(filepath.Dir(day)), old, old)
			r, err := x.Refresh(index.Scope{Dirs: []string{"/somewhere/else"}})
			if err != nil || r.Swept {
				t.Fatalf("quick refresh: %+v, %v", r, err)
			}
			_, found, _ := x.Get("codex", fresh)
			if !found {
				t.Error("the thread of a new day folder was not found by a quick refresh")
			}
			if _, err := x.Refresh(index.Scope{Full: true}); err != nil {
				t.Fatal(err)
			}
			if c, ok, _ := x.Get("codex", fresh); !ok || c.Title != "a new day" {
				t.Errorf("after a sweep: %+v", c)
			}
		})
	}
}
