package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestMoveClaude measures what moving a Claude conversation to another
// directory takes, per version: its transcript copied into the new
// directory's project folder (the slug of the new cwd, symlinks resolved)
// resumes there with its context, whether or not the "cwd" fields in it
// are rewritten; nothing else under ~/.claude has to follow.
func TestMoveClaude(t *testing.T) {
	eachVersion(t, "claude", moveClaude)
}

func moveClaude(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	old := w.Project("old dir")
	x := w.Tmux()
	_, id := converse(t, x, old, []string{"claude"}, "OSPREY-81")
	src := filepath.Join(w.ClaudeHome, "projects", ClaudeSlug(old), id+".jsonl")
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
		dst := filepath.Join(w.ClaudeHome, "projects", ClaudeSlug(dir), id+".jsonl")
		files, _ := filepath.Glob(filepath.Join(w.ClaudeHome, "projects", "*", id+".jsonl"))
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
		if files, _ := filepath.Glob(filepath.Join(w.ClaudeHome, "projects", "*", id+".jsonl")); len(files) != 1 {
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

// TestMoveCodex measures what moving a Codex conversation to another
// directory takes. Rollouts are filed by date, but Codex remembers each
// thread's directory in its state database (state_5.sqlite, threads.cwd)
// and, for a thread it has no row for, takes it from the rollout's last
// thread settings. Resumed from anywhere else it first asks which
// directory to use.
func TestMoveCodex(t *testing.T) {
	eachVersion(t, "codex", moveCodex)
}

func moveCodex(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	old := w.Project("old dir")
	x := w.Tmux()
	thread := func(code string) (id string, path string) {
		before := CodexRollouts(w.CodexHome)
		p := x.Start(t, old, "codex")
		WaitCodex(p)
		p.Submit("remember "+code, typeWait)
		ReplyCodex(p, "ACK "+code+" CODES "+code)
		status, screen := QuitCodex(p)
		id = Hint(codexHintRE, screen)
		ro, ok := CodexRollouts(w.CodexHome)[id]
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
		cfg, err := os.ReadFile(filepath.Join(w.CodexHome, "config.toml"))
		if err != nil {
			t.Fatal(err)
		}
		w.writeFile(filepath.Join(home2, "config.toml"), string(cfg), 0o600)
		copyTo := func(path string) string {
			rel, err := filepath.Rel(w.CodexHome, path)
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

// pathFields counts, in a JSON-lines file, the string fields that name dir
// or a path below it, by "line type: dotted.field" (with the payload's own
// type for Codex lines, and list indices left out).
func pathFields(b []byte, dir string) map[string]int {
	out := map[string]int{}
	var walk func(v any, path string, kind string)
	walk = func(v any, path, kind string) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				walk(e, strings.TrimPrefix(path+"."+k, "."), kind)
			}
		case []any:
			for _, e := range v {
				walk(e, path+"[]", kind)
			}
		case string:
			if v == dir || strings.Contains(v, dir+"/") || strings.Contains(v, dir+"\n") || strings.Contains(v, dir+" ") {
				out[kind+": "+path]++
			}
		}
	}
	forLines(b, func(line []byte) {
		var v map[string]any
		if json.Unmarshal(line, &v) != nil {
			return
		}
		kind, _ := v["type"].(string)
		if p, ok := v["payload"].(map[string]any); ok {
			if pt, ok := p["type"].(string); ok {
				kind += "/" + pt
			}
		}
		walk(v, "", kind)
	})
	return out
}

// fieldList formats pathFields for the log, one field a line.
func fieldList(m map[string]int) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var b strings.Builder
	for _, k := range ks {
		fmt.Fprintf(&b, "\n  %s ×%d", k, m[k])
	}
	return b.String()
}
