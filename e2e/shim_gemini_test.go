package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// TestShimGemini drives the real gemini through fleetcom's shim and checks
// what fleetcom records and resumes: the session's own ID (pinned, and read
// from the exit box, wrapped in an 80-column pane), a run quit before a prompt (whose session Gemini
// deletes, though its box names it) that displaces nothing, resume --exec
// continuing the conversation with its context, and a conversation had
// without fleetcom, found in Gemini's store and adopted on resume. It runs
// once per selected version.
func TestShimGemini(t *testing.T) {
	t.Parallel()
	eachVersion(t, "gemini", shimGemini)
}

func shimGemini(t *testing.T, r Real) {
	w, fc := shimWorld(t, r)
	home := w.GeminiHome()
	proj := w.Project("my project")
	x := w.Tmux()
	line := func(id string) string { return "gemini --resume '" + id + "'" }

	// In an 80-column pane Gemini's exit box puts the ID on a line of its
	// own between its borders: the record still comes from the hint.
	var first string
	t.Run("capture-80-columns", func(t *testing.T) {
		p := x.Start(t, proj, "gemini")
		resizePane(p, 80)
		WaitGemini(p)
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyGemini(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		status, screen := QuitGemini(p)
		convs := GeminiConversations(home, proj)
		if status != 0 || len(convs) != 1 {
			t.Fatalf("exit status %d, sessions with prompts %v; screen:\n%s", status, convs, screen)
		}
		first = convs[0]
		if hint := Hint(geminiHintRE, screen); hint != first || !regexp.MustCompile(`│\s+`+first+`\s+│`).MatchString(screen) {
			t.Errorf("exit hint %q, session %q, want it on a line of its own; screen:\n%s", hint, first, screen)
		}
		wantRecord(t, w, fc, proj, "gemini", first, line(first))
		if rec := Newest(t, w.List(t, fc, proj), "gemini"); rec.Title != "remember PELICAN-4821" || rec.Source != "hint" {
			t.Errorf("record %+v: want the first prompt as its title, from the hint", rec)
		}
		if got, want := lastDrift(t, w, "gemini"), r.Version+" hint=ok capture=-"; got != want {
			t.Errorf("drift tally %q, want %q", got, want)
		}
		wantResume(t, w, fc, proj, line(first))
		wantResume(t, w, fc, proj, line(first), "gemini")
	})
	if first == "" {
		t.FailNow()
	}

	// Gemini prints its box, with an ID, for a session quit before its
	// first prompt, and deletes that session: nothing is displaced.
	t.Run("quit-before-prompt", func(t *testing.T) {
		p := x.Start(t, proj, "gemini")
		WaitGemini(p)
		status, screen := QuitGemini(p)
		id := Hint(geminiHintRE, screen)
		if status != 0 || id == "" || id == first {
			t.Errorf("exit %d, hint %q; screen:\n%s", status, id, screen)
		}
		if files := GeminiSessions(home, proj)[id]; len(files) != 0 {
			t.Errorf("the session quit before a prompt is still there: %+v", files)
		}
		wantResume(t, w, fc, proj, line(first))
	})

	// resume --exec continues the same session, with the earlier turn sent
	// to the model.
	t.Run("resume-exec", func(t *testing.T) {
		p := x.Start(t, proj, fleetcomExec(fc)...)
		WaitGemini(p)
		p.Submit("which codes now", typeWait)
		ReplyGemini(p, "ACK now CODES PELICAN-4821")
		if status, _ := QuitGemini(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		if got := GeminiConversations(home, proj); len(got) != 1 || got[0] != first {
			t.Errorf("sessions with prompts %v, want %s alone", got, first)
		}
		wantRecord(t, w, fc, proj, "gemini", first, line(first))
	})

	// A conversation had with the real binary, in a directory fleetcom never
	// recorded: found, adopted by resume (with a hint), continued by
	// --exec with its context.
	t.Run("outside", func(t *testing.T) {
		out := w.Project("outside")
		p := x.Start(t, out, r.Path())
		WaitGemini(p)
		p.Submit("remember WREN-3141", typeWait)
		ReplyGemini(p, "ACK WREN-3141 CODES WREN-3141")
		_, screen := QuitGemini(p)
		id := Hint(geminiHintRE, screen)
		if recs := w.List(t, fc, out); len(recs) != 1 || recs[0].ID != id || recs[0].Title != "remember WREN-3141" {
			t.Fatalf("listed %+v, want %s found", recs, id)
		}
		res := w.Fleetcom(t, fc, out, "resume")
		if res.Code != 0 || res.Stdout != line(id)+"\n" || !strings.Contains(res.Stderr, "resuming the newest gemini conversation found on disk") {
			t.Fatalf("fleetcom resume: exit %d, %q, %q", res.Code, res.Stdout, res.Stderr)
		}
		if rec := Newest(t, w.List(t, fc, out), "gemini"); rec.Source != "adopted" || !rec.Resumable {
			t.Errorf("after resume: %+v", rec)
		}
		q := x.Start(t, out, fleetcomExec(fc)...)
		WaitGemini(q)
		q.Submit("which codes now", typeWait)
		ReplyGemini(q, "ACK now CODES WREN-3141")
		if status, _ := QuitGemini(q); status != 0 {
			t.Errorf("exit status %d", status)
		}
	})
}
