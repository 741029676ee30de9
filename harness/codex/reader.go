package codex

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"github.com/fleetcom/fleetcom/harness"
	"hash/fnv"
	"path/filepath"
	"strings"
	"time"
)

// The index reads a Codex rollout line by line, from where it stopped. Its
// first line, session_meta, says whose thread it is (the directory, and
// whether a sub-agent started it); the conversation is in the events that
// follow: each prompt the user typed and each reply, as an item_completed
// event of a UserMessage or AgentMessage item (0.171.0, measured), as a
// user_message or agent_message event in older builds. The model's own
// items (response_item lines: the injected context, tool calls and their
// output) say the same things again, or nothing the user said, and are
// skipped before any decoding. A rollout with no prompt and no reply (Codex
// with fleetcom's hooks writes one for a session quit before its first
// prompt) has no messages: it is never offered to resume.
//
// Thread names are not in the rollouts: Codex appends them to
// session_index.jsonl, the last line of an ID winning, and the index reads
// only what was appended since it last looked.

// A method that drifts from harness.Indexer fails the build here.
var _ harness.Indexer = codex{}

// codexNamesFile is where Codex keeps thread names, in its home.
const codexNamesFile = "session_index.jsonl"

// Trees implements harness.Indexer: the day folders of rollouts, and the names
// file, which adds to threads the rollouts own. The rollouts come first: a
// file of the home is in the first tree whose root holds it.
func (codex) Trees(home string) []harness.Tree {
	return []harness.Tree{
		{Root: filepath.Join(home, "sessions"), Levels: []string{"[0-9][0-9][0-9][0-9]", "[0-9][0-9]", "[0-9][0-9]", "rollout-*.jsonl"}, Owns: true},
		{Root: home, Levels: []string{codexNamesFile}},
	}
}

// Near implements harness.Indexer. Codex files a thread by the local day it began,
// not by its directory, so no folder holds a directory's threads; but a new
// thread of any directory is in the folder of today (of yesterday or
// tomorrow, for a clock in another zone). Those folders are looked at with
// every command about a directory, which finds a thread begun in a new day
// folder of a month or year the index has not looked at for days.
func (codex) Near(home, _ string) []string {
	now := time.Now()
	return []string{dayDir(home, now.AddDate(0, 0, -1)), dayDir(home, now), dayDir(home, now.AddDate(0, 0, 1))}
}

// Read implements harness.Indexer: a rollout, or the names file.
func (codex) Read(path string, c harness.Cursor, l harness.Limits) (harness.Delta, harness.Cursor, error) {
	if filepath.Base(path) == codexNamesFile {
		return codexReadNames(path, c, l)
	}
	return codexReadRollout(path, c, l)
}

// codexReadNames reads the names appended to session_index.jsonl since c:
// the last name of each ID, "" (with Named) for a name taken away.
func codexReadNames(path string, c harness.Cursor, l harness.Limits) (harness.Delta, harness.Cursor, error) {
	var out harness.Delta
	at := map[string]int{}
	off, err := harness.ReadOn(path, c.Offset, l.Line, func(line []byte) {
		var x struct {
			ID   string `json:"id"`
			Name string `json:"thread_name"`
		}
		if json.Unmarshal(line, &x) != nil || !spec.ID.Valid(x.ID) {
			return
		}
		name := harness.CleanName(x.Name)
		if i, ok := at[x.ID]; ok {
			out[i].Name = name
			return
		}
		at[x.ID] = len(out)
		out = append(out, harness.Learned{ID: x.ID, Name: name, Named: true})
	})
	return out, harness.Cursor{Offset: off}, err
}

// codexReadState is what a rollout's reader keeps between reads: flags, and
// the last message counted (its role and source, a hash of its text), so
// that one message said by both kinds of event counts once.
type codexReadState struct {
	flags byte
	last  byte
	hash  uint64
}

const (
	// codexThread: the first line was a session_meta of the file's ID.
	codexThread = 1 << iota
	// codexOther: the first line was not; nothing in the file counts.
	codexOther
	// codexTitled: the first prompt was seen (and is the title).
	codexTitled
)

func parseCodexReadState(b []byte) codexReadState {
	var s codexReadState
	if len(b) == 10 {
		s.flags, s.last, s.hash = b[0], b[1], binary.BigEndian.Uint64(b[2:])
	}
	return s
}

func (s codexReadState) bytes() []byte {
	b := []byte{s.flags, s.last, 0, 0, 0, 0, 0, 0, 0, 0}
	binary.BigEndian.PutUint64(b[2:], s.hash)
	return b
}

// codexEventLine is the part of an event line the reader decodes.
type codexEventLine struct {
	Type    string `json:"type"`
	Payload struct {
		Type    string          `json:"type"`
		Message json.RawMessage `json:"message"`
		Kind    json.RawMessage `json:"kind"`
		Item    struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		} `json:"item"`
	} `json:"payload"`
}

// The markers of the lines that can hold a message: the reader decodes no
// other line.
var codexMessageMarks = [][]byte{
	[]byte(`"type":"UserMessage"`), []byte(`"type":"AgentMessage"`),
	[]byte(`"type":"user_message"`), []byte(`"type":"agent_message"`),
}

// A message counted: a prompt or a reply, said by an item or by an event
// of the older kind.
const (
	codexPrompt    = 1
	codexReply     = 2
	codexFromItem  = 0x80
	codexFromEvent = 0x40
)

// codexReadRollout reads a rollout on from c.
func codexReadRollout(path string, c harness.Cursor, l harness.Limits) (harness.Delta, harness.Cursor, error) {
	id, ok := rolloutID(filepath.Base(path))
	if !ok {
		return nil, c, nil
	}
	st := parseCodexReadState(c.State)
	out := harness.Learned{ID: id}
	if c.Offset > 0 && st.flags&(codexThread|codexOther) == 0 {
		// Read before, but its state is lost: the first line again.
		if meta, ok := readMeta(path, id); ok {
			st.flags |= codexThread
			out.Side = meta.subagent()
		} else {
			st.flags |= codexOther
		}
	}
	off, err := harness.ReadOnHeads(path, c.Offset, l.Line, codexHead, func(line []byte) {
		if st.flags&codexOther != 0 {
			return
		}
		head := line[:min(len(line), 512)]
		ts, _ := harness.StringField(head, "timestamp")
		if st.flags&codexThread == 0 {
			meta, ok := readMetaFast(line, id)
			if !ok {
				st.flags |= codexOther
				return
			}
			st.flags |= codexThread
			out.Side = meta.subagent()
			if filepath.IsAbs(meta.Payload.Cwd) {
				out.Cwd = meta.Payload.Cwd
			}
			if t, err := time.Parse(time.RFC3339Nano, meta.Payload.Timestamp); err == nil {
				out.Started = t
			}
		}
		// Every line is dated: the last one is when the thread was last
		// active, as codex's Active says.
		if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
			if out.Started.IsZero() && c.Offset == 0 {
				out.Started = t
			}
			out.Active = t
		}
		if bytes.Contains(head, []byte(`"type":"response_item"`)) {
			return
		}
		marked := false
		for _, m := range codexMessageMarks {
			if bytes.Contains(line, m) {
				marked = true
				break
			}
		}
		if !marked {
			return
		}
		role, src, text, ok := codexMessage(line)
		if !ok {
			return
		}
		h := fnv.New64a()
		h.Write([]byte(text))
		sum := h.Sum64()
		if st.last&^(codexFromItem|codexFromEvent) == role && st.last&src == 0 && st.hash == sum {
			// The same message again, from the other kind of event.
			return
		}
		st.last, st.hash = role|src, sum
		out.Messages++
		if role == codexPrompt {
			out.Turns++
			if st.flags&codexTitled == 0 && text != "" {
				out.Title = harness.CleanTitle(text)
				st.flags |= codexTitled
			}
		}
		if l.Text && text != "" {
			out.Texts = append(out.Texts, harness.ClipText(text, l.Message))
		}
	})
	next := harness.Cursor{Offset: off, State: st.bytes()}
	if st.flags&codexThread == 0 {
		// Not a thread (or its first line is not whole yet): nothing to
		// learn.
		return nil, next, err
	}
	return harness.Delta{out}, next, err
}

// codexHead cuts a long line down to its head when it holds no message, which
// the readers need only for its time: an item of the model's (a tool's
// output, megabytes of it, is one), or an event of another kind than a
// message, such as a command's run with all it printed. Codex writes each
// payload's type first, and an item's; a head where they are not found is
// not accepted, and its line is read whole.
func codexHead(prefix []byte) harness.Head {
	return harness.Head{Cut: codexNoMessage(prefix[:min(len(prefix), 1024)])}
}

// codexNoMessage reports a line's head that says the line holds no
// message.
func codexNoMessage(head []byte) bool {
	if bytes.Contains(head[:min(len(head), 512)], []byte(`"type":"response_item"`)) {
		return true
	}
	kind, ok := typeAfter(head, `"type":"event_msg","payload":{"type":"`)
	switch {
	case !ok || kind == "user_message" || kind == "agent_message":
		return false
	case kind != "item_completed":
		return true
	}
	item, ok := typeAfter(head, `"item":{"type":"`)
	return ok && item != "UserMessage" && item != "AgentMessage"
}

// typeAfter returns the word that follows mark in head, up to its quote.
func typeAfter(head []byte, mark string) (string, bool) {
	i := bytes.Index(head, []byte(mark))
	if i < 0 {
		return "", false
	}
	rest := head[i+len(mark):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 {
		return "", false
	}
	return string(rest[:j]), true
}

// codexMessage decodes an event line that may hold a message: its role
// (codexPrompt, codexReply), where it was said and its text.
func codexMessage(line []byte) (role, src byte, text string, ok bool) {
	var x codexEventLine
	if json.Unmarshal(line, &x) != nil || x.Type != "event_msg" {
		return 0, 0, "", false
	}
	p := x.Payload
	switch p.Type {
	case "item_completed":
		switch p.Item.Type {
		case "UserMessage":
			role = codexPrompt
		case "AgentMessage":
			role = codexReply
		default:
			return 0, 0, "", false
		}
		return role, codexFromItem, codexItemText(p.Item.Content), true
	case "user_message":
		// Older builds logged injected context as user messages too, of
		// another kind than "plain".
		var kind string
		if len(p.Kind) > 0 && (json.Unmarshal(p.Kind, &kind) != nil || kind != "plain") {
			return 0, 0, "", false
		}
		role = codexPrompt
	case "agent_message":
		role = codexReply
	default:
		return 0, 0, "", false
	}
	var s string
	json.Unmarshal(p.Message, &s)
	return role, codexFromEvent, strings.TrimSpace(s), true
}

// codexItemText is the text of an item's content: its text parts, joined
// ("text" in a UserMessage, "Text" in an AgentMessage).
func codexItemText(raw json.RawMessage) string {
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var texts []string
	for _, p := range parts {
		if strings.EqualFold(p.Type, "text") && strings.TrimSpace(p.Text) != "" {
			texts = append(texts, strings.TrimSpace(p.Text))
		}
	}
	return strings.Join(texts, "\n")
}
