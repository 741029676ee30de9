package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestShimNames names a conversation inside the real CLI, through the shim,
// and gets it back by that name: `fleetcom list` shows the name, `fleetcom
// resume NAME` from another directory prints the line of that conversation's
// ID, and `fleetcom resume --exec NAME` continues it with its context. It
// runs once per CLI and selected version.
func TestShimNames(t *testing.T) {
	for _, d := range carriers {
		t.Run(d.tool, func(t *testing.T) {
			eachVersion(t, d.tool, func(t *testing.T, r Real) { named(t, r, d) })
		})
	}
}

// renames is how each CLI's user names the conversation they are in
// (measured: Claude Code 2.1.197 and 2.1.332, Codex 0.171.0, Grok 1.0.41).
var renames = map[string]func(p *Pane, name string){
	"claude": func(p *Pane, name string) { p.Submit("/rename "+name, typeWait) },
	"grok":   func(p *Pane, name string) { p.Submit("/rename "+name, typeWait) },
	// Codex opens a dialog holding a suggested name: clear it, type ours.
	"codex": func(p *Pane, name string) {
		p.Submit("/rename", typeWait)
		p.WaitFor("Rename thread", typeWait)
		p.Keys("C-u")
		p.Submit(name, typeWait)
		// Keys that arrive in a burst read as a paste to Codex, and an
		// Enter inside one is text; CI saw the dialog stay open holding
		// the name. Press Enter again, slower, until it closes.
		for i := 0; i < 5 && strings.Contains(p.Visible(), "Rename thread"); i++ {
			time.Sleep(time.Second)
			if strings.Contains(p.Visible(), "Rename thread") {
				p.Keys("Enter")
			}
		}
	},
}

func named(t *testing.T, r Real, d carrier) {
	rename, ok := renames[d.tool]
	if !ok {
		t.Fatalf("no way to rename a %s conversation in this test", d.tool)
	}
	w, fc := shimWorld(t, r)
	d.setup(w)
	proj := w.Project("named project")
	other := w.Project("somewhere else")
	x := w.Tmux()
	const name = "wren work"

	p := x.Start(t, proj, d.tool)
	d.ready(p)
	p.Submit("remember WREN-3141", typeWait)
	p.WaitFor("ACK WREN-3141 CODES WREN-3141", replyWait)
	rename(p, name)
	// The name is in the CLI's store once fleetcom reads it there.
	var rec Record
	if !eventually(replyWait, func() bool {
		rec = Newest(t, w.List(t, fc, proj), d.tool)
		return rec.Name == name
	}) {
		t.Fatalf("the newest %s record has name %q, want %q; screen:\n%s", d.tool, rec.Name, name, p.Screen())
	}
	d.ready(p)
	status, screen := d.quit(p)
	id := rec.ID
	hint := Hint(d.hint, screen)
	switch {
	case status != 0:
		t.Fatalf("exit %d; screen:\n%s", status, screen)
	case d.tool == "claude" && !r.Has("hint-id-when-named"):
		// The hint names the conversation by its name, which never
		// reaches a record: the record's ID came from the capture.
		if hint != "" || !strings.Contains(screen, `claude --resume "`+name+`"`) {
			t.Errorf("the exit hint of a named conversation: ID %q read, want the name; screen:\n%s", hint, screen)
		}
	case hint != id:
		t.Fatalf("hint %q, record %q; screen:\n%s", hint, id, screen)
	}

	// By name from another directory: the line of that ID, with its cd.
	res := w.Fleetcom(t, fc, other, "resume", name)
	if res.Code != 0 || !strings.HasPrefix(res.Stdout, "cd ") || !strings.Contains(res.Stdout, "'"+id+"'") || strings.Contains(res.Stdout, "wren") {
		t.Fatalf("fleetcom resume %q: exit %d, stdout %q: %s", name, res.Code, res.Stdout, res.Stderr)
	}

	// And run by name: the conversation goes on with its context.
	p = x.Start(t, proj, append(fleetcomExec(fc), name)...)
	d.ready(p)
	p.Submit("which codes now", typeWait)
	p.WaitFor("ACK now CODES WREN-3141", replyWait)
	if status, screen := d.quit(p); status != 0 {
		t.Errorf("exit %d; screen:\n%s", status, screen)
	}
	if rec := Newest(t, w.List(t, fc, proj), d.tool); rec.ID != id || rec.Name != name {
		t.Errorf("after the resume, the newest record is %+v, want %s named %q", rec, id, name)
	}
}

// Claude's input box is recognised with a name on its top rule.
func TestClaudeInputNamed(t *testing.T) {
	box := func(top string) string {
		return "● ACK\n\n" + top + "\n❯\u00a0\n" + strings.Repeat("─", 40) + "\n  ? for shortcuts\n"
	}
	for top, want := range map[string]bool{
		strings.Repeat("─", 40):                        true,
		strings.Repeat("─", 30) + " wren work ─":       true,
		strings.Repeat("─", 30) + " my-feature-x ─── ": true,
		"  ⎿  Session renamed to: wren work":           false,
		"wren work ─":                                  false,
	} {
		if got := claudeInputEmpty(box(top)); got != want {
			t.Errorf("top line %q: input box seen %v, want %v", top, got, want)
		}
	}
}
