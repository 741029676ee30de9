package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMoveGrokFolder: a Grok session folder moves whole (issue 21, item 2):
// files fleetcom knows nothing of go with it, nothing is left in the old
// directory's folder, and the conversation goes on in its new place.
func TestMoveGrokFolder(t *testing.T) {
	t.Parallel()
	eachVersion(t, "grok", func(t *testing.T, r Real) {
		w, fc := shimWorld(t, r)
		proj := w.Project("grok here")
		dest := w.Project("grok there")
		x := w.Tmux()
		p := x.Start(t, proj, "grok")
		WaitGrok(p)
		p.Submit("remember HERON-33", typeWait)
		p.WaitFor("ACK HERON-33 CODES HERON-33", replyWait)
		status, screen := QuitGrok(p)
		id := Hint(grokHintRE, screen)
		if status != 0 || id == "" {
			t.Fatalf("exit %d, no hint; screen:\n%s", status, screen)
		}
		folder := filepath.Join(w.GrokHome(), "sessions", GrokFolder(proj), id)
		extra := map[string]string{"attachments/image.png": "png", "user-notes.md": "notes", "newfile.json": "{}"}
		for name, data := range extra {
			w.writeFile(filepath.Join(folder, name), data, 0o644)
		}
		before, _ := os.ReadDir(folder)
		res := w.Fleetcom(t, fc, proj, "move", "--from", proj, "--to", dest)
		if res.Code != 0 || !strings.HasPrefix(res.Stdout, "moved grok "+id+" ") {
			t.Fatalf("move: exit %d, stdout %q, stderr %q", res.Code, res.Stdout, res.Stderr)
		}
		moved := filepath.Join(w.GrokHome(), "sessions", GrokFolder(dest), id)
		after, _ := os.ReadDir(moved)
		if len(after) != len(before) {
			t.Errorf("the folder held %d entries, its moved copy %d", len(before), len(after))
		}
		for name, data := range extra {
			if b, err := os.ReadFile(filepath.Join(moved, name)); err != nil || string(b) != data {
				t.Errorf("%s: %q, %v", name, b, err)
			}
		}
		for _, left := range storeUnder(filepath.Join(w.GrokHome(), "sessions", GrokFolder(proj))) {
			if strings.Contains(left, id) {
				t.Errorf("left in the old directory's folder: %s", left)
			} else {
				t.Logf("%s: the old directory's folder still holds %s (not the conversation's)", r, left)
			}
		}
		q := x.Start(t, dest, fleetcomExec(fc)...)
		WaitGrok(q)
		q.Submit("which codes now", typeWait)
		q.WaitFor("ACK now CODES HERON-33", replyWait)
		if status, screen := QuitGrok(q); status != 0 {
			t.Errorf("resumed in %s: exit %d; screen:\n%s", dest, status, screen)
		}
	})
}

// storeUnder lists what is under dir (nothing when it is gone).
func storeUnder(dir string) []string {
	var out []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && p != dir {
			out = append(out, strings.TrimPrefix(p, dir))
		}
		return nil
	})
	return out
}
