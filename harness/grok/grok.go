// Package grok is fleetcom's knowledge of the xAI Grok CLI: its Spec and
// Behaviour, its session folders (find.go), how a session moves (move.go),
// the names users give sessions (name.go), and how fleetcom tells the xAI
// CLI from a community build of the same name (probe.go). It exports one
// value, Agent, which the list (harness/agents) names.
package grok

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// spec describes the xAI Grok CLI (measured on 1.0.41, e2e/README.md). A bare
// command gets a pinned ID (--session-id creates the session). Grok has no
// way to add a hook for one run without editing the user's files, but it
// keeps $GROK_HOME/active_sessions.json, naming the session each running
// process has open (following /new): that is its live channel. The exit hint
// and the session folder are the other evidence. The community build of the
// same name has no session flags: a run on it gets no pinned ID (probe.go).
var spec = harness.Spec{
	Name:    "grok",
	Display: "Grok",
	HomeVar: "GROK_HOME",
	HomeDir: ".grok",
	ID:      &harness.UUID,
	// Only --resume is accepted; -r is an alternate spelling and stays
	// opaque.
	Resume:  harness.Spelling{Words: []string{"--resume"}},
	Dropped: []string{"--resume", "-r", "--continue", "-c", "--session-id", "-p", "--prompt", "--fork-session"},
	Live:    live,
	Proven:  []string{"1.0.41"},
	Banners: []string{"Resume this session with:"},
	Widening: []harness.Widener{
		{Option: "--always-approve"},
		{Option: "--permission-mode", Values: []string{"bypassPermissions", "acceptEdits", "auto"}},
		{Option: "--allow"}, {Option: "--allowedTools"},
	},
	Naming: "Grok's /rename",
}

// Agent is the xAI Grok CLI.
var Agent = harness.Agent{Spec: &spec, Behaviour: grok{}}

type grok struct{}

// The capabilities grok has: a method that drifts from its interface
// fails the build here instead of quietly dropping the capability.
var _ interface {
	harness.Behaviour
	harness.Capturer
	harness.Correlator
	harness.Titler
	harness.Excerpter
	harness.Finder
	harness.Holder
	harness.Mover
	harness.Namer
	harness.Indexer
} = grok{}

// Instrument implements Behaviour.
func (grok) Instrument(f harness.Form, run harness.Run) (harness.Instrumentation, error) {
	if f.Resume != "" {
		return harness.Instrumentation{Pinned: f.Resume}, spec.ValidateID(f.Resume)
	}
	if run.Binary != "" && !takesSessionID(run.Binary, run.CacheDir) {
		return harness.Instrumentation{}, nil
	}
	id, err := run.PinID(spec.ID)
	if err != nil {
		return harness.Instrumentation{}, err
	}
	return harness.Instrumentation{Args: []string{"--session-id", id}, Pinned: id}, nil
}

// live is Grok's live channel: active_sessions.json, one file for every
// Grok process of the home.
func live(c harness.Capture) string { return activeFile(c.Home) }

// activeFile is the home's active_sessions.json.
func activeFile(home string) string { return filepath.Join(home, "active_sessions.json") }

// activeEntry is one entry of active_sessions.json.
type activeEntry struct {
	SessionID string          `json:"session_id"`
	PID       int             `json:"pid"`
	Cwd       string          `json:"cwd"`
	OpenedAt  json.RawMessage `json:"opened_at"`
}

func readActive(data []byte) []activeEntry {
	var list []activeEntry
	if json.Unmarshal(data, &list) != nil {
		return nil
	}
	return list
}

// ParseCapture implements Capturer over active_sessions.json, which every
// Grok process of the home shares: the session the run's process has open,
// or, when that process is not Grok itself (a shell or a wrapper started
// it), the single session opened in the run's directory since the run began
// by a process descending from it. Another Grok in the same directory is
// never taken for this run's, even once this run's own entry is gone.
func (grok) ParseCapture(data []byte, c harness.Capture) string {
	if c.PID <= 0 {
		return "" // the child is not started: nothing can be its
	}
	var candidates []string
	for _, a := range readActive(data) {
		if !spec.ID.Valid(a.SessionID) {
			continue
		}
		if a.PID == c.PID {
			return a.SessionID
		}
		if c.Cwd != "" && safe.SameDir(a.Cwd, c.Cwd) && !readTime(a.OpenedAt).Before(c.Started.Add(-harness.SpawnSlack)) &&
			safe.Descends(a.PID, c.PID) {
			candidates = append(candidates, a.SessionID)
		}
	}
	if len(candidates) == 1 {
		return candidates[0]
	}
	return ""
}

var hint = harness.Hint{Spec: &spec, Words: [][]string{{"--resume", "-r"}}}

// ScrapeExit implements Behaviour: the last `grok --resume <id>` (or
// `grok -r <id>`), which Grok prints under "Resume this session with:".
func (grok) ScrapeExit(tail []byte) string {
	return harness.ScrapeTail(tail, hint.Last)
}

// DirName is the session folder name Grok derives from cwd, for tools that
// write its store (bench/genstore).
func DirName(cwd string) string { return dirName(cwd) }

// dirName encodes a working directory the way Grok names its session
// folders: every byte outside A-Z a-z 0-9 - . _ ~ becomes %XX, capital hex.
func dirName(cwd string) string { return harness.PercentEncode(cwd, "") }

// decodeDirName inverts dirName; a folder name dirName would not have
// produced, or one that is not an absolute clean path, is refused.
func decodeDirName(name string) (string, bool) {
	cwd, ok := harness.PercentDecode(name)
	if !ok || !filepath.IsAbs(cwd) || filepath.Clean(cwd) != cwd || dirName(cwd) != name {
		return "", false
	}
	return cwd, true
}

// folderOf is the folder of cwd's sessions.
func folderOf(home, cwd string) string {
	return filepath.Join(home, "sessions", dirName(cwd))
}

// sessionDir finds the session directory of id: under cwd's folder only,
// where a record of cwd says it is, or, with no cwd, the single
// sessions/*/<id> (resume by ID does not depend on the cwd).
func sessionDir(home, cwd, id string) (string, bool) {
	if !spec.ID.Valid(id) {
		return "", false
	}
	if cwd != "" {
		p := filepath.Join(folderOf(home, cwd), id)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p, true
		}
		return "", false
	}
	matches, _ := filepath.Glob(filepath.Join(home, "sessions", "*", id))
	if len(matches) == 1 {
		if fi, err := os.Stat(matches[0]); err == nil && fi.IsDir() {
			return matches[0], true
		}
	}
	return "", false
}

// summary is the part of a session's summary.json fleetcom reads.
type summary struct {
	Info struct {
		ID  string `json:"id"`
		Cwd string `json:"cwd"`
	} `json:"info"`
	CreatedAt      json.RawMessage `json:"created_at"`
	LastActiveAt   json.RawMessage `json:"last_active_at"`
	NumMessages    int             `json:"num_messages"`
	GeneratedTitle string          `json:"generated_title"`
	TitleIsManual  bool            `json:"title_is_manual"`
}

func readSummary(dir string) (summary, bool) {
	var s summary
	return s, harness.ReadSmallJSON(filepath.Join(dir, "summary.json"), &s)
}

// hasConversation reports whether a session directory holds a
// conversation: Grok makes the directory when it starts, so one quit before
// its first prompt is there too, empty. summary.json counts the session's
// updates; the prompt lines of chat_history.jsonl decide when it cannot be
// read.
func hasConversation(dir string) bool {
	if s, ok := readSummary(dir); ok && s.NumMessages > 0 {
		return true
	}
	found := false
	harness.EachLine(filepath.Join(dir, "chat_history.jsonl"), func(line []byte) bool {
		found = userPrompt(line) != ""
		return !found
	})
	return found
}

// Exists implements Behaviour: a session directory holding a conversation.
func (grok) Exists(home, cwd, id string) bool {
	dir, ok := sessionDir(home, cwd, id)
	return ok && hasConversation(dir)
}

// Title implements Titler.
func (grok) Title(home, cwd, id string) string {
	dir, ok := sessionDir(home, cwd, id)
	if !ok {
		return ""
	}
	return readTitle(dir)
}

// readTitle reads a session's title: the one Grok generated, else the first
// prompt the user typed (chat_history.jsonl, where Grok wraps it in
// <user_query>, else the first user_message_chunk of updates.jsonl). The
// first user line of chat_history.jsonl is Grok's own <user_info> context,
// never a title.
func readTitle(dir string) string {
	if s, ok := readSummary(dir); ok && strings.TrimSpace(s.GeneratedTitle) != "" {
		return harness.CleanTitle(s.GeneratedTitle)
	}
	title := ""
	harness.EachLine(filepath.Join(dir, "chat_history.jsonl"), func(line []byte) bool {
		title = userPrompt(line)
		return title == ""
	})
	if title != "" {
		return harness.CleanTitle(title)
	}
	harness.EachLine(filepath.Join(dir, "updates.jsonl"), func(line []byte) bool {
		if !bytes.Contains(line, []byte(`"user_message_chunk"`)) {
			return true
		}
		var u struct {
			Params struct {
				Update struct {
					Kind    string `json:"sessionUpdate"`
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"update"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &u) == nil && u.Params.Update.Kind == "user_message_chunk" {
			title = strings.TrimSpace(u.Params.Update.Content.Text)
		}
		return title == ""
	})
	return harness.CleanTitle(title)
}

// userPrompt returns the prompt a chat_history.jsonl line holds, when it is
// one the user typed (a user line with a prompt_index), unwrapped.
func userPrompt(line []byte) string {
	if !bytes.Contains(line, []byte(`"prompt_index"`)) {
		return ""
	}
	var m struct {
		Type        string          `json:"type"`
		Role        string          `json:"role"`
		Content     json.RawMessage `json:"content"`
		PromptIndex *int            `json:"prompt_index"`
	}
	if json.Unmarshal(line, &m) != nil || m.PromptIndex == nil || (m.Type != "user" && m.Role != "user") {
		return ""
	}
	t := harness.PromptText(m.Content)
	t = strings.TrimPrefix(t, "<user_query>")
	t = strings.TrimSuffix(t, "</user_query>")
	return strings.TrimSpace(t)
}

// Correlate implements Correlator: the single conversation under cwd's
// folder that was created or changed since the spawn.
func (grok) Correlate(home, cwd string, spawn time.Time) string {
	dir := folderOf(home, cwd)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range entries {
		if !e.IsDir() || !spec.ID.Valid(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if lastModified(p).Before(spawn.Add(-harness.SpawnSlack)) || !hasConversation(p) {
			continue
		}
		if found != "" {
			return ""
		}
		found = e.Name()
	}
	return found
}

// lastModified is the newest change to a session: its files are appended
// to in place.
func lastModified(dir string) time.Time {
	mod := harness.ModTime(dir)
	for _, name := range []string{"summary.json", "chat_history.jsonl", "updates.jsonl"} {
		if t := harness.ModTime(filepath.Join(dir, name)); t.After(mod) {
			mod = t
		}
	}
	return mod
}

// readTime reads a time Grok wrote: RFC 3339 text, or Unix seconds or
// milliseconds; zero when it is neither.
func readTime(raw json.RawMessage) time.Time {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		t, _ := time.Parse(time.RFC3339Nano, s)
		return t
	}
	var n float64
	if json.Unmarshal(raw, &n) == nil && n > 0 {
		if n > 1e12 {
			return time.UnixMilli(int64(n))
		}
		return time.Unix(int64(n), 0)
	}
	return time.Time{}
}

// Excerpt implements Excerpter: the prompts the user typed and Grok's
// answers, as chat_history.jsonl holds them (never Grok's own context).
func (grok) Excerpt(home, cwd, id string, n, m int) harness.Excerpt {
	x := harness.NewExcerptBuilder(n, m)
	dir, ok := sessionDir(home, cwd, id)
	if !ok {
		return x.Excerpt()
	}
	harness.EachLine(filepath.Join(dir, "chat_history.jsonl"), func(line []byte) bool {
		if p := userPrompt(line); p != "" {
			x.Add("user", p)
			return true
		}
		if !bytes.Contains(line, []byte(`"assistant"`)) {
			return true
		}
		var msg struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(line, &msg) == nil && msg.Type == "assistant" {
			x.Add("assistant", harness.PromptText(msg.Content))
		}
		return true
	})
	return x.Excerpt()
}
