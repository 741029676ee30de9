package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// GeminiHeadless runs "gemini args..." without a terminal in dir, as a
// script would, and returns its output and exit status.
func GeminiHeadless(t testing.TB, w *World, dir string, args ...string) (string, int) {
	t.Helper()
	out, errOut, code := headless(t, w, "gemini", dir, nil, args...)
	return out + errOut, code
}

// resizePane sets the width of the window a pane is in.
func resizePane(p *Pane, cols int) {
	p.t.Helper()
	p.Resize(cols, 0)
}

// geminiHash is the projectHash Gemini writes for a directory.
func geminiHash(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(sum[:])
}

// moveGeminiSession files session file f of a conversation in dir's folder
// as fleetcom's move does for a directory Gemini never saw: a slug claimed
// with .project_root in tmp/ and history/, the file moved with its
// projectHash rewritten, projects.json left alone. It returns the new path.
func moveGeminiSession(t *testing.T, home string, f GeminiFile, from, dir, slug string) string {
	t.Helper()
	for _, base := range []string{"tmp", "history"} {
		p := filepath.Join(home, base, slug, ".project_root")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(dir), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(home, "tmp", slug, "chats", filepath.Base(f.Path))
	os.MkdirAll(filepath.Dir(to), 0o755)
	if err := os.WriteFile(to, []byte(strings.ReplaceAll(string(b), geminiHash(from), geminiHash(dir))), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(f.Path); err != nil {
		t.Fatal(err)
	}
	return to
}
