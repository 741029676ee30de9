package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestMoveHeld drives fleetcom move while the real CLI has its
// conversation open (issue 21, item 1): Codex keeps its rollout open for
// the whole run, Claude names its session in sessions/<pid>.json, Grok in
// active_sessions.json. The move
// is refused, naming the CLI's process, and changes nothing; a turn taken
// after the attempt reaches the conversation's file; once the CLI has quit
// the move goes through, and the conversation goes on in its new place with
// both turns.
func TestMoveHeld(t *testing.T) {
	t.Parallel()
	for _, name := range AgentNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			eachVersion(t, name, func(t *testing.T, r Real) { moveHeld(t, r, agentNamed(name)) })
		})
	}
}

var heldRE = regexp.MustCompile(`fleetcom: error: \w+ conversation ([0-9a-f-]{36}) is open in process ([0-9]+) \(([^)\n]*)\)`)

func moveHeld(t *testing.T, r Real, d Agent) {
	w, fc := shimWorld(t, r)
	proj := w.Project("held here")
	dest := w.Project("moved there")
	x := w.Tmux()
	p := x.Start(t, proj, d.CLI.Name)
	d.Ready(p)
	p.Submit("remember KESTREL-5150", typeWait)
	d.Reply(p, "ACK KESTREL-5150 CODES KESTREL-5150")
	d.Ready(p)
	// The CLI writes its store in its own time (Claude 2.1.197 after the
	// reply is on screen): wait until fleetcom sees the conversation.
	if !eventually(replyWait, func() bool {
		recs := w.List(t, fc, proj)
		return len(recs) == 1 && recs[0].Resumable
	}) {
		t.Fatalf("%s never recorded the conversation as resumable: %+v", d.CLI.Name, w.List(t, fc, proj))
	}
	if d.Unmovable != "" {
		// Nothing of it ever moves, open or not: refused for that reason
		// (no process is named), and the conversation goes on.
		res := w.Fleetcom(t, fc, proj, "move", "--from", proj, "--to", dest)
		if res.Code == 0 || !strings.Contains(res.Stderr, "cannot be moved: ") || heldRE.MatchString(res.Stderr) {
			t.Errorf("move of an open %s conversation (%s): exit %d, stdout %q: %s", d.CLI.Name, d.Unmovable, res.Code, res.Stdout, res.Stderr)
		}
		p.Submit("which codes now", typeWait)
		d.Reply(p, "ACK now CODES KESTREL-5150")
		if status, screen := d.Quit(p); status != 0 {
			t.Errorf("exit %d; screen:\n%s", status, screen)
		}
		return
	}
	before := storeFiles(t, w, d.CLI.Name)

	res := w.Fleetcom(t, fc, proj, "move", "--from", proj, "--to", dest)
	m := heldRE.FindStringSubmatch(res.Stderr)
	if res.Code != 1 || m == nil || res.Stdout != "" {
		t.Fatalf("move while %s runs: exit %d, stdout %q, stderr %q; want exit 1 naming the process", d.CLI.Name, res.Code, res.Stdout, res.Stderr)
	}
	pid, _ := strconv.Atoi(m[2])
	if root := p.PID(); pid != root && !slices.Contains(descendants(root), pid) {
		t.Errorf("the process named, %d (%s), is not the CLI's (pane process %d)", pid, m[3], root)
	}
	if !strings.Contains(m[3], d.CLI.Name) {
		t.Errorf("the command named is %q", m[3])
	}
	after := storeFiles(t, w, d.CLI.Name)
	for f := range before {
		// The CLI's own temporary files come and go: Grok writes
		// summary.json through summary.json.<id>.tmp, and SQLite removes
		// a database's -wal and -shm when its last connection closes
		// (Grok 1.0.41's session_search.sqlite, between two searches).
		if _, ok := after[f]; !ok && !cliTransient(f) {
			t.Errorf("a refused move removed %s", f)
		}
	}
	for f := range after {
		if _, ok := before[f]; !ok && strings.Contains(f, filepath.Base(dest)) {
			t.Errorf("a refused move made %s", f)
		}
	}
	if recs := w.List(t, fc, dest); len(recs) != 0 {
		t.Errorf("the new directory lists %+v after a refused move", recs)
	}

	p.Submit("after the attempt OWL-77", typeWait)
	p.WaitFor("ACK OWL-77 CODES KESTREL-5150 OWL-77", replyWait)
	status, screen := d.Quit(p)
	id := Hint(d.Hint, screen)
	if status != 0 || id != m[1] {
		t.Fatalf("exit %d, hint %q, the refusal named %s; screen:\n%s", status, id, m[1], screen)
	}
	if d.CLI.Name == "gemini" {
		w.SettleGemini()
	}
	res = w.Fleetcom(t, fc, proj, "move", "--from", proj, "--to", dest)
	if res.Code != 0 || !strings.HasPrefix(res.Stdout, "moved "+d.CLI.Name+" "+id+" ") {
		t.Fatalf("move once %s quit: exit %d, stdout %q, stderr %q", d.CLI.Name, res.Code, res.Stdout, res.Stderr)
	}
	q := x.Start(t, dest, fleetcomExec(fc)...)
	if d.MovedAsks {
		q.WaitUntil("the question which directory to use", startWait, func(s string) bool {
			return strings.Contains(s, "Use current directory")
		})
		q.Keys("2")
		q.Keys("Enter")
	}
	d.Ready(q)
	q.Submit("which codes now", typeWait)
	q.WaitFor("ACK now CODES KESTREL-5150 OWL-77", replyWait)
	if status, screen := d.Quit(q); status != 0 {
		t.Errorf("resumed in %s: exit %d; screen:\n%s", dest, status, screen)
	}
}

// storeFiles lists the files of a CLI's conversation store.
func storeFiles(t *testing.T, w *World, tool string) map[string]bool {
	t.Helper()
	root := agentNamed(tool).Store(w)
	out := map[string]bool{}
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			out[p] = true
		}
		return nil
	})
	return out
}

// cliTransient reports a file of a CLI's store that the CLI itself makes
// and removes as it runs.
func cliTransient(path string) bool {
	base := filepath.Base(path)
	return strings.Contains(base, ".tmp") || strings.HasSuffix(base, ".sqlite-wal") || strings.HasSuffix(base, ".sqlite-shm")
}
