package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// grokWorld is a scratch user with the real Grok CLI of r on PATH, set up
// for the fake API (as every World is, by grok_world.go).
func grokWorld(t *testing.T, r Real) *World {
	t.Helper()
	return NewWorld(t, r.Bin)
}

// GrokHeadless runs "grok args..." without a terminal in dir, as a script
// would, with extra KEY=VALUE entries added to the test environment, and
// returns its output and exit status.
func GrokHeadless(t testing.TB, w *World, dir string, extra []string, args ...string) (string, int) {
	t.Helper()
	out, errOut, code := headless(t, w, "grok", dir, extra, args...)
	return out + errOut, code
}

// grokActive reports whether active_sessions.json lists session id for one
// of the processes from pid down.
func grokActive(home, id string, pid int) bool {
	pids := descendants(pid)
	for _, a := range GrokActiveSessions(home) {
		if a.SessionID == id && slices.Contains(pids, a.PID) {
			return true
		}
	}
	return false
}

// lastReply is the fake API's last reply that starts with prefix.
func lastReply(w *World, prefix string) string {
	reqs := w.API.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if strings.HasPrefix(reqs[i].Reply, prefix) {
			return reqs[i].Reply
		}
	}
	return ""
}

// sentWorkspace reports whether the request answered with a reply starting
// with prefix told the model its workspace path is dir.
func sentWorkspace(w *World, prefix, dir string) bool {
	want, _ := json.Marshal("Workspace Path: " + dir + "\n")
	reqs := w.API.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if strings.HasPrefix(reqs[i].Reply, prefix) {
			return strings.Contains(reqs[i].Body, strings.Trim(string(want), `"`))
		}
	}
	return false
}

// filesNaming lists the files of a session directory that hold dir.
func filesNaming(t *testing.T, session, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(session)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(session, e.Name()))
		if strings.Contains(string(b), dir) {
			out = append(out, e.Name())
		}
	}
	return out
}

// moveGrokSession moves a session directory to another directory's folder
// and rewrites what names the old directory: summary.json's info.cwd,
// prompt_context.json's working_directory and the "Workspace Path:" line of
// the context block in chat_history.jsonl.
func moveGrokSession(t *testing.T, from, to, oldDir, newDir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
	rewriteJSON(t, filepath.Join(to, "summary.json"), func(m map[string]any) {
		m["info"].(map[string]any)["cwd"] = newDir
	})
	rewriteJSON(t, filepath.Join(to, "prompt_context.json"), func(m map[string]any) {
		m["working_directory"] = newDir
	})
	p := filepath.Join(to, "chat_history.jsonl")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	oldLine, _ := json.Marshal("Workspace Path: " + oldDir + "\n")
	newLine, _ := json.Marshal("Workspace Path: " + newDir + "\n")
	trim := func(b []byte) string { return strings.Trim(string(b), `"`) }
	s := strings.Replace(string(b), trim(oldLine), trim(newLine), 1)
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := filesNaming(t, to, oldDir); len(got) != 0 {
		t.Errorf("after the rewrite %v still name %s", got, oldDir)
	}
}

// rewriteJSON edits one JSON object file in place.
func rewriteJSON(t *testing.T, p string, edit func(map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(p)
	var m map[string]any
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	if err != nil {
		t.Fatalf("read %s: %v", p, err)
	}
	edit(m)
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(p, out, 0o600); err != nil {
		t.Fatal(err)
	}
}
