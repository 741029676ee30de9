// Package claude is fleetcom's knowledge of Anthropic's Claude Code: its
// Spec and Behaviour, the inline settings whose hooks report a run's
// session and state (hooks.go, state.go), its transcripts and project
// folders (find.go), the names users give conversations (name.go) and
// moves (move.go). It exports one value, Agent, which the list
// (harness/agents) names.
package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/fleetcom/fleetcom/harness"
)

// spec describes Claude Code. A bare command gets a pinned ID (--session-id)
// and inline settings whose hooks copy each SessionStart payload into the
// capture file and note each change of state there (hooks.go); the resume form
// gets only the settings.
var spec = harness.Spec{
	Name:    "claude",
	Display: "Claude Code",
	HomeVar: "CLAUDE_CONFIG_DIR",
	HomeDir: ".claude",
	ID:      &harness.UUID,
	Resume:  harness.Spelling{Words: []string{"--resume"}},
	Dropped: []string{"--resume", "-r", "--continue", "-c", "--session-id", "--fork-session", "-p", "--print", "--name", "-n"},
	// Settings hold hooks and a status line command, an MCP config its
	// servers' commands, a plugin directory its hooks.
	Commands: []string{"--settings", "--mcp-config", "--plugin-dir"},
	Proven:   []string{"2.1.197", "2.1.332", "2.1.337"},
	Banners:  []string{"Resume this session with:"},
	Widening: []harness.Widener{
		{Option: "--dangerously-skip-permissions"},
		{Option: "--allow-dangerously-skip-permissions"},
		{Option: "--permission-mode", Values: []string{"bypassPermissions", "acceptEdits", "auto"}},
		{Option: "--allowedTools"}, {Option: "--allowed-tools"},
	},
	Naming: "Claude Code's /rename or --name",
}

// Agent is Anthropic's Claude Code.
var Agent = harness.Agent{Spec: &spec, Behaviour: claude{}}

type claude struct{}

// The capabilities claude has: a method that drifts from its interface
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
	harness.HintNamer
	harness.Indexer
	harness.Brancher
} = claude{}

// Instrument implements Behaviour. The settings go inline, as JSON, not as
// a file: Claude Code 2.1.332 repeats launch options in the resume line it
// prints at exit, and a settings file in the run's namespace, removed when
// the run ends, would make that printed line fail ("Settings file not
// found"). JSON is never a plain word, so Claude repeats none of it (nor,
// by its rule, any other option: the printed line is the plain
// `claude --resume <id>`), and nothing outlives the run.
func (claude) Instrument(f harness.Form, run harness.Run) (harness.Instrumentation, error) {
	settings := inlineSettings()
	if run.Hooks == harness.HooksOff {
		settings = captureSettings
	}
	if f.Resume != "" {
		return harness.Instrumentation{
			Args:   []string{"--settings", settings},
			Env:    run.CaptureEnv(),
			Pinned: f.Resume,
			States: run.Hooks != harness.HooksOff,
		}, spec.ValidateID(f.Resume)
	}
	id, err := run.PinID(spec.ID)
	if err != nil {
		return harness.Instrumentation{}, err
	}
	if harness.HasOption(f.Options, "--settings") {
		// The user brings their own settings: ours would compete with them,
		// so the run is pinned but not hooked.
		return harness.Instrumentation{Args: []string{"--session-id", id}, Pinned: id}, nil
	}
	return harness.Instrumentation{
		Args:   []string{"--session-id", id, "--settings", settings},
		Env:    run.CaptureEnv(),
		Pinned: id,
		States: run.Hooks != harness.HooksOff,
	}, nil
}

// payload is the part of a SessionStart hook payload fleetcom reads.
type payload struct {
	Event     string          `json:"hook_event_name"`
	SessionID string          `json:"session_id"`
	AgentID   json.RawMessage `json:"agent_id"`
}

// ParseCapture implements Capturer: the latest SessionStart payload of the
// main conversation wins (a payload carrying agent_id is a subagent's).
func (claude) ParseCapture(data []byte, _ harness.Capture) string {
	id := ""
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		var p payload
		if len(line) == 0 || json.Unmarshal(line, &p) != nil {
			continue
		}
		if p.Event == "SessionStart" && p.AgentID == nil && spec.ID.Valid(p.SessionID) {
			id = p.SessionID
		}
	}
	return id
}

var hint = harness.Hint{Spec: &spec, Words: [][]string{{"--resume"}}, Banner: "Resume this session with:"}

// ScrapeExit implements Behaviour: the last `claude --resume <id>`, which
// Claude prints under "Resume this session with:" at exit; from 2.1.332 it
// may repeat launch options before --resume, read there only.
func (claude) ScrapeExit(tail []byte) string {
	return harness.ScrapeTail(tail, hint.Last)
}

// ProjectSlug is the project folder name Claude derives from cwd, for tools
// that write its store (bench/genstore).
func ProjectSlug(cwd string) string { return projectSlug(cwd) }

// projectSlug is the project folder name Claude derives from a working
// directory: each UTF-16 unit outside [A-Za-z0-9] becomes '-', and a slug
// over 200 characters is cut to 200 and suffixed with '-' and a base-36 hash
// of the path.
func projectSlug(cwd string) string {
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

// findTranscript finds the transcript of id: in cwd's project folders
// only, where a record of cwd says it is, or, with no cwd, the single
// projects/*/<id>.jsonl (long slugs are not always recomputable).
func findTranscript(home, cwd, id string) (string, bool) {
	if !spec.ID.Valid(id) {
		return "", false
	}
	if cwd != "" {
		for _, folder := range projectFolders(home, cwd) {
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

// transcriptLine is the part of a transcript line fleetcom reads.
type transcriptLine struct {
	Type        string `json:"type"`
	SessionID   string `json:"sessionId"`
	Cwd         string `json:"cwd"`
	Timestamp   string `json:"timestamp"`
	IsMeta      bool   `json:"isMeta"`
	IsSidechain bool   `json:"isSidechain"`
	Message     struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// isConversation reports a line that makes a transcript a conversation: an
// assistant message, or a prompt the user typed. Metadata and the lines a
// slash command leaves (a /clear writes its own, measured with 2.1.197) are
// not: a session cleared and quit at once has nothing to resume.
func (l transcriptLine) isConversation() bool {
	switch l.Type {
	case "assistant":
		return true
	case "user":
		return !l.IsMeta && isPrompt(harness.PromptText(l.Message.Content))
	}
	return false
}

// isPrompt reports text a user typed, as opposed to the wrappers Claude
// writes around slash commands and their output.
func isPrompt(text string) bool {
	return text != "" && !strings.HasPrefix(text, "<command-") && !strings.HasPrefix(text, "<local-command-")
}

// readConversation scans a transcript for its first conversation line; a
// metadata-only transcript (quit before the first prompt) has none.
func readConversation(path string) (transcriptLine, bool) {
	var found transcriptLine
	ok := false
	harness.EachLine(path, func(line []byte) bool {
		if !bytes.Contains(line, []byte(`"type":"user"`)) && !bytes.Contains(line, []byte(`"type":"assistant"`)) {
			return true
		}
		var l transcriptLine
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
	p, ok := findTranscript(home, cwd, id)
	if !ok {
		return false
	}
	_, ok = readConversation(p)
	return ok
}

// Title implements Titler: the first user prompt that is neither metadata
// nor a slash command's wrapper.
func (claude) Title(home, cwd, id string) string {
	p, ok := findTranscript(home, cwd, id)
	if !ok {
		return ""
	}
	return readHead(p).title
}

// userPrompt returns the title a transcript line gives when it is a user
// prompt, and "" for any other line.
func userPrompt(line []byte) string {
	if !bytes.Contains(line, []byte(`"type":"user"`)) {
		return ""
	}
	var l transcriptLine
	if json.Unmarshal(line, &l) != nil || l.Type != "user" || l.IsMeta {
		return ""
	}
	if t := harness.PromptText(l.Message.Content); isPrompt(t) {
		return harness.CleanTitle(t)
	}
	return ""
}

// Correlate implements Correlator: the single transcript in cwd's project folder
// whose conversation began in this run (its first conversation line is not
// older than the spawn) and that names cwd.
func (claude) Correlate(home, cwd string, spawn time.Time) string {
	dir := filepath.Join(home, "projects", projectSlug(cwd))
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || !spec.ID.Valid(id) {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(spawn.Add(-harness.SpawnSlack)) {
			continue
		}
		l, ok := readConversation(filepath.Join(dir, e.Name()))
		if !ok || l.Cwd != cwd {
			continue
		}
		if ts, err := time.Parse(time.RFC3339Nano, l.Timestamp); err != nil || ts.Before(spawn.Add(-harness.SpawnSlack)) {
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
// Claude's answers, without a sub-agent's.
func (claude) Excerpt(home, cwd, id string, n, m int) harness.Excerpt {
	x := harness.NewExcerptBuilder(n, m)
	p, ok := findTranscript(home, cwd, id)
	if !ok {
		return x.Excerpt()
	}
	harness.ReadOnHeads(p, 0, harness.MaxLine, excerptHead, func(line []byte) {
		if !bytes.Contains(line, []byte(`"type":"user"`)) && !bytes.Contains(line, []byte(`"type":"assistant"`)) {
			return
		}
		var l transcriptLine
		// A sub-agent's lines are not the user's conversation (the index
		// leaves them out too): its task is not something the user typed.
		if json.Unmarshal(line, &l) != nil || l.IsSidechain || !l.isConversation() {
			return
		}
		x.Add(l.Type, harness.PromptText(l.Message.Content))
	})
	return x.Excerpt()
}

// excerptHead is claudeHead for Excerpt, which shows the text a user typed
// beside a tool's result: a long line of a result is cut only when its head
// holds no text block after another block, and is read again whole when
// one shows in the rest. A cut line, its head alone, does not decode and is
// passed over, as the whole line would be: it has no text to show.
func excerptHead(prefix []byte) harness.Head {
	if !claudeHead(prefix).Cut || bytes.Contains(prefix, laterText) {
		return harness.Head{}
	}
	return harness.Head{Cut: true, Unless: laterText}
}

// laterText is how a text block begins after another block of the same
// list: the text a user typed beside a tool's result, which Claude writes
// after the result. A text block first in a list (a tool's output nested
// in its result) does not match, nor the {"type":"text",…} of the line's
// toolUseResult field, which Claude writes for a file read.
var laterText = []byte(`,{"type":"text"`)
