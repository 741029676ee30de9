package catalog

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/store"
)

// grokWorld is a Grok home with one conversation in a directory of its
// own, holding files fleetcom knows nothing of, and an open store.
func grokWorld(t *testing.T) (c *Catalog, home, cwd, id string) {
	t.Helper()
	home = t.TempDir()
	cwd, _ = filepath.EvalSymlinks(t.TempDir())
	id = safe.NewUUID()
	dir := filepath.Join(home, "sessions", harness.PercentEncode(cwd, ""), id)
	summary, _ := json.Marshal(map[string]any{"info": map[string]any{"id": id, "cwd": cwd}, "num_messages": 3,
		"last_active_at": "2026-11-30T08:00:00Z", "grok_home": home})
	history, _ := json.Marshal(map[string]any{"type": "user", "content": "<user_info>\nWorkspace Path: " + cwd + "\n</user_info>"})
	prompt, _ := json.Marshal(map[string]any{"type": "user", "content": "<user_query>\nWorkspace Path: " + cwd + "2\n</user_query>", "prompt_index": 0})
	for name, data := range map[string]string{
		"summary.json":          string(summary),
		"chat_history.jsonl":    string(history) + "\n" + string(prompt) + "\n",
		"attachments/image.png": "png",
		"user-notes.md":         "notes",
		"newfile.json":          "{}",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "fleetcom"), store.Config{Valid: agents.ValidID})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GROK_HOME": home, "HOME": t.TempDir()}
	return New(st, Config{Getenv: func(k string) string { return env[k] }}), home, cwd, id
}

// Across filesystems a Grok session folder is copied whole, every file
// read back, and of the old folder only what was copied and is unchanged is
// deleted (issue 21, item 2).
func TestMoveAcrossFilesystems(t *testing.T) {
	for _, changed := range []bool{false, true} {
		c, home, cwd, id := grokWorld(t)
		old := filepath.Join(home, "sessions", harness.PercentEncode(cwd, ""), id)
		dir, _ := filepath.EvalSymlinks(t.TempDir())
		defer func(r func(string, string) error, c func(harness.Part)) { rename, copied = r, c }(rename, copied)
		rename = func(a, b string) error { return &os.LinkError{Op: "rename", Old: a, New: b, Err: syscall.EXDEV} }
		copied = func(harness.Part) {
			if changed { // a write that lands once the copy is made
				os.WriteFile(filepath.Join(old, "user-notes.md"), []byte("notes, and more"), 0o644)
			}
		}
		m, err := c.Move("grok", id, cwd, dir, false)
		if err != nil {
			t.Fatalf("changed %v: %v", changed, err)
		}
		moved := filepath.Join(home, "sessions", harness.PercentEncode(dir, ""), id)
		for name, want := range map[string]string{"attachments/image.png": "png", "newfile.json": "{}"} {
			if got, err := os.ReadFile(filepath.Join(moved, name)); err != nil || string(got) != want {
				t.Errorf("changed %v: %s = %q, %v", changed, name, got, err)
			}
		}
		history, _ := os.ReadFile(filepath.Join(moved, "chat_history.jsonl"))
		if !strings.Contains(string(history), `Workspace Path: `+dir+`\n`) || !strings.Contains(string(history), `Workspace Path: `+cwd+`2\n`) {
			t.Errorf("changed %v: history not rewritten as it should be:\n%s", changed, history)
		}
		if !changed {
			if exists(old) || len(m.Left) != 0 {
				t.Errorf("the old folder is still there: %v", m.Left)
			}
			continue
		}
		// The file that changed after it was copied stays, and is said.
		if got, _ := os.ReadFile(filepath.Join(old, "user-notes.md")); string(got) != "notes, and more" || len(m.Left) != 1 {
			t.Errorf("a file written during the copy: %q left, Left %v", got, m.Left)
		}
		if exists(filepath.Join(old, "summary.json")) {
			t.Error("a copied file was left behind")
		}
	}
}

// A folder holding what a copy would not carry (a symlink) is refused
// across filesystems, and nothing changes.
func TestMoveRefusesWhatItCannotCarry(t *testing.T) {
	c, home, cwd, id := grokWorld(t)
	old := filepath.Join(home, "sessions", harness.PercentEncode(cwd, ""), id)
	os.Symlink("/etc/hostname", filepath.Join(old, "link"))
	defer func(r func(string, string) error) { rename = r }(rename)
	rename = func(a, b string) error { return &os.LinkError{Op: "rename", Old: a, New: b, Err: syscall.EXDEV} }
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if _, err := c.Move("grok", id, cwd, dir, false); err == nil || !strings.Contains(err.Error(), "would not carry") {
		t.Fatalf("moved a folder holding a symlink across filesystems: %v", err)
	}
	if !exists(filepath.Join(old, "link")) || exists(filepath.Join(home, "sessions", harness.PercentEncode(dir, ""))) {
		t.Error("a refused move changed something")
	}
}

// holders names the processes that hold a conversation's file open, or
// whose command line names its ID, with their commands (issue 21, item 1).
func TestHolders(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc: holders asks lsof and ps there")
	}
	grok, _ := agents.Named("grok")
	dir := t.TempDir()
	file := filepath.Join(dir, "conversation.jsonl")
	os.WriteFile(file, nil, 0o644)
	id := safe.NewUUID()
	// Each says ready once it is what holders must see: no exec after it,
	// which holders could catch half done under load.
	open := exec.Command("sh", "-c", `exec 3>>"$1"; echo ready; read x`, "sh", file)
	named := exec.Command("sh", "-c", `echo ready; read x`, "sh", "--resume", id)
	for _, cmd := range []*exec.Cmd{open, named} {
		stdin, err := cmd.StdinPipe() // read x waits on it until the test ends
		if err != nil {
			t.Fatal(err)
		}
		defer stdin.Close()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		buf := make([]byte, 6)
		if _, err := out.Read(buf); err != nil { // the child has the file open now
			t.Fatal(err)
		}
	}
	got, unchecked := holders(grok, t.TempDir(), id, "", []string{dir})
	pids := map[int]string{}
	for _, h := range got {
		pids[h.PID] = h.Command
	}
	if unchecked != "" {
		t.Errorf("unchecked: %s", unchecked)
	}
	if cmd, ok := pids[open.Process.Pid]; !ok || cmd != `sh -c exec 3>>"$1"; echo ready; read x sh `+file {
		t.Errorf("the process with the file open: %q, %v (all: %v)", cmd, ok, got)
	}
	if cmd, ok := pids[named.Process.Pid]; !ok || cmd != "sh -c echo ready; read x sh --resume "+id {
		t.Errorf("the process naming the id: %q, %v (all: %v)", cmd, ok, got)
	}
	if _, ok := pids[os.Getpid()]; ok {
		t.Error("this process was named")
	}
}
