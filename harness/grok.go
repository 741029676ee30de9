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

// The xAI Grok CLI (measured on 1.0.41, e2e/README.md). A bare command gets
// a pinned ID (--session-id creates the session). Grok has no way to add a
// hook for one run without editing the user's files, but it keeps
// $GROK_HOME/active_sessions.json, naming the session each running process
// has open (following /new): that is its live channel. The exit hint and the
// session folder are the other evidence. The community build of the same
// name has no session flags: a run on it gets no pinned ID (probe.go).
var grokSpec = &Spec{
	Name:    "grok",
	Display: "Grok",
	HomeVar: "GROK_HOME",
	HomeDir: ".grok",
	ID:      &UUID,
	// Only --resume is accepted; -r is an alternate spelling and stays
	// opaque.
	Resume:  Spelling{Words: []string{"--resume"}},
	Dropped: []string{"--resume", "-r", "--continue", "-c", "--session-id", "-p", "--prompt", "--fork-session"},
	Live:    grokLive,
	Proven:  []string{"1.0.41"},
	Banners: []string{"Resume this session with:"},
	Naming:  "Grok's /rename",
}

// Grok is the agent.
var Grok = Agent{Spec: grokSpec, Behaviour: grok{}}

type grok struct{}

// The capabilities grok has: a method that drifts from its interface
// fails the build here instead of quietly dropping the capability.
var _ interface {
	Behaviour
	Capturer
	Correlator
	Titler
	Excerpter
	Finder
	Holder
	Mover
	Namer
} = grok{}

// Instrument implements Behaviour.
func (grok) Instrument(f Form, run Run) (Instrumentation, error) {
	if f.Resume != "" {
		return Instrumentation{Pinned: f.Resume}, grokSpec.ValidateID(f.Resume)
	}
	if run.Binary != "" && !grokSessionFlag(run.Binary, run.CacheDir) {
		return Instrumentation{}, nil
	}
	id, err := run.PinID(grokSpec.ID)
	if err != nil {
		return Instrumentation{}, err
	}
	return Instrumentation{Args: []string{"--session-id", id}, Pinned: id}, nil
}

// grokLive is Grok's live channel: active_sessions.json, one file for every
// Grok process of the home.
func grokLive(c Capture) string { return grokActiveFile(c.Home) }

// grokActiveFile is the home's active_sessions.json.
func grokActiveFile(home string) string { return filepath.Join(home, "active_sessions.json") }

// grokActive is one entry of active_sessions.json.
type grokActive struct {
	SessionID string          `json:"session_id"`
	PID       int             `json:"pid"`
	Cwd       string          `json:"cwd"`
	OpenedAt  json.RawMessage `json:"opened_at"`
}

func readGrokActive(data []byte) []grokActive {
	var list []grokActive
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
func (grok) ParseCapture(data []byte, c Capture) string {
	if c.PID <= 0 {
		return "" // the child is not started: nothing can be its
	}
	var candidates []string
	for _, a := range readGrokActive(data) {
		if !grokSpec.ID.Valid(a.SessionID) {
			continue
		}
		if a.PID == c.PID {
			return a.SessionID
		}
		if c.Cwd != "" && safe.SameDir(a.Cwd, c.Cwd) && !grokTime(a.OpenedAt).Before(c.Started.Add(-SpawnSlack)) &&
			safe.Descends(a.PID, c.PID) {
			candidates = append(candidates, a.SessionID)
		}
	}
	if len(candidates) == 1 {
		return candidates[0]
	}
	return ""
}

var grokHint = Hint{Spec: grokSpec, Words: [][]string{{"--resume", "-r"}}}

// ScrapeExit implements Behaviour: the last `grok --resume <id>` (or
// `grok -r <id>`), which Grok prints under "Resume this session with:".
func (grok) ScrapeExit(tail []byte) string {
	return ScrapeTail(tail, grokHint.Last)
}

// grokDirName encodes a working directory the way Grok names its session
// folders: every byte outside A-Z a-z 0-9 - . _ ~ becomes %XX, capital hex.
func grokDirName(cwd string) string { return PercentEncode(cwd, "") }

// grokDecode inverts grokDirName; a folder name grokDirName would not have
// produced, or one that is not an absolute clean path, is refused.
func grokDecode(name string) (string, bool) {
	cwd, ok := PercentDecode(name)
	if !ok || !filepath.IsAbs(cwd) || filepath.Clean(cwd) != cwd || grokDirName(cwd) != name {
		return "", false
	}
	return cwd, true
}

// grokFolder is the folder of cwd's sessions.
func grokFolder(home, cwd string) string {
	return filepath.Join(home, "sessions", grokDirName(cwd))
}

// grokSession finds the session directory of id: under cwd's folder only,
// where a record of cwd says it is, or, with no cwd, the single
// sessions/*/<id> (resume by ID does not depend on the cwd).
func grokSession(home, cwd, id string) (string, bool) {
	if !grokSpec.ID.Valid(id) {
		return "", false
	}
	if cwd != "" {
		p := filepath.Join(grokFolder(home, cwd), id)
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

// grokSummary is the part of a session's summary.json fleetcom reads.
type grokSummary struct {
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

func readGrokSummary(dir string) (grokSummary, bool) {
	var s grokSummary
	return s, ReadSmallJSON(filepath.Join(dir, "summary.json"), &s)
}

// grokConversation reports whether a session directory holds a
// conversation: Grok makes the directory when it starts, so one quit before
// its first prompt is there too, empty. summary.json counts the session's
// updates; the prompt lines of chat_history.jsonl decide when it cannot be
// read.
func grokConversation(dir string) bool {
	if s, ok := readGrokSummary(dir); ok && s.NumMessages > 0 {
		return true
	}
	found := false
	EachLine(filepath.Join(dir, "chat_history.jsonl"), func(line []byte) bool {
		found = grokPrompt(line) != ""
		return !found
	})
	return found
}

// Exists implements Behaviour: a session directory holding a conversation.
func (grok) Exists(home, cwd, id string) bool {
	dir, ok := grokSession(home, cwd, id)
	return ok && grokConversation(dir)
}

// Title implements Titler.
func (grok) Title(home, cwd, id string) string {
	dir, ok := grokSession(home, cwd, id)
	if !ok {
		return ""
	}
	return grokTitle(dir)
}

// grokTitle reads a session's title: the one Grok generated, else the first
// prompt the user typed (chat_history.jsonl, where Grok wraps it in
// <user_query>, else the first user_message_chunk of updates.jsonl). The
// first user line of chat_history.jsonl is Grok's own <user_info> context,
// never a title.
func grokTitle(dir string) string {
	if s, ok := readGrokSummary(dir); ok && strings.TrimSpace(s.GeneratedTitle) != "" {
		return CleanTitle(s.GeneratedTitle)
	}
	title := ""
	EachLine(filepath.Join(dir, "chat_history.jsonl"), func(line []byte) bool {
		title = grokPrompt(line)
		return title == ""
	})
	if title != "" {
		return CleanTitle(title)
	}
	EachLine(filepath.Join(dir, "updates.jsonl"), func(line []byte) bool {
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
	return CleanTitle(title)
}

// grokPrompt returns the prompt a chat_history.jsonl line holds, when it is
// one the user typed (a user line with a prompt_index), unwrapped.
func grokPrompt(line []byte) string {
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
	t := PromptText(m.Content)
	t = strings.TrimPrefix(t, "<user_query>")
	t = strings.TrimSuffix(t, "</user_query>")
	return strings.TrimSpace(t)
}

// Correlate implements Correlator: the single conversation under cwd's
// folder that was created or changed since the spawn.
func (grok) Correlate(home, cwd string, spawn time.Time) string {
	dir := grokFolder(home, cwd)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range entries {
		if !e.IsDir() || !grokSpec.ID.Valid(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if grokModified(p).Before(spawn.Add(-SpawnSlack)) || !grokConversation(p) {
			continue
		}
		if found != "" {
			return ""
		}
		found = e.Name()
	}
	return found
}

// grokModified is the newest change to a session: its files are appended
// to in place.
func grokModified(dir string) time.Time {
	mod := ModTime(dir)
	for _, name := range []string{"summary.json", "chat_history.jsonl", "updates.jsonl"} {
		if t := ModTime(filepath.Join(dir, name)); t.After(mod) {
			mod = t
		}
	}
	return mod
}

// grokTime reads a time Grok wrote: RFC 3339 text, or Unix seconds or
// milliseconds; zero when it is neither.
func grokTime(raw json.RawMessage) time.Time {
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
func (grok) Excerpt(home, cwd, id string, n, m int) Excerpt {
	x := NewExcerptBuilder(n, m)
	dir, ok := grokSession(home, cwd, id)
	if !ok {
		return x.Excerpt()
	}
	EachLine(filepath.Join(dir, "chat_history.jsonl"), func(line []byte) bool {
		if p := grokPrompt(line); p != "" {
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
			x.Add("assistant", PromptText(msg.Content))
		}
		return true
	})
	return x.Excerpt()
}
