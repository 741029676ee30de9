package claude

import (
	"bytes"
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
// (isSidechain) are not the user's conversation, and tool results are not
// text the user wrote or read: both are walked over, never decoded, so a
// transcript made mostly of them costs little more than its reading.

// Trees implements harness.Indexer: the project folders, one transcript per
// conversation.
func (claude) Trees(home string) []harness.Tree {
	return []harness.Tree{{Root: filepath.Join(home, "projects"), Levels: []string{"*", "*.jsonl"}, Owns: true}}
}

// Near implements harness.Indexer: the project folders of cwd.
func (claude) Near(home, cwd string) []string { return projectFolders(home, cwd) }

// indexLine is what the index reads of a transcript line, raw: the walk
// over the line finds these and passes over the rest undecoded.
type indexLine struct {
	typ, cwd, timestamp, message, summary, customTitle []byte
	meta, sidechain                                    bool
}

// scan fills x from line; it reports false for a line that is not a JSON
// object.
func (x *indexLine) scan(line []byte) bool {
	*x = indexLine{}
	return harness.Members(line, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			x.typ = v
		case "cwd":
			x.cwd = v
		case "timestamp":
			x.timestamp = v
		case "message":
			x.message = v
		case "summary":
			x.summary = v
		case "customTitle":
			x.customTitle = v
		case "isMeta":
			x.meta = harness.IsTrue(v)
		case "isSidechain":
			x.sidechain = harness.IsTrue(v)
		}
		return true
	})
}

// content is the raw content of the line's message.
func (x *indexLine) content() []byte {
	var c []byte
	harness.Members(x.message, func(k, v []byte) bool {
		if string(k) == "content" {
			c = v
			return false
		}
		return true
	})
	return c
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
	var x indexLine
	off, err := harness.ReadOnHeads(path, c.Offset, l.Line, claudeHead, func(line []byte) {
		if !x.scan(line) {
			return
		}
		var text string
		switch string(x.typ) {
		case `"custom-title"`:
			name, _ := harness.StringValue(x.customTitle)
			out.Name, out.Named = harness.CleanName(name), true
			return
		case `"summary"`:
			summary, _ := harness.StringValue(x.summary)
			out.Summary = harness.CleanTitle(summary)
			return
		case `"user"`:
			if x.sidechain || x.meta {
				return
			}
			// Results of tools come back as the user's lines.
			s, blocks := harness.DecodeContent(x.content())
			for _, b := range blocks {
				if b.Type == "tool_result" {
					return
				}
			}
			if text = harness.FirstText(s, blocks); !isPrompt(text) {
				return
			}
			out.Turns++
			if !titled {
				out.Title, titled = harness.CleanTitle(text), true
			}
		case `"assistant"`:
			if x.sidechain {
				return
			}
			text = replyText(x.content())
		default:
			return
		}
		out.Messages++
		// The conversation belongs to the directory of its first line: the
		// folder Claude filed it under. Later lines name wherever a tool
		// moved the shell to. A transcript whose first cwd is not its
		// folder's was moved by hand, and Claude would not find it there.
		cwd, _ := harness.StringValue(x.cwd)
		if state&claudeHomed == 0 && cwd != "" {
			state |= claudeHomed
			out.Cwd = cwd
			if !folderOf(folder, cwd) {
				state |= claudeForeign
			}
		}
		ts, _ := harness.StringValue(x.timestamp)
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
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

// claudeHead cuts a long line down to its head when the reader passes it over: a
// tool's result handed back as the user's line, whose message Claude writes
// with the result's block first. The reader counts no such line, whatever
// else it holds, and needs nothing of it; its head alone does not decode,
// and is passed over the same.
func claudeHead(prefix []byte) harness.Head {
	head := prefix[:min(len(prefix), 4096)]
	const msg = `"message":{"role":"user","content":[{`
	i := bytes.Index(head, []byte(msg))
	if i < 0 {
		return harness.Head{}
	}
	block := head[i+len(msg):]
	j := bytes.Index(block, []byte(`"content"`))
	return harness.Head{Cut: j > 0 && bytes.Contains(block[:j], []byte(`"type":"tool_result"`))}
}

// replyText is the text of a reply's text blocks, joined; tool calls and
// thinking are left out.
func replyText(raw []byte) string {
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
