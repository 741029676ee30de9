package gemini

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// A Gemini session file is a log, replayed to read it (measured on 0.61.0,
// and read from its loadConversationRecord): a first line of metadata,
// {"sessionId","projectHash","startTime","lastUpdated","kind"}; message
// lines {"id","timestamp","type":"user"|"gemini"|"info"|…,"content"…}, a
// later line with a known id replacing that message; {"$set":{…}} lines
// merging metadata (lastUpdated after each message, the summary Gemini
// writes as the session's title, "messages" replacing the whole list); and
// {"$rewindTo":"<id>"} dropping that message and all after it. The file
// exists from start-up with the session context Gemini puts first (a user
// message opening with <session_context>), which is not a conversation:
// that is all a session quit before its first prompt, or the stub a resume
// leaves, holds.

// sessionHead is the first line of a session file.
type sessionHead struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	LastUpdated string `json:"lastUpdated"`
	Kind        string `json:"kind"`
}

// readHead reads a session file's first line; it must name a session
// of the agent's grammar.
func readHead(path string) (sessionHead, bool) {
	line, ok := harness.FirstLine(path)
	if !ok {
		return sessionHead{}, false
	}
	var h sessionHead
	if json.Unmarshal(line, &h) != nil || !spec.ID.Valid(h.SessionID) {
		return sessionHead{}, false
	}
	return h, true
}

// chatMessage is one message of a session, as replayed.
type chatMessage struct {
	ID, Type  string
	Text      string // its text parts, joined
	Resumable bool   // a prompt typed or an answer given
}

// sessionData is what fleetcom reads of a session file.
type sessionData struct {
	sessionHead
	Summary string
	// FirstPrompt is the first prompt the user typed, as Gemini reads it
	// for a title (a later rewind does not take it back).
	FirstPrompt string
	messages    []chatMessage
	resumable   bool
}

// active is when the session last had a message: its lastUpdated, else
// its start.
func (c sessionData) active() time.Time {
	for _, s := range []string{c.LastUpdated, c.StartTime} {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// title is the session's summary, else its first prompt.
func (c sessionData) title() string {
	if strings.TrimSpace(c.Summary) != "" {
		return harness.CleanTitle(c.Summary)
	}
	return harness.CleanTitle(c.FirstPrompt)
}

// record is the part of a line of a session file the replay reads.
type record struct {
	sessionHead
	Summary   *string         `json:"summary"`
	ID        *string         `json:"id"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []any           `json:"toolCalls"`
	Thoughts  []any           `json:"thoughts"`
	Rewind    *string         `json:"$rewindTo"`
	Set       *setLine        `json:"$set"`
	Messages  []record        `json:"messages"`
}

// setLine is a $set line's metadata; Messages, when it is a list,
// replaces every message.
type setLine struct {
	SessionID   *string         `json:"sessionId"`
	LastUpdated *string         `json:"lastUpdated"`
	StartTime   *string         `json:"startTime"`
	Summary     *string         `json:"summary"`
	Messages    json.RawMessage `json:"messages"`
}

// textOf joins the text parts of a message's content: a string, one
// part, or a list of parts.
func textOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	type part struct {
		Text string `json:"text"`
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		var one part
		if json.Unmarshal(raw, &one) != nil {
			return ""
		}
		parts = []part{one}
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// ignored is user content Gemini does not count as a prompt: slash
// commands, its own context blocks.
func ignored(text string) bool {
	return text == "" || strings.HasPrefix(text, "/") || strings.HasPrefix(text, "?") ||
		strings.HasPrefix(text, "<session_context>") || strings.HasPrefix(text, "<hook_context>")
}

// message turns a message record into what the replay keeps.
func (r record) message(keepText bool) chatMessage {
	text := strings.TrimSpace(textOf(r.Content))
	m := chatMessage{ID: *r.ID, Type: r.Type}
	switch r.Type {
	case "user":
		m.Resumable = !ignored(text)
	case "gemini":
		m.Resumable = text != "" || len(r.ToolCalls) > 0 || len(r.Thoughts) > 0
	}
	if keepText || r.Type == "user" && m.Resumable {
		m.Text = text
	}
	return m
}

// replay rebuilds a session's messages and metadata line by line.
type replay struct {
	chat     sessionData
	index    map[string]int
	keepText bool
}

func (g *replay) put(r record) {
	if r.ID == nil || *r.ID == "" {
		return
	}
	m := r.message(g.keepText)
	if m.Type == "user" && m.Resumable && g.chat.FirstPrompt == "" {
		g.chat.FirstPrompt = m.Text
	}
	if i, ok := g.index[m.ID]; ok {
		g.chat.messages[i] = m
		return
	}
	g.index[m.ID] = len(g.chat.messages)
	g.chat.messages = append(g.chat.messages, m)
}

func (g *replay) reset() {
	g.chat.messages = g.chat.messages[:0]
	clear(g.index)
}

func (g *replay) line(line []byte) {
	if handedBack(line) {
		// A tool's output handed back, maybe only its head (geminiHead):
		// a message of the user's with nothing typed in it.
		if id, ok := harness.StringField(line, "id"); ok {
			g.put(record{ID: &id, Type: "user"})
		}
		return
	}
	var r record
	if i := bytes.Index(line, toolCallsAt); i > 0 && bytes.HasPrefix(line, []byte(`{"id":`)) &&
		json.Unmarshal(append(line[:i:i], '}'), &r) == nil {
		// A reply, decoded up to its tool calls (their output, megabytes
		// of it, is not shown): that it made some is what counts.
		r.ToolCalls = []any{nil}
	} else if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &r) != nil {
		return
	}
	switch {
	case r.Rewind != nil:
		if i, ok := g.index[*r.Rewind]; ok {
			for _, m := range g.chat.messages[i:] {
				delete(g.index, m.ID)
			}
			g.chat.messages = g.chat.messages[:i]
		} else {
			g.reset()
		}
	case r.ID != nil:
		g.put(r)
	case r.Set != nil:
		s := r.Set
		var list []record
		if bytes.HasPrefix(bytes.TrimSpace(s.Messages), []byte("[")) && json.Unmarshal(s.Messages, &list) == nil {
			g.reset()
			for _, m := range list {
				g.put(m)
			}
		}
		for _, kv := range []struct{ to, from *string }{{&g.chat.SessionID, s.SessionID},
			{&g.chat.LastUpdated, s.LastUpdated}, {&g.chat.StartTime, s.StartTime}, {&g.chat.Summary, s.Summary}} {
			if kv.from != nil {
				*kv.to = *kv.from
			}
		}
	case r.SessionID != "" && r.ProjectHash != "":
		h := r.sessionHead
		g.chat.SessionID, g.chat.ProjectHash = h.SessionID, h.ProjectHash
		if h.StartTime != "" {
			g.chat.StartTime = h.StartTime
		}
		if h.LastUpdated != "" {
			g.chat.LastUpdated = h.LastUpdated
		}
		if h.Kind != "" {
			g.chat.Kind = h.Kind
		}
		if r.Summary != nil {
			g.chat.Summary = *r.Summary
		}
		for _, m := range r.Messages {
			g.put(m)
		}
	}
}

// readSession replays a session file; keepText keeps every message's
// text, for a preview. It fails for a file that is not a session of the
// agent's grammar.
func readSession(path string, keepText bool) (sessionData, bool) {
	g := replay{index: map[string]int{}, keepText: keepText}
	// A long reply reaches the replay as its head, as it reaches the
	// index's reader (geminiHead).
	if _, err := harness.ReadOnHeads(path, 0, harness.MaxLine, geminiHead, g.line); err != nil {
		return sessionData{}, false
	}
	if !spec.ID.Valid(g.chat.SessionID) || g.chat.ProjectHash == "" {
		return sessionData{}, false
	}
	for _, m := range g.chat.messages {
		if m.Resumable {
			g.chat.resumable = true
			break
		}
	}
	return g.chat, true
}
