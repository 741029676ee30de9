package codex

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// homeWithRollouts is a Codex home with one of everything discovery must tell
// apart. It returns the IDs Discover must find for cwd, newest first, and a
// rollout whose first line is still being written.
func homeWithRollouts(t *testing.T, home, cwd string) (want []string, partial string) {
	t.Helper()
	now := time.Now()
	older := harnesstest.V7At(now.Add(-48 * time.Hour))
	harnesstest.Age(t, writeRollout(t, home, older, cwd, false, "older task"), 47*time.Hour)
	newer := harnesstest.V7At(now.Add(-time.Hour))
	writeRollout(t, home, newer, cwd, false, "newer task")
	writeRollout(t, home, harnesstest.V7At(now.Add(-time.Hour)), cwd, true, "")         // a subagent's thread
	writeRollout(t, home, harnesstest.V7At(now.Add(-time.Hour)), "/other", false, "no") // another directory
	// A title-generation side thread has no rollout: nothing to write, and
	// nothing may be invented for it.

	day := dayDir(home, now.Add(-time.Hour))
	harnesstest.WriteFile(t, filepath.Join(home, "history.jsonl"), `{"session_id":"`+harnesstest.UUID(t)+`","text":"hi"}`+"\n")
	harnesstest.WriteFile(t, filepath.Join(home, "session_index.jsonl"), `{"id":"`+harnesstest.UUID(t)+`"}`+"\n")
	harnesstest.WriteFile(t, filepath.Join(day, "history.jsonl"), `{"type":"session_meta","payload":{"cwd":"`+cwd+`"}}`+"\n")
	harnesstest.WriteFile(t, filepath.Join(day, "rollout-2026-01-01T00-00-00-NOTANID.jsonl"), "{}\n")
	id := harnesstest.V7At(now)
	harnesstest.WriteFile(t, filepath.Join(day, "rollout-x-"+id+".jsonl"+".tmp"), "{}\n")
	// A rollout whose session_meta names another thread is not this one.
	liar := harnesstest.V7At(now.Add(-time.Hour))
	harnesstest.WriteFile(t, filepath.Join(day, fmt.Sprintf("rollout-2026-01-01T00-00-00-%s.jsonl", liar)),
		harnesstest.JSONLine(t, map[string]any{"type": "session_meta", "payload": map[string]any{"id": harnesstest.UUID(t), "cwd": cwd}}))
	partial = harnesstest.V7At(now.Add(-time.Minute))
	harnesstest.WriteFile(t, filepath.Join(dayDir(home, now.Add(-time.Minute)), fmt.Sprintf("rollout-2026-01-01T00-00-00-%s.jsonl", partial)),
		`{"timestamp":"x","type":"session_meta","payload":{"id":"`+partial+`","cwd":"`+cwd)
	return []string{newer, older}, partial
}

// completeRollout finishes the first line of the partial rollout.
func completeRollout(t *testing.T, home, id, cwd string) {
	t.Helper()
	p, err := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*-"+id+".jsonl"))
	if err != nil || len(p) != 1 {
		t.Fatalf("rollout of %s: %v %v", id, p, err)
	}
	f, err := os.OpenFile(p[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, `","thread_source":"user"}}`+"\n"+`{"type":"event_msg","payload":{"type":"user_message","message":"finished writing"}}`+"\n")
	f.Close()
}

// TestDiscover runs the same checks without an index and with one.
func TestDiscover(t *testing.T) {
	for _, indexed := range []bool{false, true} {
		t.Run(fmt.Sprintf("indexed=%v", indexed), func(t *testing.T) {
			home, cwd := t.TempDir(), t.TempDir()
			index := ""
			if indexed {
				index = t.TempDir()
			}
			want, partial := homeWithRollouts(t, home, cwd)
			found, err := Agent.Discover(home, cwd, index)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, harnesstest.IDs(found)); diff != "" {
				t.Fatalf("Discover (-want +got):\n%s", diff)
			}
			f := found[1]
			ms, _ := safe.UUIDTime(f.ID)
			if f.Tool != "codex" || f.Cwd != cwd || f.Home != home || f.Title != "older task" ||
				!f.Started.Equal(time.UnixMilli(ms)) || time.Since(f.Modified) < 46*time.Hour {
				t.Errorf("found = %+v", f)
			}
			// Once its first line is complete, the rollout is a conversation.
			completeRollout(t, home, partial, cwd)
			found, _ = Agent.Discover(home, cwd, index)
			if diff := cmp.Diff(append([]string{partial}, want...), harnesstest.IDs(found)); diff != "" {
				t.Fatalf("after the first line was written (-want +got):\n%s", diff)
			}
			if found[0].Title != "finished writing" {
				t.Errorf("title = %q", found[0].Title)
			}
			if found, _ := (Agent).Discover(home, "/nowhere", index); len(found) != 0 {
				t.Errorf("another directory: %v", harnesstest.IDs(found))
			}
		})
	}
}

func TestDiscoverSymlinkedCwd(t *testing.T) {
	home, real, index := t.TempDir(), t.TempDir(), t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	id := harnesstest.V7At(time.Now())
	writeRollout(t, home, id, link, false, "through a link")
	for _, index := range []string{"", index} {
		found, _ := Agent.Discover(home, real, index)
		if diff := cmp.Diff([]string{id}, harnesstest.IDs(found)); diff != "" {
			t.Errorf("index %q (-want +got):\n%s", index, diff)
		}
	}
}

func TestLookupAndAdoptable(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	_, partial := homeWithRollouts(t, home, cwd)
	user := harnesstest.V7At(time.Now().Add(-time.Hour))
	writeRollout(t, home, user, cwd, false, "look me up")
	sub := harnesstest.V7At(time.Now().Add(-time.Hour))
	writeRollout(t, home, sub, cwd, true, "")
	h := Agent
	f, err := h.Lookup(home, user)
	if err != nil || f.Cwd != cwd || f.Title != "look me up" || f.Tool != "codex" {
		t.Errorf("Lookup = %+v, %v", f, err)
	}
	for _, c := range []struct {
		id   string
		want error
	}{
		{sub, harness.ErrNotUsers},
		{partial, harness.ErrNoConversation},
		{harnesstest.V7At(time.Now()), harness.ErrNoConversation},
		{"x" + user[1:], harness.ErrNoConversation},
	} {
		if _, err := h.Lookup(home, c.id); !errors.Is(err, c.want) {
			t.Errorf("Lookup(%s) = %v, want %v", c.id, err, c.want)
		}
		if err := h.Adoptable(home, cwd, c.id); !errors.Is(err, c.want) {
			t.Errorf("Adoptable(%s) = %v, want %v", c.id, err, c.want)
		}
	}
	if err := h.Adoptable(home, cwd, user); err != nil {
		t.Errorf("Adoptable: %v", err)
	}
	if err := h.Adoptable(home, "/other", user); !errors.Is(err, harness.ErrElsewhere) {
		t.Errorf("Adoptable elsewhere: %v", err)
	}
	if h.Holders(home, user) != nil {
		t.Error("codex has no holders")
	}
}

// metaLines are session_meta first lines in the shapes Codex writes and a few
// it does not, with the base instructions that make real ones long.
func metaLines(id string) []string {
	big := `"base_instructions":{"text":"` + strings.Repeat("You are a coding agent. ", 900) + `"}`
	return []string{
		`{"timestamp":"t","ordinal":0,"type":"session_meta","payload":{"account_scoped":true,"session_id":"` + id + `","id":"` + id +
			`","timestamp":"t","cwd":"/w/my proj","runtime_workspace_roots":["/w/my proj"],"originator":"codex_exec","cli_version":"0.171.0","source":"exec","thread_source":"user","model_provider":"fake",` + big + `}}`,
		`{"type":"session_meta","payload":{"id":"` + id + `","cwd":"/w","source":"cli","thread_source":"subagent",` + big + `}}`,
		`{"type":"session_meta","payload":{` + big + `,"id":"` + id + `","cwd":"/w/late","thread_source":"user"}}`,
		`{"payload":{"id":"` + id + `","cwd":"/w/typelast","timestamp":"t","thread_source":"user","source":"cli"},"type":"session_meta"}`,
		`{"type":"session_meta","payload":{"id":"` + id + `","cwd":"/w/old","source":{"subagent":{"parent":"x"}}}}`,
		`{"type":"session_meta","payload":{"id":"` + mustIDPlain() + `","cwd":"/w/liar","timestamp":"t","thread_source":"user","source":"cli"}}`,
		`{"type":"response_item","payload":{"id":"` + id + `","cwd":"/w"}}`,
		`{"type":"session_meta","payload":["not an object"]}`,
		`{"type":"session_meta","payload":{"cwd":42}}`,
		`not json at all`,
	}
}

func mustIDPlain() string {
	return safe.NewUUID()
}

func TestReadMetaFast(t *testing.T) {
	id := harnesstest.UUID(t)
	for i, line := range metaLines(id) {
		want, wok := parseMeta([]byte(line), id)
		got, gok := readMetaFast([]byte(line), id)
		if wok != gok || want.Payload.Cwd != got.Payload.Cwd || want.subagent() != got.subagent() || want.Payload.ID != got.Payload.ID {
			t.Errorf("line %d: fast = %+v %v, full = %+v %v", i, got.Payload, gok, want.Payload, wok)
		}
	}
}

func FuzzReadMetaFast(f *testing.F) {
	id := "01a22b64-c925-71b0-a6b1-2c3ab51fb95f"
	for _, l := range metaLines(id) {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		full, fok := parseMeta(line, id)
		fast, ok := readMetaFast(line, id)
		if fok && !ok {
			t.Fatalf("the full decoder accepts what the fast one refuses: %+v", full)
		}
		if ok && (fast.Type != "session_meta" || fast.Payload.ID != "" && fast.Payload.ID != id) {
			t.Fatalf("accepted %+v", fast)
		}
	})
}
