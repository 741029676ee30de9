package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShimCarry takes a conversation with its owner, through fleetcom and
// the real CLIs: exported by one scratch user and imported by another under
// another directory, then moved with its project when the first user
// renames the project. Each time `fleetcom resume --exec` continues it, and
// the model's reply names the code word of the first turn, so it was sent
// the earlier conversation. It runs once per CLI and selected version.
func TestShimCarry(t *testing.T) {
	t.Parallel()
	for _, name := range AgentNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			eachVersion(t, name, func(t *testing.T, r Real) { carry(t, r, agentNamed(name)) })
		})
	}
}

func carry(t *testing.T, r Real, d Agent) {
	w, fc := shimWorld(t, r)
	proj := w.Project("old name")
	x := w.Tmux()

	p := x.Start(t, proj, d.CLI.Name)
	d.Ready(p)
	p.Submit("remember OSPREY-2718", typeWait)
	d.Reply(p, "ACK OSPREY-2718 CODES OSPREY-2718")
	status, screen := d.Quit(p)
	id := Hint(d.Hint, screen)
	if status != 0 || id == "" {
		t.Fatalf("exit %d, no exit hint; screen:\n%s", status, screen)
	}
	if rec := Newest(t, w.List(t, fc, proj), d.CLI.Name); rec.ID != id || !rec.Resumable {
		t.Fatalf("newest record %+v, want resumable %s", rec, id)
	}

	// continues resumes the conversation in dir with resume --exec and
	// checks the model was sent the first turn.
	continues := func(t *testing.T, w *World, x *Tmux, dir, word string, asks bool) {
		t.Helper()
		p := x.Start(t, dir, fleetcomExec(fc)...)
		if asks {
			s := p.WaitUntil("the question which directory to use", startWait, func(s string) bool {
				return strings.Contains(s, "Use current directory")
			})
			if !strings.Contains(s, "Use current directory ("+dir+")") {
				t.Fatalf("the question does not offer %s; screen:\n%s", dir, s)
			}
			p.Keys("2")
			p.Keys("Enter")
		}
		d.Ready(p)
		p.Submit("which codes "+word, typeWait)
		d.Reply(p, "ACK "+word+" CODES OSPREY-2718")
		if status, screen := d.Quit(p); status != 0 {
			t.Errorf("exit %d; screen:\n%s", status, screen)
		}
		if rec := Newest(t, w.List(t, fc, dir), d.CLI.Name); rec.ID != id || rec.CWD != dir || !rec.Resumable {
			t.Errorf("newest record in %s: %+v, want resumable %s", dir, rec, id)
		}
	}

	// A CLI whose conversations fleetcom cannot take along: export and move
	// are refused, saying why and what to do instead, and nothing changed.
	if d.Unmovable != "" {
		t.Run("refused", func(t *testing.T) {
			bundle := filepath.Join(w.Root, "conversation.bundle")
			res := w.Fleetcom(t, fc, proj, "export", id, "-o", bundle)
			if res.Code == 0 || !strings.Contains(res.Stderr, "cannot be exported: ") || !strings.Contains(res.Stderr, "hint: ") {
				t.Errorf("export of a %s conversation (%s): exit %d: %s", d.CLI.Name, d.Unmovable, res.Code, res.Stderr)
			}
			if _, err := os.Stat(bundle); err == nil {
				t.Error("a refused export left a bundle")
			}
			renamed := w.Project("new name")
			res = w.Fleetcom(t, fc, renamed, "move", "--from", proj, "--to", renamed)
			if res.Code == 0 || !strings.Contains(res.Stderr, "cannot be moved: ") || !strings.Contains(res.Stderr, "hint: ") {
				t.Errorf("move of a %s conversation (%s): exit %d, stdout %q: %s", d.CLI.Name, d.Unmovable, res.Code, res.Stdout, res.Stderr)
			}
			continues(t, w, x, proj, "here", false)
		})
		return
	}

	// Another user, another directory: export, import, resume.
	t.Run("export-import", func(t *testing.T) {
		bundle := filepath.Join(w.Root, "conversation.bundle")
		if res := w.Fleetcom(t, fc, proj, "export", id, "-o", bundle); res.Code != 0 {
			t.Fatalf("export: exit %d: %s", res.Code, res.Stderr)
		}
		w2, _ := shimWorld(t, r)
		dest := w2.Project("src/elsewhere")
		res := w2.Fleetcom(t, fc, dest, "import", bundle)
		if res.Code != 0 || !strings.HasPrefix(res.Stdout, "imported "+d.CLI.Name+" "+id+" ") {
			t.Fatalf("import: exit %d, stdout %q: %s", res.Code, res.Stdout, res.Stderr)
		}
		if again := w2.Fleetcom(t, fc, dest, "import", bundle); again.Code != 0 || !strings.HasPrefix(again.Stdout, "already imported") {
			t.Errorf("the same bundle again: exit %d, stdout %q: %s", again.Code, again.Stdout, again.Stderr)
		}
		continues(t, w2, w2.Tmux(), dest, "there", false)
	})

	// The same user renames the project: move, resume in the new place.
	t.Run("move", func(t *testing.T) {
		renamed := filepath.Join(w.Root, "new name")
		if err := os.Rename(proj, renamed); err != nil {
			t.Fatal(err)
		}
		renamed = w.Project("new name") // trusted, like the old one
		if d.CLI.Name == "gemini" {
			w.SettleGemini()
		}
		res := w.Fleetcom(t, fc, renamed, "move", "--from", proj, "--to", renamed)
		if res.Code != 0 || !strings.HasPrefix(res.Stdout, "moved "+d.CLI.Name+" "+id+" ") {
			t.Fatalf("move: exit %d, stdout %q: %s", res.Code, res.Stdout, res.Stderr)
		}
		if said := strings.Contains(res.Stderr, "Use current directory"); said != d.MovedAsks {
			t.Errorf("move's note about the CLI asking once: %v, want %v; stderr %q", said, d.MovedAsks, res.Stderr)
		}
		continues(t, w, x, renamed, "moved", d.MovedAsks)
		// A new folder under the old name knows nothing of it: no record,
		// and nothing left in the CLI's store for discovery to find.
		if err := os.Mkdir(proj, 0o755); err != nil {
			t.Fatal(err)
		}
		if recs := w.List(t, fc, proj); len(recs) != 0 {
			t.Errorf("the old directory still lists: %+v", recs)
		}
	})
}
