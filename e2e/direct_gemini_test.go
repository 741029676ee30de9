package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDirectGemini drives the real gemini with no fleetcom in the way and
// pins the facts its harness relies on: the store (a session file made at
// start under tmp/<slug>/chats, the slug in projects.json and the
// .project_root markers, all under $GEMINI_CLI_HOME/.gemini), the exit box
// (also before a prompt, the ID on a line of its own at 80 columns),
// --session-id creating and refusing an ID in use (exit 42), --resume
// finding only the directory's own sessions, /clear, a session moved into a
// directory Gemini never saw by a .project_root alone, and the stub a
// resume in a later minute leaves, which the session cleanup of the next
// start turns into the loss of the conversation (--version spares it). It
// runs once per selected version.
func TestDirectGemini(t *testing.T) {
	t.Parallel()
	eachVersion(t, "gemini", directGemini)
}

const geminiPinned = "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"

func directGemini(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	home := w.GeminiHome()
	proj := w.Project("my project")
	x := w.Tmux()

	// A pinned session: its file exists before any prompt; the reply comes
	// after the router's request; /clear starts another session with an
	// empty context, and the box names it.
	var cleared string
	t.Run("session", func(t *testing.T) {
		p := x.Start(t, proj, "gemini", "--session-id", geminiPinned)
		WaitGemini(p)
		files := GeminiSessions(home, proj)[geminiPinned]
		if len(files) != 1 || len(files[0].Prompts) != 0 || files[0].ProjectHash != geminiHash(proj) ||
			!regexp.MustCompile(`/tmp/my-project/chats/session-\d{4}-\d\d-\d\dT\d\d-\d\d-0f8b2c3e\.jsonl$`).MatchString(files[0].Path) {
			t.Errorf("session before a prompt: %+v", files)
		}
		for _, base := range []string{"tmp", "history"} {
			if b, err := os.ReadFile(filepath.Join(home, base, "my-project", ".project_root")); err != nil || string(b) != proj {
				t.Errorf("%s marker %q, %v", base, b, err)
			}
		}
		if _, err := os.Stat(filepath.Join(w.Home, ".gemini")); err == nil {
			t.Error("gemini wrote ~/.gemini with GEMINI_CLI_HOME set")
		}
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyGemini(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		router := false
		for _, q := range w.API.Requests() {
			router = router || strings.HasSuffix(q.Path, ":generateContent") && strings.Contains(q.Body, "complexity_score")
		}
		if !router {
			t.Error("no router request (a schema with complexity_score) before the turn")
		}
		p.Submit("/clear", typeWait)
		p.WaitUntil("/clear to take effect", replyWait, func(s string) bool {
			return !strings.Contains(s, "ACK PELICAN-4821") && geminiIdle(s)
		})
		p.Submit("remember HERON-77", typeWait)
		ReplyGemini(p, "ACK HERON-77 CODES HERON-77")
		status, screen := QuitGemini(p)
		cleared = Hint(geminiHintRE, screen)
		if status != 0 || cleared == "" || cleared == geminiPinned || Hint(geminiSessionRE, screen) != cleared {
			t.Fatalf("exit %d, hint %q; screen:\n%s", status, cleared, screen)
		}
		if got := GeminiConversations(home, proj); !slices.Equal(got, slices.Sorted(slices.Values([]string{geminiPinned, cleared}))) {
			t.Errorf("conversations %v", got)
		}
	})
	if cleared == "" {
		t.FailNow()
	}

	t.Run("session-id-in-use", func(t *testing.T) {
		out, code := GeminiHeadless(t, w, proj, "--session-id", geminiPinned, "-p", "again")
		if code != 42 || !strings.Contains(out, "already exists") {
			t.Errorf("exit %d: %s", code, out)
		}
	})

	t.Run("resume-other-dir", func(t *testing.T) {
		out, code := GeminiHeadless(t, w, w.Project("other project"), "--resume", geminiPinned, "-p", "which codes now")
		if code != 42 || !strings.Contains(out, "No previous sessions found for this project") {
			t.Errorf("exit %d: %s", code, out)
		}
	})

	// What fleetcom's move does for a directory Gemini never saw: a
	// .project_root claims a folder, projects.json is left alone. Gemini
	// resumes it there with its context, tells the model the new
	// directory, and adds the projects.json entry itself.
	t.Run("moved-new-dir", func(t *testing.T) {
		dest := w.Project("moved here")
		files := GeminiSessions(home, proj)[cleared]
		if len(files) != 1 {
			t.Fatalf("files of %s: %+v", cleared, files)
		}
		moveGeminiSession(t, home, files[0], proj, dest, "moved-here")
		before := len(w.API.Requests())
		out, code := GeminiHeadless(t, w, dest, "--resume", cleared, "-p", "which codes again")
		if code != 0 || !strings.Contains(out, "ACK again CODES HERON-77") {
			t.Fatalf("exit %d: %s", code, out)
		}
		told := false
		for _, q := range w.API.Requests()[before:] {
			told = told || strings.Contains(q.Path, "streamGenerateContent") && strings.Contains(q.Body, dest)
		}
		if !told {
			t.Error("the model was not told the new directory")
		}
		if GeminiSlug(home, dest) != "moved-here" {
			t.Error("gemini did not register the claimed folder")
		}
		if b, _ := os.ReadFile(filepath.Join(home, "projects.json")); !strings.Contains(string(b), jsonString(dest)+`: "moved-here"`) {
			t.Errorf("projects.json:\n%s", b)
		}
	})

	// Resumed in a later minute than it began (its file named for an
	// earlier minute, as one that began then), a session gets a second,
	// two-line file; --version leaves both, and the next start that loads
	// the configuration (--list-sessions) deletes the conversation.
	t.Run("later-resume-stub", func(t *testing.T) {
		files := GeminiSessions(home, proj)[geminiPinned]
		if len(files) != 1 {
			t.Fatalf("files of %s: %+v", geminiPinned, files)
		}
		early := filepath.Join(filepath.Dir(files[0].Path), "session-2026-01-01T00-00-"+geminiPinned[:8]+".jsonl")
		if err := os.Rename(files[0].Path, early); err != nil {
			t.Fatal(err)
		}
		out, code := GeminiHeadless(t, w, proj, "--resume", geminiPinned, "-p", "which codes now")
		if code != 0 || !strings.Contains(out, "ACK now CODES PELICAN-4821") {
			t.Fatalf("exit %d: %s", code, out)
		}
		files = GeminiSessions(home, proj)[geminiPinned]
		stub := r.Has("stub-on-later-resume")
		switch {
		case stub && (len(files) != 2 || files[0].Path != early || len(files[0].Prompts) != 2 || files[1].Lines != 2 || len(files[1].Prompts) != 0):
			t.Fatalf("want the conversation and a two-line stub: %+v", files)
		case !stub && len(files) != 1:
			t.Fatalf("want the conversation alone: %+v", files)
		}
		GeminiHeadless(t, w, proj, "--version")
		if got := GeminiSessions(home, proj)[geminiPinned]; len(got) != len(files) {
			t.Errorf("--version changed the files: %+v", got)
		}
		GeminiHeadless(t, w, proj, "--list-sessions")
		kept := false
		for _, f := range GeminiSessions(home, proj)[geminiPinned] {
			kept = kept || len(f.Prompts) > 0
		}
		if kept == stub {
			t.Errorf("the conversation kept %v after the next start, stub %v: %+v", kept, stub, GeminiSessions(home, proj)[geminiPinned])
		}
	})
}
