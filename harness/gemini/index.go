package gemini

import (
	"bytes"
	"encoding/json"
	"github.com/fleetcom/fleetcom/harness"
	"path/filepath"
	"strings"
	"time"
)

// The index reads a Gemini session file from where it stopped. The file is
// a log that is replayed to be read (geminichat.go): a message line comes
// again under the same id each time Gemini adds to the message (its tokens,
// its tool calls and their results), a $rewindTo line drops messages, and a
// $set with "messages" replaces them all. Counting lines would count a
// reply three times and never take a dropped prompt back, so the reader
// keeps the file's message list in its cursor: per message a hash of its id
// and what it is (a prompt typed, a reply, anything else), four bytes each.
// A read reports how the list's totals changed, which a rewind makes
// negative. Past about a thousand messages the oldest are folded into two
// counts; a rewind to one of them then empties the list and keeps the
// counts (a conversation that long stays resumable).
//
// A session has Messages only while it holds a prompt or a reply, as
// Exists decides. A file that never held one (a session quit before its
// first prompt, the two-line file a resume in a later minute leaves)
// gives nothing: the stub names the conversation's ID, and would keep it
// in the index after Gemini's cleanup deleted the file that holds it.
// Title is the first prompt, Summary the summary Gemini writes into the
// file when a later session starts in the directory; the directory is the
// one the slug's .project_root (else projects.json) names.
//
// A reply's tool calls carry their whole output; a reply line that has
// them is decoded only up to them (Gemini writes its id, type and text
// first), and the user message that hands the output back to the model is
// not decoded at all, so big outputs cost the reading, not the decoding.

// Trees implements harness.Indexer: the chats folder of each project folder.
func (gemini) Trees(home string) []harness.Tree {
	return []harness.Tree{{Root: filepath.Join(home, "tmp"), Levels: []string{"*", "chats", "session-*.jsonl"}, Owns: true}}
}

// Near implements harness.Indexer: the chats folder projects.json gives cwd, when
// the folder's markers agree. A directory Gemini never started in has no
// entry, and no file Gemini writes to: its folder (one a move claimed by
// its marker) is found by the walk of the tree.
func (gemini) Near(home, cwd string) []string {
	slug := projects(home)[cwd]
	if slug == "" || !owns(home, slug, cwd) {
		return nil
	}
	return []string{filepath.Join(home, "tmp", slug, "chats")}
}

// geminiIndexMsg is what the reader decodes of a message line (or of a
// message in a $set list).
type geminiIndexMsg struct {
	ID        *string         `json:"id"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ToolCalls json.RawMessage `json:"toolCalls"`
	Thoughts  json.RawMessage `json:"thoughts"`
	tools     bool            // tool calls cut off before decoding
}

// geminiIndexLine is what the reader decodes of any other line.
type geminiIndexLine struct {
	sessionHead
	Summary  *string           `json:"summary"`
	Rewind   *string           `json:"$rewindTo"`
	Set      *setLine          `json:"$set"`
	Messages []json.RawMessage `json:"messages"`
}

// geminiRead is one read of a session file.
type geminiRead struct {
	s     geminiState
	short string
	l     harness.Limits
	out   harness.Learned
}

// Read implements harness.Indexer.
func (gemini) Read(path string, c harness.Cursor, l harness.Limits) (harness.Delta, harness.Cursor, error) {
	short, ok := fileID(filepath.Base(path))
	if !ok {
		return nil, c, nil
	}
	r := geminiRead{short: short, l: l}
	if c.Offset > 0 {
		s, ok := decodeGeminiState(c.State)
		if !ok {
			// Not a state of this reader's: the messages before the
			// cursor are lost to it, the session is not.
			if h, ok := readHead(path); ok && h.SessionID[:8] == short {
				s = geminiState{flags: gsSession, id: h.SessionID}
			} else {
				s = geminiState{flags: gsOther}
			}
		}
		r.s = s
	}
	turns0, msgs0 := r.s.totals()
	had := r.s.flags&gsHad != 0
	off, err := harness.ReadOnHeads(path, c.Offset, l.Line, geminiHead, r.line)
	next := harness.Cursor{Offset: off, State: r.s.encode()}
	if r.s.flags&gsSession == 0 {
		return nil, next, err
	}
	turns, msgs := r.s.totals()
	if r.s.flags&gsHad == 0 {
		// No conversation yet: a session before its first prompt, or
		// the stub of a resume, which must not keep the conversation in
		// the index once Gemini deleted the file that held it.
		return nil, next, err
	}
	out := r.out
	out.ID = r.s.id
	out.Turns, out.Messages = turns-turns0, msgs-msgs0
	out.Side = r.s.flags&gsSide != 0
	if msgs > 0 {
		out.Started, out.Active = geminiMillis(r.s.start), geminiMillis(r.s.last)
	}
	if !had {
		out.Cwd = geminiCwdOf(path)
	}
	return harness.Delta{out}, next, err
}

// geminiCwdOf is the directory of the session file at path
// (<home>/tmp/<slug>/chats/<file>), as the slug's marker names it.
func geminiCwdOf(path string) string {
	slugDir := filepath.Dir(filepath.Dir(path))
	home := filepath.Dir(filepath.Dir(slugDir))
	return dirOf(home, filepath.Base(slugDir))
}

// geminiMillis is a time of the state; zero for none.
func geminiMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// geminiStampMillis parses one of Gemini's times to Unix ms; 0 for none.
func geminiStampMillis(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixMilli()
}

// line reads one line of the file.
func (r *geminiRead) line(line []byte) {
	if r.s.flags&gsOther != 0 {
		return
	}
	if r.s.flags&gsSession == 0 {
		r.head(line)
		return
	}
	if bytes.HasPrefix(line, []byte(`{"id":`)) {
		if handedBack(line) {
			// A tool's output, sent back as the user's: only its place
			// in the list counts.
			if id, ok := harness.StringField(line, "id"); ok {
				r.put(geminiIndexMsg{ID: &id, Type: "tool"}, nil, false)
			}
			return
		}
		var m geminiIndexMsg
		if geminiDecodeMsg(line, &m) && m.ID != nil {
			r.put(m, nil, true)
		}
		return
	}
	var x geminiIndexLine
	if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &x) != nil {
		return
	}
	switch {
	case x.Rewind != nil:
		r.rewind(*x.Rewind)
	case x.Set != nil:
		r.set(x.Set)
	case x.SessionID != "" && x.ProjectHash != "":
		r.meta(x)
	default:
		// A message line written in another order than Gemini's.
		var m geminiIndexMsg
		if json.Unmarshal(line, &m) == nil && m.ID != nil {
			r.put(m, nil, true)
		}
	}
}

// head reads the first line: a session of the file's own ID, else the
// file is not one.
func (r *geminiRead) head(line []byte) {
	var x geminiIndexLine
	if json.Unmarshal(line, &x) != nil || !spec.ID.Valid(x.SessionID) || x.ProjectHash == "" ||
		x.SessionID[:8] != r.short {
		r.s.flags = gsOther
		return
	}
	r.s.flags, r.s.id = gsSession, x.SessionID
	if x.Kind == "subagent" {
		r.s.flags |= gsSide
	}
	r.meta(x)
}

// meta reads a line of metadata: the first, or one like it later.
func (r *geminiRead) meta(x geminiIndexLine) {
	r.started(x.StartTime)
	r.updated(x.LastUpdated)
	r.updated(x.StartTime)
	if x.Summary != nil {
		r.summary(*x.Summary)
	}
	for _, raw := range x.Messages {
		var m geminiIndexMsg
		if json.Unmarshal(raw, &m) == nil && m.ID != nil {
			r.put(m, nil, true)
		}
	}
}

// set reads a $set line: metadata, and maybe every message anew.
func (r *geminiRead) set(s *setLine) {
	if bytes.HasPrefix(bytes.TrimSpace(s.Messages), []byte("[")) {
		var list []json.RawMessage
		if json.Unmarshal(s.Messages, &list) == nil {
			// Text given before stays given: the list replays the
			// messages, it does not say them again.
			texted := map[uint32]bool{}
			for _, e := range r.s.entries {
				if e&geTexted != 0 {
					texted[e&^geFlags] = true
				}
			}
			r.s.entries, r.s.turns, r.s.msgs = nil, 0, 0
			for _, raw := range list {
				var m geminiIndexMsg
				if json.Unmarshal(raw, &m) == nil && m.ID != nil {
					r.put(m, texted, false)
				}
			}
		}
	}
	if s.StartTime != nil {
		r.started(*s.StartTime)
	}
	if s.LastUpdated != nil {
		r.updated(*s.LastUpdated)
	}
	if s.Summary != nil {
		r.summary(*s.Summary)
	}
}

// started takes the session's start from its first metadata: a resume
// writes a later one into the file (the start of the run that resumed).
func (r *geminiRead) started(s string) {
	if r.s.start == 0 {
		r.s.start = geminiStampMillis(s)
	}
}

// updated moves the time of the session's last change forward.
func (r *geminiRead) updated(s string) {
	if t := geminiStampMillis(s); t > r.s.last {
		r.s.last = t
	}
}

// summary is Gemini's own title for the session, which names it rather
// than its first prompt, as Gemini's picker does.
func (r *geminiRead) summary(s string) {
	if strings.TrimSpace(s) != "" {
		r.out.Summary = harness.CleanTitle(s)
		r.out.Title, r.out.Retitle = r.out.Summary, true
	}
}

// rewind drops a message and every one after it. A message the list does
// not hold is one folded into the counts (Gemini writes a rewind only to
// a message it has): the list goes, the counts stay.
func (r *geminiRead) rewind(id string) {
	if i := r.s.find(geminiIDHash(id)); i >= 0 {
		r.s.entries = r.s.entries[:i]
		return
	}
	r.s.entries = r.s.entries[:0]
}

// put adds a message, or replaces the one of its id, as Gemini's replay
// does.
// Its text is given (when say) once: Gemini writes every new prompt and
// reply on a line of its own, and a $set list only says again what was
// (or replaces it with what the model is sent: tool output, a summary of
// compressed history), so a list's messages give none. texted names the
// messages of the list a $set replaced whose text was given.
func (r *geminiRead) put(m geminiIndexMsg, texted map[uint32]bool, say bool) {
	if *m.ID == "" {
		return
	}
	text := strings.TrimSpace(textOf(m.Content))
	var flags uint32
	switch m.Type {
	case "user":
		if !ignored(text) {
			flags = gePrompt
		}
	case "gemini":
		if text != "" || m.tools || geminiNonEmpty(m.ToolCalls) || geminiNonEmpty(m.Thoughts) {
			flags = geReply
		}
	}
	h := geminiIDHash(*m.ID)
	i := r.s.find(h)
	if i >= 0 {
		flags |= r.s.entries[i] & geTexted
	}
	if texted[h] {
		flags |= geTexted
	}
	if say && flags&geTexted == 0 && flags&(gePrompt|geReply) != 0 && text != "" && r.l.Text {
		r.out.Texts = append(r.out.Texts, harness.ClipText(text, r.l.Message))
		flags |= geTexted
	}
	if flags&(gePrompt|geReply) != 0 {
		r.s.flags |= gsHad
	}
	if flags&gePrompt != 0 && r.s.flags&gsTitled == 0 {
		if !r.out.Retitle {
			r.out.Title = harness.CleanTitle(text)
		}
		r.s.flags |= gsTitled
	}
	if i >= 0 {
		r.s.entries[i] = h | flags
		return
	}
	r.s.entries = append(r.s.entries, h|flags)
	if len(r.s.entries) > geminiMaxEntries {
		for _, e := range r.s.entries[:geminiFold] {
			if e&gePrompt != 0 {
				r.s.turns++
			}
			if e&(gePrompt|geReply) != 0 {
				r.s.msgs++
			}
		}
		r.s.entries = append(r.s.entries[:0], r.s.entries[geminiFold:]...)
	}
}

// geminiNonEmpty reports a JSON list with something in it.
func geminiNonEmpty(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 2 && raw[0] == '['
}

// toolResult opens a user message that holds tool output and nothing
// the user typed.
var toolResult = []byte(`"type":"user","content":[{"functionResponse":`)

// toolCallsAt marks where a reply's tool calls begin, with one in the list.
var toolCallsAt = []byte(`,"toolCalls":[{`)

// geminiHead cuts a long line down to its head when that is all the reader
// needs of it: a message whose tool calls (and their output, megabytes of
// it) begin in the head, which geminiDecodeMsg decodes only up to them; a
// tool's output handed back as the user's, of which only the id counts,
// unless a text part follows the output (then it is read whole, as the
// reader looks for text anywhere in it).
func geminiHead(prefix []byte) harness.Head {
	if !bytes.HasPrefix(prefix, []byte(`{"id":`)) {
		return harness.Head{}
	}
	if bytes.Contains(prefix, toolResult) {
		return harness.Head{Cut: !bytes.Contains(prefix, textPart), Unless: textPart}
	}
	i := bytes.Index(prefix, toolCallsAt)
	return harness.Head{Cut: i > 0 && json.Valid(append(prefix[:i:i], '}'))}
}

// textPart opens a text part of a message's content.
var textPart = []byte(`{"text":`)

// handedBack reports a message line that is a tool's output sent back as
// the user's with no text part: nothing typed in it. A head that geminiHead
// cut says as much as the whole line.
func handedBack(line []byte) bool {
	return bytes.HasPrefix(line, []byte(`{"id":`)) && bytes.Contains(line, toolResult) && !bytes.Contains(line, textPart)
}

// geminiDecodeMsg decodes a message line. A reply with tool calls is cut
// before them (they come after its id, type and text), and decoded
// whole only when the cut does not leave a JSON object.
func geminiDecodeMsg(line []byte, m *geminiIndexMsg) bool {
	if i := bytes.Index(line, toolCallsAt); i > 0 {
		head := append(line[:i:i], '}')
		if json.Unmarshal(head, m) == nil {
			m.tools = true
			return true
		}
		*m = geminiIndexMsg{}
	}
	return json.Unmarshal(line, m) == nil
}
