package e2e

import (
	"strings"
	"testing"
)

// TestShimGrok drives the real grok through fleetcom's shim and checks what
// fleetcom records and resumes: the session's ID, its title rather than the
// context block Grok sends first, an empty session that does not displace
// the conversation, and resume --exec continuing it. It runs once per
// selected version.
func TestShimGrok(t *testing.T) {
	t.Parallel()
	eachVersion(t, "grok", shimGrok)
}

func shimGrok(t *testing.T, r Real) {
	w, fc := shimGrokWorld(t, r)
	home := w.GrokHome()
	proj := w.Project("my project")
	x := w.Tmux()
	line := func(id string) string { return "grok --resume '" + id + "'" }

	// The ID fleetcom records is the one Grok filed the conversation under,
	// and its title is the conversation's, not the context block Grok puts
	// before the first prompt.
	var first string
	t.Run("capture", func(t *testing.T) {
		p := x.Start(t, proj, "grok")
		WaitGrok(p)
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyGrok(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		status, screen := QuitGrok(p)
		convs := grokConversations(GrokSessions(home, proj))
		if status != 0 || len(convs) != 1 {
			t.Fatalf("exit status %d, sessions with prompts %v; screen:\n%s", status, convs, screen)
		}
		first = convs[0]
		if hint := Hint(grokHintRE, screen); hint != first {
			t.Errorf("exit hint %q, session %q", hint, first)
		}
		wantRecord(t, w, fc, proj, "grok", first, line(first))
		rec := Newest(t, w.List(t, fc, proj), "grok")
		if strings.HasPrefix(rec.Title, "<user_info>") ||
			(rec.Title != "Fake session title" && rec.Title != "remember PELICAN-4821") {
			t.Errorf("recorded title %q, want the generated title or the first prompt", rec.Title)
		}
		wantResume(t, w, fc, proj, line(first))
		wantResume(t, w, fc, proj, line(first), "grok")
	})
	if first == "" {
		t.FailNow()
	}

	// A run quit before its first prompt leaves an empty session (and Grok
	// prints a hint for it), but it does not displace the conversation.
	t.Run("quit-before-prompt", func(t *testing.T) {
		p := x.Start(t, proj, "grok")
		WaitGrok(p)
		if status, _ := QuitGrok(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		wantResume(t, w, fc, proj, line(first))
	})

	// resume --exec continues the same session, with the earlier turn sent
	// to the model.
	t.Run("resume-exec", func(t *testing.T) {
		if r := w.Fleetcom(t, fc, proj, "resume"); r.Stdout != line(first)+"\n" {
			t.Fatalf("fleetcom resume would continue %q, not %s (see quit-before-prompt)", strings.TrimSpace(r.Stdout), first)
		}
		before := GrokSessions(home, proj)
		p := x.Start(t, proj, fleetcomExec(fc)...)
		WaitGrok(p)
		p.Submit("which codes now", typeWait)
		ReplyGrok(p, "ACK now CODES PELICAN-4821")
		if status, _ := QuitGrok(p); status != 0 {
			t.Errorf("exit status %d", status)
		}
		after := GrokSessions(home, proj)
		if got := grokConversations(after); len(got) != 1 || len(after[first].Prompts) != 2 ||
			after[first].UpdateLines <= before[first].UpdateLines {
			t.Errorf("sessions with prompts %v; prompts of %s: %q", got, first, after[first].Prompts)
		}
		wantResume(t, w, fc, proj, line(first))
	})
	logRequests(t, w)
}

// shimGrokWorld is shimWorld for Grok (every World is set up for it, by
// grok_world.go).
func shimGrokWorld(t *testing.T, r Real) (*World, string) {
	t.Helper()
	return shimWorld(t, r)
}

// grokConversations lists the sessions that hold a prompt: Grok files a
// session directory at start, so an empty one is left by every run quit
// before a prompt.
func grokConversations(sessions map[string]GrokSession) []string {
	var out []string
	for id, s := range sessions {
		if len(s.Prompts) > 0 {
			out = append(out, id)
		}
	}
	return out
}
