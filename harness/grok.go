package harness

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// The xAI Grok CLI. A bare command gets a pinned ID (--session-id creates
// the session); the exit hint and the session directory are the other
// evidence. The community build of the same name has no session flags: a
// run on it gets no pinned ID (see grokprobe.go).
var grokSpec = &Spec{
	Name:    "grok",
	Display: "Grok",
	HomeVar: "GROK_HOME",
	HomeDir: ".grok",
	ID:      UUID,
	// Only --resume is accepted; -r is an alternate spelling and stays
	// opaque.
	Resume:  Spelling{Words: []string{"--resume"}},
	Dropped: []string{"--resume", "-r", "--continue", "-c", "--session-id", "-p", "--prompt"},
	Banners: []string{"Resume this session with:"},
}

func init() { register(grokSpec, grok{}) }

type grok struct{}

// Instrument implements Behaviour.
func (grok) Instrument(f Form, run Run) (Instrumentation, error) {
	if f.Resume != "" {
		return Instrumentation{Pinned: f.Resume}, grokSpec.CheckID(f.Resume)
	}
	if run.Binary != "" && !grokSessionFlag(run.Binary, run.CacheDir) {
		return Instrumentation{}, nil
	}
	id, err := run.newID(grokSpec.ID)
	if err != nil {
		return Instrumentation{}, err
	}
	return Instrumentation{Args: []string{"--session-id", id}, Pinned: id}, nil
}

// ParseCapture implements Behaviour: Grok has no capture channel.
func (grok) ParseCapture([]byte, string) string { return "" }

var grokHint = hintMatcher{program: "grok", words: [][]string{{"--resume", "-r"}}, valid: safe.UUID}

// ScrapeExit implements Behaviour: the last `grok --resume <id>` or
// `grok -r <id>`.
func (grok) ScrapeExit(tail []byte) string {
	return scrapeTail(tail, grokHint.last)
}

// GrokDirName encodes a working directory the way Grok names its session
// folders: '%' becomes %25 and '/' becomes %2F.
func GrokDirName(cwd string) string {
	return strings.ReplaceAll(strings.ReplaceAll(cwd, "%", "%25"), "/", "%2F")
}

// grokSession finds the session directory of id: under cwd's folder, else
// the single sessions/*/<id> (resume by ID does not depend on the cwd).
func grokSession(home, cwd, id string) (string, bool) {
	if !safe.UUID(id) {
		return "", false
	}
	if cwd != "" {
		p := filepath.Join(home, "sessions", GrokDirName(cwd), id)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p, true
		}
	}
	matches, _ := filepath.Glob(filepath.Join(home, "sessions", "*", id))
	if len(matches) == 1 {
		if fi, err := os.Stat(matches[0]); err == nil && fi.IsDir() {
			return matches[0], true
		}
	}
	return "", false
}

// Exists implements Behaviour: the session directory.
func (grok) Exists(home, cwd, id string) bool {
	_, ok := grokSession(home, cwd, id)
	return ok
}

// Title implements Behaviour: the first user message of chat_history.jsonl.
func (grok) Title(home, cwd, id string) string {
	dir, ok := grokSession(home, cwd, id)
	if !ok {
		return ""
	}
	return grokTitle(dir)
}

// grokTitle reads the title of the session directory dir.
func grokTitle(dir string) string {
	title := ""
	eachLine(filepath.Join(dir, "chat_history.jsonl"), func(line []byte) bool {
		if !bytes.Contains(line, []byte(`"user"`)) {
			return true
		}
		var m struct {
			Role    string          `json:"role"`
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(line, &m) != nil || (m.Role != "user" && m.Type != "user") {
			return true
		}
		if t := promptText(m.Content); t != "" {
			title = CleanTitle(t)
			return false
		}
		return true
	})
	return title
}

// Correlate implements Behaviour: the single session directory under cwd's
// folder that was created or changed since the spawn.
func (grok) Correlate(home, cwd string, spawn time.Time) string {
	dir := filepath.Join(home, "sessions", GrokDirName(cwd))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range entries {
		if !e.IsDir() || !safe.UUID(e.Name()) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		if fi.ModTime().Before(spawn.Add(-spawnSlack)) {
			continue
		}
		if found != "" {
			return ""
		}
		found = e.Name()
	}
	return found
}
