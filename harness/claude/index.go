package claude

import (
	"bytes"
	"encoding/json"
	"github.com/fleetcom/fleetcom/harness"
	"path/filepath"
	"strings"
	"time"
)

// The index reads a Claude transcript line by line, from where it stopped:
// prompts the user typed (not the wrappers of slash commands, not the
// results of tools, which arrive as "user" lines too), the text of
// Claude's replies, the directory, the times, the name (/rename writes a
// custom-title line) and Claude's own summary lines. Lines of sub-agents
// (isSidechain) are not the user's conversation and are skipped before
// anything is decoded, as are tool results: a transcript that opens with
// megabytes of them costs the reading, not the decoding.

// Trees implements harness.Indexer: the project folders, one transcript per
// conversation.
func (claude) Trees(home string) []harness.Tree {
	return []harness.Tree{{Root: filepath.Join(home, "projects"), Levels: []string{"*", "*.jsonl"}, Owns: true}}
}

// Near implements harness.Indexer: the project folders of cwd.
func (claude) Near(home, cwd string) []string { return projectFolders(home, cwd) }

// claudeIndexLine is the part of a transcript line the index reads.
type claudeIndexLine struct {
	Type        string `json:"type"`
	Cwd         string `json:"cwd"`
	Timestamp   string `json:"timestamp"`
	IsMeta      bool   `json:"isMeta"`
	IsSidechain bool   `json:"isSidechain"`
	Summary     string `json:"summary"`
	CustomTitle string `json:"customTitle"`
	Message     struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// The reader's state, bits of Cursor.State[0].
const (
	claudeTitled  = 1 << iota // the first prompt was seen (and is the title)
	claudeHomed               // the first conversation line's cwd was seen
	claudeForeign             // that cwd is not the project folder's: skipped
)

// Read implements harness.Indexer.
func (claude) Read(path string, c harness.Cursor, l harness.Limits) (harness.Delta, harness.Cursor, error) {
	id, _ := strings.CutSuffix(filepath.Base(path), ".jsonl")
	if !spec.ID.Valid(id) {
		return nil, c, nil
	}
	out := harness.Learned{ID: id}
	var state byte
	if len(c.State) > 0 {
		state = c.State[0]
	}
	if state&claudeForeign != 0 {
		return nil, c, nil
	}
	titled := state&claudeTitled != 0
	folder := filepath.Base(filepath.Dir(path))
	off, err := harness.ReadOn(path, c.Offset, l.Line, func(line []byte) {
		switch {
		case bytes.Contains(line, []byte(`"type":"custom-title"`)):
			var x claudeIndexLine
			if json.Unmarshal(line, &x) == nil && x.Type == "custom-title" {
				out.Name, out.Named = harness.CleanName(x.CustomTitle), true
			}
			return
		case bytes.Contains(line, []byte(`"type":"summary"`)):
			var x claudeIndexLine
			if json.Unmarshal(line, &x) == nil && x.Type == "summary" {
				out.Summary = harness.CleanTitle(x.Summary)
			}
			return
		case !bytes.Contains(line, []byte(`"type":"user"`)) && !bytes.Contains(line, []byte(`"type":"assistant"`)):
			return
		case bytes.Contains(line, []byte(`"isSidechain":true`)):
			return
		}
		user := bytes.Contains(line, []byte(`"type":"user"`))
		if user && bytes.Contains(line, []byte(`"type":"tool_result"`)) {
			return
		}
		var x claudeIndexLine
		if json.Unmarshal(line, &x) != nil || x.IsSidechain {
			return
		}
		var text string
		switch x.Type {
		case "user":
			if x.IsMeta {
				return
			}
			if text = harness.PromptText(x.Message.Content); !isPrompt(text) {
				return
			}
			out.Turns++
			if !titled {
				out.Title, titled = harness.CleanTitle(text), true
			}
		case "assistant":
			text = replyText(x.Message.Content)
		default:
			return
		}
		out.Messages++
		// The conversation belongs to the directory of its first line: the
		// folder Claude filed it under. Later lines name wherever a tool
		// moved the shell to. A transcript whose first cwd is not its
		// folder's was moved by hand, and Claude would not find it there.
		if state&claudeHomed == 0 && x.Cwd != "" {
			state |= claudeHomed
			out.Cwd = x.Cwd
			if !folderOf(folder, x.Cwd) {
				state |= claudeForeign
			}
		}
		if t, err := time.Parse(time.RFC3339Nano, x.Timestamp); err == nil {
			if out.Started.IsZero() {
				out.Started = t
			}
			out.Active = t
		}
		if l.Text && text != "" {
			out.Texts = append(out.Texts, harness.ClipText(text, l.Message))
		}
	})
	if titled {
		state |= claudeTitled
	}
	next := harness.Cursor{Offset: off}
	if state != 0 {
		next.State = []byte{state}
	}
	if state&claudeForeign != 0 {
		return nil, next, err
	}
	return harness.Delta{out}, next, err
}

// replyText is the text of a reply's text blocks, joined; tool calls and
// thinking are left out.
func replyText(raw json.RawMessage) string {
	s, blocks := harness.DecodeContent(raw)
	var parts []string
	for _, b := range blocks {
		if (b.Type == "text" || b.Type == "output_text") && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, strings.TrimSpace(b.Text))
		}
	}
	if blocks == nil {
		return strings.TrimSpace(s)
	}
	return strings.Join(parts, "\n")
}
