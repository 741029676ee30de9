package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	st, err := store.Open(filepath.Join(t.TempDir(), "fleetcom"), store.Config{Valid: agents.ValidID})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GEMINI_CLI_HOME": base, "HOME": t.TempDir()}
	return New(st, func(k string) string { return env[k] }, "", false), home, cwd, id, file
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
