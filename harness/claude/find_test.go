package claude

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

func TestDiscover(t *testing.T) {
	home := t.TempDir()
	dotted, dashed := "/x/a.b", "/x/a-b" // one project folder for both
	if projectSlug(dotted) != projectSlug(dashed) {
		t.Fatal("the collision this test needs is gone")
	}
	older, newer, meta, theirs := harnesstest.UUID(t), harnesstest.UUID(t), harnesstest.UUID(t), harnesstest.UUID(t)
	harnesstest.Age(t, writeTranscript(t, home, dotted, older, "first task"), time.Hour)
	harnesstest.Age(t, writeTranscript(t, home, dotted, newer, "second task"), time.Minute)
	writeTranscript(t, home, dotted, meta, "") // quit before the first prompt
	writeTranscript(t, home, dashed, theirs, "the other directory")

	folder := filepath.Join(home, "projects", projectSlug(dotted))
	harnesstest.WriteFile(t, filepath.Join(folder, "prompt_history.jsonl"), `{"type":"user","cwd":"/x/a.b"}`+"\n")
	harnesstest.WriteFile(t, filepath.Join(folder, "sessions-index.json"), "{}\n")
	harnesstest.WriteFile(t, filepath.Join(folder, strings.ToUpper(harnesstest.UUID(t))+".jsonl"), `{"type":"user","cwd":"/x/a.b"}`+"\n")
	harnesstest.WriteFile(t, filepath.Join(folder, newer, "subagents", "agent-1.jsonl"), `{"type":"user","cwd":"/x/a.b"}`+"\n")
	// The first conversation line still being written.
	writing := harnesstest.UUID(t)
	harnesstest.WriteFile(t, filepath.Join(folder, writing+".jsonl"), `{"type":"permission-mode","sessionId":"`+writing+`"}`+"\n"+
		`{"type":"user","sessionId":"`+writing+`","cwd":"/x/a.b","message":{"content":"hal`)

	found, err := Agent.Discover(home, dotted, "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{newer, older}, harnesstest.IDs(found)); diff != "" {
		t.Fatalf("Discover(%s) (-want +got):\n%s", dotted, diff)
	}
	f := found[0]
	if f.Tool != "claude" || f.Cwd != dotted || f.Home != home || f.Title != "second task" || f.Started.IsZero() ||
		time.Since(f.Modified) > time.Hour {
		t.Errorf("found = %+v", f)
	}
	found, _ = Agent.Discover(home, dashed, "")
	if diff := cmp.Diff([]string{theirs}, harnesstest.IDs(found)); diff != "" {
		t.Errorf("Discover(%s) (-want +got):\n%s", dashed, diff)
	}
	if found, _ := (Agent).Discover(home, "/nowhere", ""); len(found) != 0 {
		t.Errorf("a directory without a project folder: %v", harnesstest.IDs(found))
	}
}

// A slug over 200 characters is matched by its first 200 characters, not by
// recomputing the hash, and the recorded cwd decides.
func TestDiscoverLongSlug(t *testing.T) {
	home := t.TempDir()
	long := "/w/" + strings.Repeat("deep.dir/", 30) + "mine"
	sibling := long[:len(long)-4] + "yours" // same first 200 slug characters
	prefix := projectSlug(long)[:200]
	if !strings.HasPrefix(projectSlug(sibling), prefix) {
		t.Fatal("the shared prefix this test needs is gone")
	}
	mine, yours := harnesstest.UUID(t), harnesstest.UUID(t)
	writeTranscriptAt(t, home, prefix+"-notthehash", long, mine, "long path", time.Now())
	writeTranscriptAt(t, home, prefix+"-otherhash", sibling, yours, "sibling", time.Now())
	writeTranscriptAt(t, home, prefix+"x-unrelated", long, harnesstest.UUID(t), "wrong prefix", time.Now())

	found, _ := Agent.Discover(home, long, "")
	if diff := cmp.Diff([]string{mine}, harnesstest.IDs(found)); diff != "" {
		t.Fatalf("Discover (-want +got):\n%s", diff)
	}
	f, err := Agent.Lookup(home, mine)
	if err != nil || f.Cwd != long {
		t.Errorf("Lookup = %+v, %v", f, err)
	}
	if err := (Agent).Adoptable(home, long, mine); err != nil {
		t.Errorf("Adoptable: %v", err)
	}
	if err := (Agent).Adoptable(home, sibling, mine); !errors.Is(err, harness.ErrElsewhere) {
		t.Errorf("Adoptable for the sibling: %v", err)
	}
}

func TestLookupAndAdoptable(t *testing.T) {
	home := t.TempDir()
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	talked, meta, dashed, moved := harnesstest.UUID(t), harnesstest.UUID(t), harnesstest.UUID(t), harnesstest.UUID(t)
	writeTranscript(t, home, real, talked, "hello")
	writeTranscript(t, home, real, meta, "")
	writeTranscript(t, home, "/x/a-b", dashed, "dashed")
	// A transcript whose recorded cwd its project folder is not named after.
	writeTranscriptAt(t, home, projectSlug("/x/a.b"), "/elsewhere", moved, "moved", time.Now())

	h := Agent
	f, err := h.Lookup(home, talked)
	if err != nil || f.Cwd != real || f.Title != "hello" || f.Tool != "claude" || f.Home != home {
		t.Errorf("Lookup(talked) = %+v, %v", f, err)
	}
	for _, c := range []struct {
		id   string
		want error
	}{
		{meta, harness.ErrEmptyConversation},
		{moved, harness.ErrElsewhere},
		{harnesstest.UUID(t), harness.ErrNoConversation},
		{"../" + talked[3:], harness.ErrNoConversation},
	} {
		if _, err := h.Lookup(home, c.id); !errors.Is(err, c.want) {
			t.Errorf("Lookup(%s) = %v, want %v", c.id, err, c.want)
		}
	}

	for _, c := range []struct {
		dir, id string
		want    error
	}{
		{real, talked, nil},
		{real, meta, harness.ErrEmptyConversation},
		{"/x/a-b", dashed, nil},
		{"/x/a.b", dashed, harness.ErrElsewhere}, // same folder, another directory
		{"/x/a.b", moved, harness.ErrElsewhere},
		{"/elsewhere", moved, harness.ErrElsewhere},
		{"/other", talked, harness.ErrElsewhere},
		{real, harnesstest.UUID(t), harness.ErrNoConversation},
		{real, "not-an-id", harness.ErrNoConversation},
	} {
		if err := h.Adoptable(home, c.dir, c.id); !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("Adoptable(%s, %s) = %v, want %v", c.dir, c.id, err, c.want)
		}
	}
	// A transcript recorded under a symlinked path belongs to its target.
	viaLink := harnesstest.UUID(t)
	writeTranscriptAt(t, home, projectSlug(real), link, viaLink, "via link", time.Now())
	if err := h.Adoptable(home, real, viaLink); err != nil {
		t.Errorf("Adoptable through a symlink: %v", err)
	}
}

func TestHolders(t *testing.T) {
	home := t.TempDir()
	id := harnesstest.UUID(t)
	sessions := filepath.Join(home, "sessions")
	session := func(name string, pid int, sid string) {
		harnesstest.WriteFile(t, filepath.Join(sessions, name), harnesstest.JSONLine(t, map[string]any{"pid": pid, "sessionId": sid, "cwd": "/w"}))
	}
	session("101.json", 101, id)
	session("102.json", 102, harnesstest.UUID(t))
	session("103.json", 999, id) // the file and its content disagree
	session("abc.json", 104, id)
	session("105.json.tmp", 105, id)
	harnesstest.WriteFile(t, filepath.Join(sessions, "106.json"), "{not json")
	if err := os.Mkdir(filepath.Join(sessions, "107.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{101}, Agent.Holders(home, id)); diff != "" {
		t.Errorf("Holders (-want +got):\n%s", diff)
	}
	if got := (Agent).Holders(t.TempDir(), id); len(got) != 0 {
		t.Errorf("no sessions folder: %v", got)
	}
	// The real shape: an interactive session of this process.
	self := harnesstest.UUID(t)
	session(strconv.Itoa(os.Getpid())+".json", os.Getpid(), self)
	if got := (Agent).Holders(home, self); !cmp.Equal(got, []int{os.Getpid()}) {
		t.Errorf("Holders(self) = %v", got)
	}
	// Claude 2.1.197 also records the process's start time; a file whose
	// pid now names a process started at another time holds nothing.
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Skip("no /proc to compare start times with")
	}
	start := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))[19]
	for procStart, want := range map[string]int{start: 1, start + "0": 0} {
		sid := harnesstest.UUID(t)
		harnesstest.WriteFile(t, filepath.Join(sessions, strconv.Itoa(os.Getpid())+".json"),
			harnesstest.JSONLine(t, map[string]any{"pid": os.Getpid(), "sessionId": sid, "procStart": procStart, "kind": "interactive"}))
		if got := (Agent).Holders(home, sid); len(got) != want {
			t.Errorf("procStart %s: Holders = %v, want %d", procStart, got, want)
		}
	}
}

// The shim's exit looks its conversation up in its own directory's project
// folder first (the glob over every folder costs a millisecond per
// thousand transcripts), and a head of sub-agent lines is skipped, not
// decoded, on the way to the first prompt.
func TestLookupInOwnFolderFirst(t *testing.T) {
	home := t.TempDir()
	id := harnesstest.UUID(t)
	path := writeTranscript(t, home, "/w/mine", id, "my task")
	// A copy in another directory's folder makes the global lookup
	// ambiguous; the run's own folder answers first.
	writeTranscript(t, home, "/w/other", id, "a copy")
	if _, err := Agent.Lookup(home, id); !errors.Is(err, harness.ErrElsewhere) {
		t.Fatalf("Lookup of an ID in two folders: %v, want ErrElsewhere", err)
	}
	f, err := harness.LookupIn(Agent, home, "/w/mine", id)
	if err != nil || f.Cwd != "/w/mine" || f.Title != "my task" {
		t.Fatalf("LookupIn its own directory: %+v, %v", f, err)
	}

	// Sub-agent lines first: the title is the user's prompt after them.
	side := `{"type":"user","isSidechain":true,"cwd":"/w/mine","message":{"role":"user","content":"a sub-agent's task"}}` + "\n"
	data, _ := os.ReadFile(path)
	harnesstest.WriteFile(t, path, strings.Repeat(side, 1000)+string(data))
	if f, err := harness.LookupIn(Agent, home, "/w/mine", id); err != nil || f.Title != "my task" {
		t.Errorf("LookupIn past sub-agent lines: %+v, %v", f, err)
	}
}
