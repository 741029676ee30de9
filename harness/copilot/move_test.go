package copilot

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// workspace.yaml as Copilot 1.0.102 wrote it for the names and directories
// measured (e2e/README.md).
func TestYAML(t *testing.T) {
	ws := `id: 9b740ff7-dc8d-43a4-8c99-a1e4fc10631a
cwd: "/tmp/cp/ünï\ttab"
client_name: github/cli
name: |-
  fix: the "bug" #1
  second line
user_named: false
summary: 'it''s ''quoted'': yes'
plain: /tmp/cp/my proj
colon: '/tmp/cp/a: b #c'
number: '123'
escapes: "a\x41\u00e9\U0001F600\\\"\/b"
cwdish: not the cwd
created_at: 2026-12-02T00:57:11.380Z
`
	for key, want := range map[string]string{
		"id": "9b740ff7-dc8d-43a4-8c99-a1e4fc10631a", "cwd": "/tmp/cp/ünï\ttab", "name": "fix: the \"bug\" #1\nsecond line",
		"user_named": "false", "summary": "it's 'quoted': yes", "plain": "/tmp/cp/my proj", "colon": "/tmp/cp/a: b #c",
		"number": "123", "escapes": "aAé😀\\\"/b", "created_at": "2026-12-02T00:57:11.380Z",
	} {
		if got, _, _, ok := yamlValue([]byte(ws), key); !ok || got != want {
			t.Errorf("%s: %q, %v; want %q", key, got, ok, want)
		}
	}
	for _, bad := range []string{`"open`, `'it's'`, `"bad \q"`, `[a, b]`, `{a: b}`, `&anchor x`, `"\x4"`} {
		if v, _, _, ok := yamlValue([]byte("cwd: "+bad+"\n"), "cwd"); ok {
			t.Errorf("cwd: %s read as %q", bad, v)
		}
	}
	for _, dir := range []string{"/tmp/cp/my proj", "/tmp/cp/a: b #c", "/tmp/cp/it's \"q\"", "/tmp/cp/ünï\ttab", "/x:", "/x\\y", "/a\u2028b", "/a\x7fb", "/e😀"} {
		q, ok := yamlQuote(dir)
		if !ok {
			t.Errorf("%q cannot be written", dir)
			continue
		}
		if got, _, _, ok := yamlValue([]byte("cwd: "+q+"\n"), "cwd"); !ok || got != dir {
			t.Errorf("%q written as %s reads back as %q, %v", dir, q, got, ok)
		}
	}
	if _, ok := yamlQuote("/a\xffb"); ok {
		t.Error("invalid UTF-8 written as YAML")
	}
	// yamlSet changes the one value, and only when it is the one expected.
	set := yamlSet([]byte(ws), "cwd", "/tmp/cp/ünï\ttab", "/new: place")
	if got, _, _, _ := yamlValue(set, "cwd"); got != "/new: place" || !bytes.Contains(set, []byte("cwdish: not the cwd\n")) ||
		len(bytes.Split(set, []byte("\n"))) != len(bytes.Split([]byte(ws), []byte("\n"))) {
		t.Errorf("yamlSet:\n%s", set)
	}
	if got := yamlSet([]byte(ws), "cwd", "/elsewhere", "/new"); !bytes.Equal(got, []byte(ws)) {
		t.Error("yamlSet changed a value that was not the one expected")
	}
	block := []byte("id: x\nname: |-\n  a\n  b\nuser_named: true")
	if got := yamlSet(block, "name", "a\nb", "/c"); string(got) != "id: x\nname: /c\nuser_named: true" {
		t.Errorf("yamlSet of a block: %q", got)
	}
}

// Export and import: the log and workspace.yaml, their directory fields
// rewritten and nothing else; a move on one machine rewrites them in place.
func TestMove(t *testing.T) {
	home := t.TempDir()
	from := "/tmp/old place"
	to := "/tmp/new: place"
	a := Agent
	dir := fixture(t, home, from, uid, "remember OSPREY-2718", "", time.Now())
	harnesstest.WriteFile(t, filepath.Join(dir, "inuse.99.lock"), "99")
	m := a.Behaviour.(harness.Mover)
	files, err := m.Pack(home, from, uid)
	if err != nil || len(files) != 2 || files[0].Name != "events.jsonl" || files[1].Name != "workspace.yaml" {
		t.Fatalf("Pack = %v, %v", files, err)
	}
	// On this machine the folder is there already, for another directory:
	// an import would make a second copy.
	if _, err := m.Place(home, to, uid, from, files); err == nil || !strings.Contains(err.Error(), "fleetcom move") {
		t.Errorf("Place beside the session itself: %v", err)
	}
	other := t.TempDir()
	p, err := m.Place(other, to, uid, from, files)
	if err != nil || !p.Dir || p.Path != filepath.Join(other, "session-state", uid) || len(p.Files) != 2 {
		t.Fatalf("Place = %+v, %v", p, err)
	}
	events, ws := string(p.Files[0].Data), string(p.Files[1].Data)
	if strings.Contains(events, `"cwd":"`+from+`"`) || strings.Count(events, `"cwd":"`+to+`"`) != 2 ||
		!strings.Contains(events, "Current working directory: "+from) {
		t.Errorf("the log's directory fields (and only those) are not rewritten:\n%s", events)
	}
	if v, _, _, _ := yamlValue([]byte(ws), "cwd"); v != to || !strings.Contains(ws, `cwd: "`+to+`"`) {
		t.Errorf("workspace.yaml:\n%s", ws)
	}
	for _, bad := range [][]harness.File{files[:1], append(files, harness.File{Name: "inuse.99.lock"}), {files[0], files[0], files[1]},
		{{Name: "../workspace.yaml"}, files[0]}} {
		if _, err := m.Place(other, to, uid, from, bad); err == nil {
			t.Errorf("Place took %d files %v", len(bad), names(bad))
		}
	}
	if _, err := m.Place(other, "/a\xffb", uid, from, files); err == nil {
		t.Error("Place took a directory YAML cannot hold")
	}

	c, err := m.Carry(home, from, to, uid)
	if err != nil || len(c.Parts) != 1 || c.Parts[0].From != dir || c.Parts[0].To != dir || !c.Parts[0].Dir {
		t.Fatalf("Carry = %+v, %v", c, err)
	}
	for rel, want := range map[string]bool{"events.jsonl": true, "workspace.yaml": true, "inuse.99.lock": false, "checkpoints/index.md": false} {
		if got := c.Parts[0].Edit(rel) != nil; got != want {
			t.Errorf("Carry edits %s: %v", rel, got)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "workspace.yaml"))
	if v, _, _, _ := yamlValue(c.Parts[0].Edit("workspace.yaml")(data), "cwd"); v != to {
		t.Errorf("Carry's workspace.yaml cwd = %q", v)
	}
	if pl, ok := m.Locate(home, "", uid); !ok || pl.Path != dir {
		t.Errorf("Locate = %+v, %v", pl, ok)
	}
	if _, ok := m.Locate(home, to, uid); ok {
		t.Error("Locate found the session in a directory it does not belong to")
	}
	if _, err := m.Carry(home, to, from, uid); err == nil {
		t.Error("Carry from a directory the session does not belong to")
	}
}

func names(files []harness.File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Name)
	}
	return out
}

// FuzzYAML: workspace.yaml is read from a store anyone may have
// written; reading never fails hard, and a directory fleetcom writes reads
// back as itself.
func FuzzYAML(f *testing.F) {
	f.Add("/tmp/cp/a: b #c", "cwd: '/tmp/cp/a: b #c'\nname: |-\n  x\n  y\n")
	f.Add("/tmp/cp/ünï\ttab", `cwd: "/tmp/cp/\u00fcn\x41\U0001F600\\"`)
	f.Add("/x'y\"z", "name: 'it''s'\ncwd: /plain path\n")
	f.Fuzz(func(t *testing.T, dir, doc string) {
		for _, key := range []string{"cwd", "name", "id"} {
			yamlValue([]byte(doc), key)
		}
		q, ok := yamlQuote(dir)
		if !ok {
			return
		}
		if strings.ContainsAny(q, "\n\r") {
			t.Fatalf("%q written over lines: %q", dir, q)
		}
		if got, _, _, ok := yamlValue([]byte("id: x\ncwd: "+q+"\nuser_named: true\n"), "cwd"); !ok || got != dir {
			t.Fatalf("%q written as %q reads back as %q, %v", dir, q, got, ok)
		}
	})
}
