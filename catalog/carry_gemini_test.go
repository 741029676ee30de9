package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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

// geminiWorld is a Gemini home ($GEMINI_CLI_HOME/.gemini) with one
// conversation in a directory of its own, registered as Gemini 0.61.0
// registers one, and an open store.
func geminiWorld(t *testing.T) (c *Catalog, home, cwd, id, file string) {
	t.Helper()
	base := t.TempDir()
	home = filepath.Join(base, ".gemini")
	cwd, _ = filepath.EvalSymlinks(t.TempDir())
	id = safe.NewUUID()
	sum := sha256.Sum256([]byte(cwd))
	var lines []string
	for _, v := range []any{
		map[string]any{"sessionId": id, "projectHash": hex.EncodeToString(sum[:]), "startTime": "2026-12-01T10:00:00.000Z", "lastUpdated": "2026-12-01T10:00:00.000Z", "kind": "main"},
		map[string]any{"id": "u1", "type": "user", "content": []any{map[string]any{"text": "remember OSPREY-2718"}}},
		map[string]any{"id": "g1", "type": "gemini", "content": "ACK OSPREY-2718"},
		map[string]any{"$set": map[string]any{"lastUpdated": "2026-12-01T10:00:05.000Z"}},
	} {
		b, _ := json.Marshal(v)
		lines = append(lines, string(b))
	}
	slug := filepath.Base(cwd)
	file = filepath.Join(home, "tmp", slug, "chats", "session-2026-12-01T10-00-"+id[:8]+".jsonl")
	for path, data := range map[string]string{
		file: strings.Join(lines, "\n") + "\n",
		filepath.Join(home, "tmp", slug, ".project_root"):     cwd,
		filepath.Join(home, "history", slug, ".project_root"): cwd,
		filepath.Join(home, "projects.json"):                  `{"projects":{` + string(mustJSON(cwd)) + `:"` + slug + `"},"note":"kept"}`,
	} {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Written an hour ago: a conversation written lately may still be
	// open in a Gemini CLI that fleetcom cannot see (TestMoveGeminiHeld).
	old := time.Now().Add(-time.Hour)
	os.Chtimes(file, old, old)
	st, err := store.Open(filepath.Join(t.TempDir(), "fleetcom"), store.Config{Valid: agents.ValidID})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GEMINI_CLI_HOME": base, "HOME": t.TempDir()}
	return New(st, Config{Getenv: func(k string) string { return env[k] }}), home, cwd, id, file
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

// A move into a directory Gemini never saw claims a folder for it with
// .project_root files, as Gemini does, and leaves projects.json alone;
// Gemini adds the entry itself on its next start there.
func TestMoveGeminiNewDirectory(t *testing.T) {
	c, home, cwd, id, file := geminiWorld(t)
	registry, _ := os.ReadFile(filepath.Join(home, "projects.json"))
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if _, err := c.Move("gemini", id, cwd, dir, false); err != nil {
		t.Fatal(err)
	}
	slug := filepath.Base(dir)
	for _, base := range []string{"tmp", "history"} {
		if got, err := os.ReadFile(filepath.Join(home, base, slug, ".project_root")); err != nil || string(got) != dir {
			t.Errorf("%s marker: %q, %v", base, got, err)
		}
	}
	moved := filepath.Join(home, "tmp", slug, "chats", filepath.Base(file))
	data, err := os.ReadFile(moved)
	sum := sha256.Sum256([]byte(dir))
	if err != nil || !bytes.Contains(data, []byte(hex.EncodeToString(sum[:]))) {
		t.Errorf("moved session: %v\n%s", err, data)
	}
	if exists(file) {
		t.Error("the old session file is still there")
	}
	if after, _ := os.ReadFile(filepath.Join(home, "projects.json")); !bytes.Equal(after, registry) {
		t.Errorf("projects.json changed:\n%s", after)
	}
	a, _ := agents.Named("gemini")
	if err := a.Adoptable(home, dir, id); err != nil {
		t.Errorf("Adoptable in the new directory: %v", err)
	}
}

// A move that fails takes its claims back with everything else.
func TestMoveGeminiUndoesClaims(t *testing.T) {
	c, home, cwd, id, file := geminiWorld(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	defer func(r func(string, string) error) { rename = r }(rename)
	rename = func(a, b string) error { return &os.LinkError{Op: "rename", Old: a, New: b, Err: os.ErrPermission} }
	if _, err := c.Move("gemini", id, cwd, dir, false); err == nil {
		t.Fatal("the move went through")
	}
	for _, base := range []string{"tmp", "history"} {
		if exists(filepath.Join(home, base, filepath.Base(dir))) {
			t.Errorf("the %s folder claimed for %s is left", base, dir)
		}
	}
	if !exists(file) {
		t.Error("the session file is gone")
	}
}

// An imported conversation lands in a claimed folder; the same bundle
// again changes nothing.
func TestImportGemini(t *testing.T) {
	src, _, _, id, _ := geminiWorld(t)
	dst, home, _, _, _ := geminiWorld(t)
	var buf bytes.Buffer
	b, err := src.Export("gemini", id, "/")
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteBundle(&buf, b); err != nil {
		t.Fatal(err)
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	for i, wantSame := range []bool{false, true} {
		bb, a, err := ReadBundle(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		r, same, err := dst.Import(bb, a, dir)
		if err != nil || same != wantSame || r.ID != id {
			t.Fatalf("import %d: %+v, same %v, %v", i, r, same, err)
		}
	}
	if got, err := os.ReadFile(filepath.Join(home, "tmp", filepath.Base(dir), ".project_root")); err != nil || string(got) != dir {
		t.Errorf("marker %q, %v", got, err)
	}
}

// A claim never overwrites: a file there with other bytes is a refusal,
// and what the claim made before it is taken back.
func TestClaimNeverOverwrites(t *testing.T) {
	root := t.TempDir()
	mine, theirs := filepath.Join(root, "a", "x", ".project_root"), filepath.Join(root, "b", ".project_root")
	os.MkdirAll(filepath.Dir(theirs), 0o755)
	os.WriteFile(theirs, []byte("/other"), 0o644)
	_, err := claim([]harness.Claim{{Path: mine, Data: []byte("/me")}, {Path: theirs, Data: []byte("/me")}})
	if err == nil || !strings.Contains(err.Error(), "another directory") {
		t.Fatalf("claim over another's: %v", err)
	}
	if got, _ := os.ReadFile(theirs); string(got) != "/other" {
		t.Errorf("overwritten: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "a")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the first claim is left: %v", err)
	}
	os.WriteFile(theirs, []byte("/me"), 0o644)
	undo, err := claim([]harness.Claim{{Path: theirs, Data: []byte("/me")}})
	if err != nil {
		t.Fatal(err)
	}
	undo()
	if !exists(theirs) {
		t.Error("undo removed a file the claim did not make")
	}
}

// Gemini CLI keeps no descriptor open and no record of which process runs
// which session: a move is refused while a gemini runs in the
// conversation's directory, or while its file was written lately; the
// running Gemini would write every later turn to the old place (issue 29,
// item 3).
func TestMoveGeminiHeld(t *testing.T) {
	if _, err := os.Stat("/proc/self/cwd"); err != nil {
		t.Skip("a process's directory is read from /proc, which this system lacks")
	}
	c, _, cwd, id, file := geminiWorld(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())

	// A gemini in the conversation's directory (named as the script of
	// its package); one elsewhere does not count.
	elsewhere := exec.Command("bash", "-c", `exec -a /opt/bin/gemini sleep 60`)
	elsewhere.Dir = t.TempDir()
	running := exec.Command("bash", "-c", `exec -a /opt/node_modules/@google/gemini-cli/dist/index.js sleep 60`)
	running.Dir = cwd
	for _, cmd := range []*exec.Cmd{elsewhere, running} {
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
	}
	waitArgv(t, running.Process.Pid, "gemini-cli/dist/index.js\x00")
	_, err := c.Move("gemini", id, cwd, dir, false)
	// A holder is named "process N (command)": a PID looked for alone
	// could be found in the conversation's ID or another PID.
	named := func(pid int) bool { return strings.Contains(err.Error(), "process "+strconv.Itoa(pid)+" (") }
	if err == nil || !named(running.Process.Pid) || named(elsewhere.Process.Pid) {
		t.Fatalf("move while gemini runs there: %v", err)
	}
	running.Process.Kill()
	running.Wait()

	// Written a moment ago: perhaps by a gemini out of sight.
	now := time.Now()
	os.Chtimes(file, now, now)
	if _, err := c.Move("gemini", id, cwd, dir, false); err == nil || !strings.Contains(err.Error(), "may still be writing it") {
		t.Fatalf("move of a file written just now: %v", err)
	}
	if !exists(file) {
		t.Fatal("a refused move moved the file")
	}
	old := now.Add(-10 * time.Minute)
	os.Chtimes(file, old, old)
	if _, err := c.Move("gemini", id, cwd, dir, false); err != nil {
		t.Fatalf("move once nothing holds it: %v", err)
	}
}

// waitArgv waits until process pid's command line holds word (after an
// exec: bash's own holds the command it runs).
func waitArgv(t *testing.T, pid int, word string) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline"); err == nil && bytes.Contains(b, []byte(word)) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d never showed %q", pid, word)
}
