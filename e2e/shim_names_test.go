package e2e

import (
	"strings"
	"testing"
)

// TestShimNames names a conversation inside the real CLI, through the shim,
// and gets it back by that name: `fleetcom list` shows the name, `fleetcom
// resume NAME` from another directory prints the line of that conversation's
// ID, and `fleetcom resume --exec NAME` continues it with its context. It
// runs once per CLI and selected version.
func TestShimNames(t *testing.T) {
	t.Parallel()
	for _, name := range AgentNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// Skipped before any version is installed: the reason is a
			// measurement of the pinned version.
			if d := agentNamed(name); d.NoNames != "" {
				t.Skipf("%s keeps no names (measured on %s): %s", name, d.CLI.Pinned, d.NoNames)
			}
			eachVersion(t, name, func(t *testing.T, r Real) { named(t, r, agentNamed(name)) })
		})
	}
}

func named(t *testing.T, r Real, d Agent) {
	if d.Rename == nil {
		t.Fatalf("no way to rename a %s conversation in this test: its world file registers none", d.CLI.Name)
	}
	w, fc := shimWorld(t, r)
	proj := w.Project("named project")
	other := w.Project("somewhere else")
	x := w.Tmux()
	const name = "wren work"

	p := x.Start(t, proj, d.CLI.Name)
	d.Ready(p)
	p.Submit("remember WREN-3141", typeWait)
	p.WaitFor("ACK WREN-3141 CODES WREN-3141", replyWait)
	d.Rename(p, name)
	// The name is in the CLI's store once fleetcom reads it there.
	var rec Record
	if !eventually(replyWait, func() bool {
		rec = Newest(t, w.List(t, fc, proj), d.CLI.Name)
		return rec.Name == name
	}) {
		t.Fatalf("the newest %s record has name %q, want %q; screen:\n%s", d.CLI.Name, rec.Name, name, p.Screen())
	}
	d.Ready(p)
	status, screen := d.Quit(p)
	id := rec.ID
	hint := Hint(d.Hint, screen)
	switch {
	case status != 0:
		t.Fatalf("exit %d; screen:\n%s", status, screen)
	case d.HintByName != nil && d.HintByName(r):
		// The hint names the conversation by its name, which never
		// reaches a record: the record's ID came from the capture.
		if hint != "" || !strings.Contains(screen, d.CLI.Name+` --resume "`+name+`"`) {
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
	d.Ready(p)
	p.Submit("which codes now", typeWait)
	p.WaitFor("ACK now CODES WREN-3141", replyWait)
	if status, screen := d.Quit(p); status != 0 {
		t.Errorf("exit %d; screen:\n%s", status, screen)
	}
	if rec := Newest(t, w.List(t, fc, proj), d.CLI.Name); rec.ID != id || rec.Name != name {
		t.Errorf("after the resume, the newest record is %+v, want %s named %q", rec, id, name)
	}
}
