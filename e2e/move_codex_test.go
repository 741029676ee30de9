package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMoveCodex measures what moving a Codex conversation to another
// directory takes. Rollouts are filed by date, but Codex remembers each
// thread's directory in its state database (state_5.sqlite, threads.cwd)
// and, for a thread it has no row for, takes it from the rollout's last
// thread settings. Resumed from anywhere else it first asks which
// directory to use.
func TestMoveCodex(t *testing.T) {
	t.Parallel()
	eachVersion(t, "codex", moveCodex)
}

func moveCodex(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	old := w.Project("old dir")
	x := w.Tmux()
	thread := func(code string) (id string, path string) {
		before := CodexRollouts(w.CodexHome())
		p := x.Start(t, old, "codex")
		WaitCodex(p)
		p.Submit("remember "+code, typeWait)
		ReplyCodex(p, "ACK "+code+" CODES "+code)
		status, screen := QuitCodex(p)
		id = Hint(codexHintRE, screen)
		ro, ok := CodexRollouts(w.CodexHome())[id]
		if _, was := before[id]; status != 0 || !ok || was {
			t.Fatalf("exit %d, hint %q, no new rollout; screen:\n%s", status, id, screen)
		}
		return id, ro.Path
	}
	// opened waits until a resumed Codex either asks which directory to
	// use or takes input, and returns the screen and whether it asked.
	opened := func(p *Pane) (string, bool) {
		s := p.WaitUntil("Codex's directory question or its input line", startWait, func(s string) bool {
			return strings.Contains(s, "Use current directory") || codexReady(s)
		})
		return s, !codexReady(s)
	}
	// asks checks that Codex asks, naming both directories, and answers
	// "current directory" when told to.
	asks := func(t *testing.T, p *Pane, session, current string, answer bool) {
		t.Helper()
		s, asked := opened(p)
		if !asked || !strings.Contains(s, "Use session directory ("+session+")") || !strings.Contains(s, "Use current directory ("+current+")") {
			t.Fatalf("want the question naming %s and %s; screen:\n%s", session, current, s)
		}
		if answer {
			p.Keys("2")
			p.Keys("Enter")
			p.WaitUntil("Codex's input line after the answer", startWait, codexReady)
		}
	}
	// goesOn checks that Codex takes input without asking anything and
	// the model gets the earlier turn.
	// word makes the question unique in the conversation, as its history
	// is on screen when it is resumed again.
	goesOn := func(t *testing.T, p *Pane, code, word string) {
		t.Helper()
		if s, asked := opened(p); asked {
			t.Fatalf("asked which directory to use; screen:\n%s", s)
		}
		p.Submit("which codes "+word, typeWait)
		ReplyCodex(p, "ACK "+word+" CODES "+code)
		if status, _ := QuitCodex(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
	}

	// Not rewritten: asked; answering "current directory" goes on with
	// the context, and is remembered: the next resume there asks nothing.
	t.Run("not-rewritten", func(t *testing.T) {
		id, path := thread("HERON-11")
		b, _ := os.ReadFile(path)
		t.Logf("fields naming the old directory in the rollout:%s", fieldList(pathFields(b, old)))
		dir := w.Project("new one")
		p := x.Start(t, dir, "codex", "resume", id)
		asks(t, p, old, dir, true)
		goesOn(t, p, "HERON-11", "now")
		goesOn(t, x.Start(t, dir, "codex", "resume", id), "HERON-11", "again")
	})

	// Rewriting the rollout in place is not enough while the state
	// database has a row for the thread: Codex still names the old
	// directory.
	t.Run("rollout-rewritten-in-place", func(t *testing.T) {
		id, path := thread("HERON-22")
		dir := w.Project("new two")
		rewriteRollout(t, path, path, old, dir)
		p := x.Start(t, dir, "codex", "resume", id)
		asks(t, p, old, dir, false)
		// Left at the question: the test's tmux server ends it.
	})

	// Into another Codex home (no state row): the rollout copied under
	// the same sessions/YYYY/MM/DD name resumes without a question once
	// its directory fields are rewritten; copied as it is, Codex asks.
	t.Run("import", func(t *testing.T) {
		home2 := filepath.Join(w.Root, "codex-home-2")
		cfg, err := os.ReadFile(filepath.Join(w.CodexHome(), "config.toml"))
		if err != nil {
			t.Fatal(err)
		}
		w.writeFile(filepath.Join(home2, "config.toml"), string(cfg), 0o600)
		copyTo := func(path string) string {
			rel, err := filepath.Rel(w.CodexHome(), path)
			if err != nil {
				t.Fatal(err)
			}
			return filepath.Join(home2, rel)
		}
		id, path := thread("HERON-33")
		dir := w.Project("new three")
		rewriteRollout(t, path, copyTo(path), old, dir)
		goesOn(t, x.Start(t, dir, "env", "CODEX_HOME="+home2, "codex", "resume", id), "HERON-33", "now")

		id, path = thread("HERON-44")
		dir = w.Project("new four")
		b, _ := os.ReadFile(path)
		w.writeFile(copyTo(path), string(b), 0o600)
		p := x.Start(t, dir, "env", "CODEX_HOME="+home2, "codex", "resume", id)
		asks(t, p, old, dir, true)
		goesOn(t, p, "HERON-44", "now")
	})
}

// rewriteRollout writes the rollout at src to dst with the directory
// fields that name old naming dir instead: session_meta's and every
// turn_context's payload.cwd and the thread_settings_applied events'
// thread_settings.cwd. Other lines (the model's context, sandbox paths)
// are left as they are; every other byte is kept.
func rewriteRollout(t *testing.T, src, dst, old, dir string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	from, to := []byte(`"cwd":`+jsonString(old)), []byte(`"cwd":`+jsonString(dir))
	lines := bytes.SplitAfter(b, []byte("\n"))
	n := 0
	for i, l := range lines {
		var head struct {
			Type    string `json:"type"`
			Payload struct {
				Type string `json:"type"`
			} `json:"payload"`
		}
		if json.Unmarshal(l, &head) != nil {
			continue
		}
		if head.Type == "session_meta" || head.Type == "turn_context" ||
			head.Type == "event_msg" && head.Payload.Type == "thread_settings_applied" {
			n += bytes.Count(l, from)
			lines[i] = bytes.ReplaceAll(l, from, to)
		}
	}
	if n < 2 {
		t.Fatalf("rollout %s: %d cwd fields naming %s, want session_meta's and more", src, n, old)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
}
