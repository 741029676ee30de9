package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestShimSearch types a prompt with a word of its own into each real CLI
// through the shim, in a project directory, and finds the conversation by
// that word from another directory with `fleetcom search`; then `fleetcom
// search --exec WORD` continues it with its context. Claude Code and Codex
// run at every selected version, the other CLIs at their pinned one (the
// rest of the suite covers their newest).
func TestShimSearch(t *testing.T) {
	t.Parallel()
	for _, name := range AgentNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(t *testing.T, r Real) { searched(t, r, agentNamed(name)) }
			if name == "claude" || name == "codex" {
				eachVersion(t, name, run)
				return
			}
			pinnedVersion(t, name, run)
		})
	}
}

// searchHit is the part of a `fleetcom search --json` object checked here.
type searchHit struct {
	Tool    string `json:"tool"`
	ID      string `json:"id"`
	CWD     string `json:"cwd"`
	Resume  string `json:"resume"`
	Snippet string `json:"snippet"`
	Active  string `json:"active"`
}

func searched(t *testing.T, r Real, d Agent) {
	w, fc := shimWorld(t, r)
	proj := w.Project("searched project")
	other := w.Project("third place")
	x := w.Tmux()
	// The word searched for, in a code word the fake model repeats back
	// after a resume when the earlier turns reached it.
	word := "OSPREY" + strings.ToUpper(d.CLI.Name[:3])
	code := word + "-73"

	p := x.Start(t, proj, d.CLI.Name)
	d.Ready(p)
	p.Submit("remember "+code, typeWait)
	p.WaitFor("ACK "+code, replyWait)
	d.Ready(p)
	status, screen := d.Quit(p)
	if status != 0 {
		t.Fatalf("exit %d; screen:\n%s", status, screen)
	}
	rec := Newest(t, w.List(t, fc, proj), d.CLI.Name)
	if rec.ID == "" || !rec.Resumable {
		t.Fatalf("no resumable %s record in %s: %+v", d.CLI.Name, proj, rec)
	}

	// Found from a third directory, by a word of the prompt, in any case.
	res := w.Fleetcom(t, fc, other, "search", "--json", strings.ToLower(word))
	var hits []searchHit
	if res.Code != 0 || json.Unmarshal([]byte(res.Stdout), &hits) != nil || len(hits) != 1 {
		t.Fatalf("fleetcom search %s: exit %d, stdout %q, stderr %q; want one hit", word, res.Code, res.Stdout, res.Stderr)
	}
	if h := hits[0]; h.Tool != d.CLI.Name || h.ID != rec.ID || h.CWD != proj || !strings.Contains(h.Snippet, word) || h.Resume != rec.Resume {
		t.Errorf("hit %+v, want %s %s in %s with %q in its snippet and resume line %q", h, d.CLI.Name, rec.ID, proj, word, rec.Resume)
	}
	// For people: the short ID, the directory and the matching line.
	res = w.Fleetcom(t, fc, other, "search", word)
	if res.Code != 0 || !strings.Contains(res.Stdout, rec.ID[:8]) || !strings.Contains(res.Stdout, word) {
		t.Errorf("fleetcom search %s: exit %d, stdout %q", word, res.Code, res.Stdout)
	}
	if res := w.Fleetcom(t, fc, other, "search", word, "nosuchwordanywhere"); res.Code != 1 || res.Stdout != "" {
		t.Errorf("a search for a word nobody said: exit %d, stdout %q; want 1 and nothing", res.Code, res.Stdout)
	}

	// --exec from the third directory continues it where it belongs, with
	// the earlier turn sent to the model.
	p = x.Start(t, other, fc, "search", "--exec", word)
	d.Ready(p)
	p.Submit("which codes now", typeWait)
	p.WaitFor("ACK now CODES "+code, replyWait)
	if status, screen := d.Quit(p); status != 0 {
		t.Errorf("exit %d; screen:\n%s", status, screen)
	}
	if after := Newest(t, w.List(t, fc, proj), d.CLI.Name); after.ID != rec.ID {
		t.Errorf("after search --exec the newest %s record is %s, want %s", d.CLI.Name, after.ID, rec.ID)
	}
}
