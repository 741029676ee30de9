package e2e

import (
	"strings"
	"testing"
)

// TestShimOpencode drives the real opencode through fleetcom's shim and
// checks what fleetcom records and resumes: the ID opencode gave the
// session (no ID can be pinned: fleetcom's plugin and the exit hint name
// it), its title, a quit before a prompt displacing nothing, resume --exec
// continuing it with its context, and a conversation started without
// fleetcom found and adopted on resume. It runs once per selected version.
func TestShimOpencode(t *testing.T) {
	t.Parallel()
	eachVersion(t, "opencode", shimOpencode)
}

func shimOpencode(t *testing.T, r Real) {
	w, fc := shimWorld(t, r)
	proj := w.Project("my project")
	x := w.Tmux()
	line := func(id string) string { return "opencode -s '" + id + "'" }

	var first string
	t.Run("capture", func(t *testing.T) {
		p := x.Start(t, proj, "opencode")
		WaitOpencode(p)
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyOpencode(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		status, screen := QuitOpencode(p)
		sessions := opencodeOf(OpencodeSessions(t, w), proj)
		if status != 0 || len(sessions) != 1 {
			t.Fatalf("exit status %d, sessions %+v; screen:\n%s", status, sessions, screen)
		}
		first = sessions[0].ID
		if hint := Hint(opencodeHintRE, screen); hint != first {
			t.Errorf("exit hint %q, session %q", hint, first)
		}
		wantRecord(t, w, fc, proj, "opencode", first, line(first))
		rec := Newest(t, w.List(t, fc, proj), "opencode")
		// Both channels named it: the plugin's session.created and the hint.
		if rec.Title != sessions[0].Title || strings.Join(rec.Evidence, " ") != "hint capture" {
			t.Errorf("record %+v: want the title %q, evidence hint and capture", rec, sessions[0].Title)
		}
		wantResume(t, w, fc, proj, line(first))
		wantResume(t, w, fc, proj, line(first), "opencode")
	})
	if first == "" {
		t.FailNow()
	}

	t.Run("quit-before-prompt", func(t *testing.T) {
		p := x.Start(t, proj, "opencode")
		WaitOpencode(p)
		if status, _ := QuitOpencode(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		if s := opencodeOf(OpencodeSessions(t, w), proj); len(s) != 1 {
			t.Errorf("sessions %+v", s)
		}
		wantResume(t, w, fc, proj, line(first))
	})

	t.Run("resume-exec", func(t *testing.T) {
		before := OpencodeSessions(t, w)[first]
		p := x.Start(t, proj, fleetcomExec(fc)...)
		WaitOpencode(p)
		p.Submit("which codes now", typeWait)
		ReplyOpencode(p, "ACK now CODES PELICAN-4821")
		if status, _ := QuitOpencode(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		sessions := opencodeOf(OpencodeSessions(t, w), proj)
		if len(sessions) != 1 || sessions[0].ID != first || sessions[0].Messages <= before.Messages {
			t.Errorf("sessions %+v, want %s with more than %d messages", sessions, first, before.Messages)
		}
		wantResume(t, w, fc, proj, line(first))
		if recs := w.List(t, fc, proj); len(recs) != 1 {
			t.Errorf("records %+v", recs)
		}
	})

	// Started with the real binary, not through the shim: found, and
	// adopted by resume.
	t.Run("found-adopted", func(t *testing.T) {
		outside := w.Project("outside")
		p := x.Start(t, outside, r.Path())
		WaitOpencode(p)
		p.Submit("remember HERON-1207", typeWait)
		ReplyOpencode(p, "ACK HERON-1207 CODES HERON-1207")
		status, screen := QuitOpencode(p)
		id := Hint(opencodeHintRE, screen)
		if status != 0 || id == "" {
			t.Fatalf("exit %d; screen:\n%s", status, screen)
		}
		recs := w.List(t, fc, outside)
		if len(recs) != 1 || recs[0].ID != id || !recs[0].Discovered {
			t.Fatalf("list in %s: %+v, want %s found", outside, recs, id)
		}
		res := w.Fleetcom(t, fc, outside, "resume")
		if res.Code != 0 || res.Stdout != line(id)+"\n" || !strings.Contains(res.Stderr, "hint:") {
			t.Fatalf("fleetcom resume: exit %d, stdout %q, stderr %q", res.Code, res.Stdout, res.Stderr)
		}
		if rec := Newest(t, w.List(t, fc, outside), "opencode"); rec.ID != id || rec.Source != "adopted" {
			t.Errorf("after resume: %+v, want %s adopted", rec, id)
		}
	})
	logRequests(t, w)
}
