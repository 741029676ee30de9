package harness

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// Claude Code. A bare command gets a pinned ID (--session-id) and inline
// settings whose hooks copy each SessionStart payload into the capture file
// and note each change of state there (claudehooks.go); the resume form gets
// only the settings.
var claudeSpec = &Spec{
	Name:    "claude",
	Display: "Claude Code",
	HomeVar: "CLAUDE_CONFIG_DIR",
	HomeDir: ".claude",
	ID:      &UUID,
	Resume:  Spelling{Words: []string{"--resume"}},
	Dropped: []string{"--resume", "-r", "--continue", "-c", "--session-id", "--fork-session", "-p", "--print", "--name", "-n"},
	Proven:  []string{"2.1.197", "2.1.332"},
	Banners: []string{"Resume this session with:"},
	Naming:  "Claude Code's /rename or --name",
}

// Claude is the agent.
var Claude = Agent{Spec: claudeSpec, Behaviour: claude{}}

type claude struct{}

// The capabilities claude has: a method that drifts from its interface
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
	HintNamer
} = claude{}

// Instrument implements Behaviour. The settings go inline, as JSON, not as
// a file: Claude Code 2.1.332 repeats launch options in the resume line it
// prints at exit, and a settings file in the run's namespace, removed when
// the run ends, would make that printed line fail ("Settings file not
// found"). JSON is never a plain word, so Claude repeats none of it (nor,
// by its rule, any other option: the printed line is the plain
// `claude --resume <id>`), and nothing outlives the run.
func (claude) Instrument(f Form, run Run) (Instrumentation, error) {
	settings := claudeInlineSettings()
	if run.Hooks == HooksOff {
		settings = claudeCaptureSettings
	}
	if f.Resume != "" {
		return Instrumentation{
			Args:   []string{"--settings", settings},
			Env:    run.CaptureEnv(),
			Pinned: f.Resume,
			States: run.Hooks != HooksOff,
		}, claudeSpec.ValidateID(f.Resume)
	}
	id, err := run.PinID(claudeSpec.ID)
	if err != nil {
		return Instrumentation{}, err
	}
	if HasOption(f.Options, "--settings") {
		// The user brings their own settings: ours would compete with them,
		// so the run is pinned but not hooked.
		return Instrumentation{Args: []string{"--session-id", id}, Pinned: id}, nil
	}
	return Instrumentation{
		Args:   []string{"--session-id", id, "--settings", settings},
		Env:    run.CaptureEnv(),
		Pinned: id,
		States: run.Hooks != HooksOff,
	}, nil
}

// claudePayload is the part of a SessionStart hook payload fleetcom reads.
type claudePayload struct {
	Event     string          `json:"hook_event_name"`
	SessionID string          `json:"session_id"`
	AgentID   json.RawMessage `json:"agent_id"`
}

// ParseCapture implements Capturer: the latest SessionStart payload of the
// main conversation wins (a payload carrying agent_id is a subagent's).
func (claude) ParseCapture(data []byte, _ Capture) string {
	id := ""
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		var p claudePayload
		if len(line) == 0 || json.Unmarshal(line, &p) != nil {
			continue
		}
		if p.Event == "SessionStart" && p.AgentID == nil && claudeSpec.ID.Valid(p.SessionID) {
			id = p.SessionID
		}
	}
	return id
}

var claudeHint = Hint{Spec: claudeSpec, Words: [][]string{{"--resume"}}, Banner: "Resume this session with:"}

// ScrapeExit implements Behaviour: the last `claude --resume <id>`, which
// Claude prints under "Resume this session with:" at exit; from 2.1.332 it
// may repeat launch options before --resume, read there only.
func (claude) ScrapeExit(tail []byte) string {
	return ScrapeTail(tail, claudeHint.Last)
}

// ClaudeSlug is the project folder name Claude derives from a working
// directory: each UTF-16 unit outside [A-Za-z0-9] becomes '-', and a slug
// over 200 characters is cut to 200 and suffixed with '-' and a base-36 hash
// of the path.
func ClaudeSlug(cwd string) string {
	units := utf16.Encode([]rune(cwd))
	b := make([]byte, len(units))
	for i, u := range units {
		if u < 0x80 && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9') {
			b[i] = byte(u)
		} else {
			b[i] = '-'
		}
	}
	if len(b) <= 200 {
		return string(b)
	}
	var h int32
	for _, u := range units {
		h = 31*h + int32(u)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return string(b[:200]) + "-" + strconv.FormatInt(abs, 36)
}

// claudeTranscript finds the transcript of id: in cwd's project folders
// only, where a record of cwd says it is, or, with no cwd, the single
// projects/*/<id>.jsonl (long slugs are not always recomputable).
func claudeTranscript(home, cwd, id string) (string, bool) {
	if !claudeSpec.ID.Valid(id) {
		return "", false
	}
	if cwd != "" {
		for _, folder := range claudeFolders(home, cwd) {
			p := filepath.Join(folder, id+".jsonl")
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p, true
			}
		}
		return "", false
	}
	matches, _ := filepath.Glob(filepath.Join(home, "projects", "*", id+".jsonl"))
	if len(matches) == 1 {
		return matches[0], true
	}
	return "", false
}

// claudeLine is the part of a transcript line fleetcom reads.
type claudeLine struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Timestamp string `json:"timestamp"`
	IsMeta    bool   `json:"isMeta"`
	Message   struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// isConversation reports a line that makes a transcript a conversation: an
// assistant message, or a prompt the user typed. Metadata and the lines a
// slash command leaves (a /clear writes its own, measured with 2.1.197) are
// not: a session cleared and quit at once has nothing to resume.
func (l claudeLine) isConversation() bool {
	switch l.Type {
	case "assistant":
		return true
	case "user":
		return !l.IsMeta && isPrompt(PromptText(l.Message.Content))
	}
	return false
}

// isPrompt reports text a user typed, as opposed to the wrappers Claude
// writes around slash commands and their output.
func isPrompt(text string) bool {
	return text != "" && !strings.HasPrefix(text, "<command-") && !strings.HasPrefix(text, "<local-command-")
}

// claudeConversation scans a transcript for its first conversation line; a
// metadata-only transcript (quit before the first prompt) has none.
func claudeConversation(path string) (claudeLine, bool) {
	var found claudeLine
	ok := false
	EachLine(path, func(line []byte) bool {
		if !bytes.Contains(line, []byte(`"type":"user"`)) && !bytes.Contains(line, []byte(`"type":"assistant"`)) {
			return true
		}
		var l claudeLine
		if json.Unmarshal(line, &l) == nil && l.isConversation() {
			found, ok = l, true
			return false
		}
		return true
	})
	return found, ok
}

// Exists implements Behaviour: a transcript with at least one user or
// assistant line.
func (claude) Exists(home, cwd, id string) bool {
	p, ok := claudeTranscript(home, cwd, id)
	if !ok {
		return false
	}
	_, ok = claudeConversation(p)
	return ok
}

// Title implements Titler: the first user prompt that is neither metadata
// nor a slash command's wrapper.
func (claude) Title(home, cwd, id string) string {
	p, ok := claudeTranscript(home, cwd, id)
	if !ok {
		return ""
	}
	title := ""
	EachLine(p, func(line []byte) bool {
		title = claudePrompt(line)
		return title == ""
	})
	return title
}

// claudePrompt returns the title a transcript line gives when it is a user
// prompt, and "" for any other line.
func claudePrompt(line []byte) string {
	if !bytes.Contains(line, []byte(`"type":"user"`)) {
		return ""
	}
	var l claudeLine
	if json.Unmarshal(line, &l) != nil || l.Type != "user" || l.IsMeta {
		return ""
	}
	if t := PromptText(l.Message.Content); isPrompt(t) {
		return CleanTitle(t)
	}
	return ""
}

// Correlate implements Correlator: the single transcript in cwd's project folder
// whose conversation began in this run (its first conversation line is not
// older than the spawn) and that names cwd.
func (claude) Correlate(home, cwd string, spawn time.Time) string {
	dir := filepath.Join(home, "projects", ClaudeSlug(cwd))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || !claudeSpec.ID.Valid(id) {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(spawn.Add(-SpawnSlack)) {
			continue
		}
		l, ok := claudeConversation(filepath.Join(dir, e.Name()))
		if !ok || l.Cwd != cwd {
			continue
		}
		if ts, err := time.Parse(time.RFC3339Nano, l.Timestamp); err != nil || ts.Before(spawn.Add(-SpawnSlack)) {
			continue
		}
		if found != "" {
			return "" // more than one: no guess
		}
		found = id
	}
	return found
}

// Excerpt implements Excerpter: the prompts the user typed and the text of
// Claude's answers.
func (claude) Excerpt(home, cwd, id string, n, m int) Excerpt {
	x := NewExcerptBuilder(n, m)
	p, ok := claudeTranscript(home, cwd, id)
	if !ok {
		return x.Excerpt()
	}
	EachLine(p, func(line []byte) bool {
		if !bytes.Contains(line, []byte(`"type":"user"`)) && !bytes.Contains(line, []byte(`"type":"assistant"`)) {
			return true
		}
		var l claudeLine
		if json.Unmarshal(line, &l) != nil || !l.isConversation() {
			return true
		}
		x.Add(l.Type, PromptText(l.Message.Content))
		return true
	})
	return x.Excerpt()
}
