package grok

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

func TestDiscover(t *testing.T) {
	home := t.TempDir()
	cwd := "/work/100%/proj"
	older, newer := harnesstest.UUID(t), harnesstest.UUID(t)
	dir := writeSession(t, home, cwd, older, "old grok task")
	writeSession(t, home, cwd, newer, "new grok task")
	for _, p := range []string{dir, filepath.Join(dir, "chat_history.jsonl"), filepath.Join(dir, "summary.json")} {
		harnesstest.Age(t, p, time.Hour)
	}
	// The older one was appended to last: its history file is the newest.
	appendTo := filepath.Join(writeSession(t, home, cwd, harnesstest.UUID(t), "touched"), "chat_history.jsonl")
	touched := filepath.Base(filepath.Dir(appendTo))
	harnesstest.Age(t, filepath.Dir(appendTo), 2*time.Hour)
	harnesstest.Age(t, filepath.Join(filepath.Dir(appendTo), "summary.json"), 2*time.Hour)

	folder := filepath.Join(home, "sessions", dirName(cwd))
	harnesstest.WriteFile(t, filepath.Join(folder, "prompt_history"), "x\n")
	harnesstest.WriteFile(t, filepath.Join(folder, "index.json"), "{}\n")
	if err := os.MkdirAll(filepath.Join(folder, "not-a-session"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeSession(t, home, "/work/other", harnesstest.UUID(t), "elsewhere")

	found, err := Agent.Discover(home, cwd, "")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{touched, newer, older}, harnesstest.IDs(found)); diff != "" {
		t.Fatalf("Discover (-want +got):\n%s", diff)
	}
	if f := found[2]; f.Title != "old grok task" || f.Cwd != cwd || f.Tool != "grok" || f.Home != home {
		t.Errorf("found = %+v", f)
	}
}

// An empty session, left by a run quit before its first prompt, is no
// conversation: not discovered, not resumable, not adoptable.
func TestEmptySession(t *testing.T) {
	home := t.TempDir()
	cwd := "/work/proj"
	empty, real := harnesstest.UUID(t), harnesstest.UUID(t)
	writeSession(t, home, cwd, empty, "")
	writeSession(t, home, cwd, real, "a real one")
	h := Agent
	if h.Exists(home, cwd, empty) || !h.Exists(home, cwd, real) {
		t.Error("Exists counts an empty session")
	}
	if found, _ := h.Discover(home, cwd, ""); len(found) != 1 || found[0].ID != real {
		t.Errorf("Discover = %v", harnesstest.IDs(found))
	}
	if err := h.Adoptable(home, cwd, empty); !errors.Is(err, harness.ErrEmptyConversation) {
		t.Errorf("Adoptable of an empty session: %v", err)
	}
	if _, err := h.Lookup(home, empty); !errors.Is(err, harness.ErrEmptyConversation) {
		t.Errorf("Lookup of an empty session: %v", err)
	}
}

// The title is what Grok generated, else the first typed prompt: never the
// <user_info> context Grok puts first in its history.
func TestTitle(t *testing.T) {
	home := t.TempDir()
	id := harnesstest.UUID(t)
	dir := writeSession(t, home, "/w", id, "fix the build")
	if got := readTitle(dir); got != "fix the build" {
		t.Errorf("title from the history = %q", got)
	}
	os.Remove(filepath.Join(dir, "chat_history.jsonl"))
	if got := readTitle(dir); got != "fix the build" {
		t.Errorf("title from the update log = %q", got)
	}
	harnesstest.WriteFile(t, filepath.Join(dir, "summary.json"), `{"info":{"id":"`+id+`"},"num_messages":3,"generated_title":"Build fix"}`)
	if got := readTitle(dir); got != "Build fix" {
		t.Errorf("generated title = %q", got)
	}
}

func TestLookupAndAdoptable(t *testing.T) {
	home := t.TempDir()
	cwd := "/work/100%/a b"
	id := harnesstest.UUID(t)
	writeSession(t, home, cwd, id, "hello grok")
	h := Agent
	f, err := h.Lookup(home, id)
	if err != nil || f.Cwd != cwd || f.Title != "hello grok" {
		t.Errorf("Lookup = %+v, %v", f, err)
	}
	if err := h.Adoptable(home, cwd, id); err != nil {
		t.Errorf("Adoptable: %v", err)
	}
	if err := h.Adoptable(home, "/work/other", id); !errors.Is(err, harness.ErrElsewhere) {
		t.Errorf("Adoptable elsewhere: %v", err)
	}
	if _, err := h.Lookup(home, harnesstest.UUID(t)); !errors.Is(err, harness.ErrNoConversation) {
		t.Errorf("Lookup of an unknown ID: %v", err)
	}
	if err := h.Adoptable(home, cwd, harnesstest.UUID(t)); !errors.Is(err, harness.ErrNoConversation) {
		t.Errorf("Adoptable of an unknown ID: %v", err)
	}
	// A folder name that does not decode to a directory.
	odd := harnesstest.UUID(t)
	harnesstest.WriteFile(t, filepath.Join(home, "sessions", "relative%2Fpath", odd, "summary.json"), `{"num_messages":2}`)
	if _, err := h.Lookup(home, odd); !errors.Is(err, harness.ErrElsewhere) {
		t.Errorf("Lookup under an undecodable folder: %v", err)
	}
	// The same ID under two folders is not guessed between.
	twice := harnesstest.UUID(t)
	writeSession(t, home, "/a", twice, "one")
	writeSession(t, home, "/b", twice, "two")
	if _, err := h.Lookup(home, twice); !errors.Is(err, harness.ErrElsewhere) {
		t.Errorf("Lookup of an ID in two folders: %v", err)
	}
}

func TestDecode(t *testing.T) {
	for name, want := range map[string]string{
		"%2Fwork%2Fproj":     "/work/proj",
		"%2Fwork%2F100%25":   "/work/100%",
		"%2Fa%252Fb":         "/a%2Fb",
		"%2F":                "/",
		"%2Fwork%2F":         "", // not clean
		"work%2Fproj":        "", // not absolute
		"%2Fwork%2Fa%20b":    "/work/a b",
		"%2Fw%C3%BC":         "/wü",
		"%2Fw%c3%bc":         "", // not what dirName writes
		"%2Fa+b":             "", // + is encoded
		"%2Fwork%2":          "",
		"%2Fwork%2F..%2Fetc": "",
		"%2fwork":            "",
	} {
		got, ok := decodeDirName(name)
		if got != want || ok != (want != "") {
			t.Errorf("decodeDirName(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}
