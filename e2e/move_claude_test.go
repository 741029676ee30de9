package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMoveClaude measures what moving a Claude conversation to another
// directory takes, per version: its transcript copied into the new
// directory's project folder (the slug of the new cwd, symlinks resolved)
// resumes there with its context, whether or not the "cwd" fields in it
// are rewritten; nothing else under ~/.claude has to follow.
func TestMoveClaude(t *testing.T) {
	t.Parallel()
	eachVersion(t, "claude", moveClaude)
}

func moveClaude(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	old := w.Project("old dir")
	x := w.Tmux()
	_, id := converse(t, x, w.ClaudeHome(), old, []string{"claude"}, "OSPREY-81")
	src := filepath.Join(w.ClaudeHome(), "projects", ClaudeSlug(old), id+".jsonl")
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: fields naming the old directory in the transcript:%s", r, fieldList(pathFields(orig, old)))
	if n := pathFields(orig, old); n["user: cwd"] == 0 || n["assistant: cwd"] == 0 {
		t.Errorf("no cwd field names %s: %v", old, n)
	}

	// move copies the transcript into dir's project folder, rewritten or
	// not, removes every other copy, resumes from start (dir or a link to
	// it) and checks the conversation went on in the moved file.
	move := func(t *testing.T, dir, start string, rewrite bool) {
		body := orig
		if rewrite {
			body = bytes.ReplaceAll(orig, []byte(`"cwd":`+jsonString(old)), []byte(`"cwd":`+jsonString(dir)))
		}
		dst := filepath.Join(w.ClaudeHome(), "projects", ClaudeSlug(dir), id+".jsonl")
		files, _ := filepath.Glob(filepath.Join(w.ClaudeHome(), "projects", "*", id+".jsonl"))
		for _, f := range files {
			os.Remove(f)
		}
		w.writeFile(dst, string(body), 0o600)
		p := x.Start(t, start, "claude", "--resume", id)
		WaitClaude(p)
		p.Submit("which codes now", typeWait)
		ReplyClaude(p, "ACK now CODES OSPREY-81")
		status, screen := ExitClaude(p)
		if got := Hint(claudeHintRE, screen); status != 0 || got != id {
			t.Errorf("exit %d, hint names %q, want %s", status, got, id)
		}
		after, _ := os.ReadFile(dst)
		if len(after) <= len(body) || !strings.Contains(string(after[len(body):]), `"cwd":`+jsonString(dir)) {
			t.Errorf("the moved file did not grow with lines naming %s", dir)
		}
		if files, _ := filepath.Glob(filepath.Join(w.ClaudeHome(), "projects", "*", id+".jsonl")); len(files) != 1 {
			t.Errorf("copies of %s after the resume: %v", id, files)
		}
	}
	t.Run("cwd-rewritten-via-symlink", func(t *testing.T) {
		dir := w.Project("new dir")
		link := filepath.Join(w.Root, "link to new")
		if err := os.Symlink(dir, link); err != nil {
			t.Fatal(err)
		}
		move(t, dir, link, true)
	})
	t.Run("cwd-not-rewritten", func(t *testing.T) {
		dir := w.Project("newer dir")
		move(t, dir, dir, false)
	})
}
