package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/store"
)

// twoMachines is a catalog with one claude conversation, and a second,
// empty catalog (another home and store) to import into.
func twoMachines(t *testing.T) (src *Catalog, id string, dst *Catalog, dstHome, dir string) {
	t.Helper()
	src, f := claudeWorld(t)
	dstHome = t.TempDir()
	st, err := store.Open(filepath.Join(t.TempDir(), "fleetcom"), store.Config{Valid: agents.ValidID})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CLAUDE_CONFIG_DIR": dstHome, "CODEX_HOME": filepath.Join(dstHome, "codex"), "HOME": dstHome}
	dst = New(st, Config{Getenv: func(k string) string { return env[k] }})
	dir, _ = filepath.EvalSymlinks(t.TempDir())
	return src, f.ID, dst, dstHome, dir
}

func exportBytes(t *testing.T, c *Catalog, id string) []byte {
	t.Helper()
	b, err := c.Export("", id, "/")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteBundle(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// nothingWritten checks that a refused import left the home and the store
// as they were.
func nothingWritten(t *testing.T, c *Catalog, home string) {
	t.Helper()
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("the home holds %d entries after a refused import", len(entries))
	}
	if all, _ := c.Store().All(); len(all) != 0 {
		t.Errorf("a refused import recorded %v", all)
	}
}

func TestImportRoundTrip(t *testing.T) {
	src, id, dst, home, dir := twoMachines(t)
	data := exportBytes(t, src, id)
	for i := 0; i < 2; i++ {
		b, a, err := ReadBundle(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		r, same, err := dst.Import(b, a, dir)
		if err != nil || r.Cwd != dir || r.Source != "imported" || same != (i == 1) {
			t.Fatalf("import %d: %+v, same %v, %v", i, r, same, err)
		}
	}
	claude, _ := agents.Named("claude")
	if err := claude.Adoptable(home, dir, id); err != nil {
		t.Errorf("claude would not take the imported transcript: %v", err)
	}
}

func TestBundleFaults(t *testing.T) {
	src, id, dst, home, dir := twoMachines(t)
	good := exportBytes(t, src, id)
	edit := func(f func(b map[string]any)) []byte {
		var m map[string]any
		json.Unmarshal(good, &m)
		f(m)
		out, _ := json.Marshal(m)
		return out
	}
	for name, data := range map[string][]byte{
		"truncated":       good[:len(good)/2],
		"empty":           nil,
		"not json":        []byte("claude --resume x; rm -rf ~\n"),
		"two documents":   append(append([]byte{}, good...), good...),
		"id not a uuid":   edit(func(m map[string]any) { m["id"] = "../../etc/passwd" }),
		"uppercase id":    edit(func(m map[string]any) { m["id"] = strings.ToUpper(id) }),
		"unknown tool":    edit(func(m map[string]any) { m["tool"] = "nosuchagent" }),
		"another tool":    edit(func(m map[string]any) { m["tool"] = "codex" }),
		"relative cwd":    edit(func(m map[string]any) { m["cwd"] = "proj" }),
		"other format":    edit(func(m map[string]any) { m["format"] = "tarball" }),
		"no files":        edit(func(m map[string]any) { m["files"] = []any{} }),
		"a path for name": edit(func(m map[string]any) { m["files"].([]any)[0].(map[string]any)["name"] = "../../../.bashrc" }),
	} {
		b, a, err := ReadBundle(bytes.NewReader(data))
		if err == nil {
			_, _, err = dst.Import(b, a, dir)
		}
		var ce *Error
		if !errors.As(err, &ce) || ce.Kind != Invalid {
			t.Errorf("%s: %v, want an invalid-input error", name, err)
		}
		nothingWritten(t, dst, home)
	}
	// Over the size limit: refused while reading, whatever follows.
	big := &bigBundle{head: `{"format":"` + bundleFormat + `","version":1,"tool":"claude","id":"` + id +
		`","cwd":"/p","files":[{"name":"transcript.jsonl","data":"`, n: maxBundle + 10, tail: `"}]}`}
	if _, _, err := ReadBundle(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("an oversized bundle: %v", err)
	}
}

// A conversation whose transcript is over what a bundle carries is refused
// with that reason and what to do, not as a conversation not found (issue
// 29, item 16). The file is sparse: its size is what counts.
func TestExportTooLarge(t *testing.T) {
	c, f := claudeWorld(t)
	claude, _ := agents.Named("claude")
	place, _ := claude.Behaviour.(harness.Mover).Place(f.Home, f.Cwd, f.ID, f.Cwd, []harness.File{{Name: "transcript.jsonl"}})
	if err := os.Truncate(place.Path, harness.MaxConversationFile+1); err != nil {
		t.Fatal(err)
	}
	_, err := c.Export("claude", f.ID, f.Cwd)
	var e *Error
	if !errors.As(err, &e) || e.Kind != Invalid || !strings.Contains(e.Msg, "a bundle carries files of up to 256 MiB") || e.Next == "" {
		t.Fatalf("export of a 256 MiB transcript: %#v", err)
	}
}
