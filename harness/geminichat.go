package harness

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
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

// geminiHead is the first line of a session file.
type geminiHead struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	LastUpdated string `json:"lastUpdated"`
	Kind        string `json:"kind"`
}

// readGeminiHead reads a session file's first line; it must name a session
// of the agent's grammar.
func readGeminiHead(path string) (geminiHead, bool) {
	line, ok := FirstLine(path)
	if !ok {
		return geminiHead{}, false
	}
	var h geminiHead
	if json.Unmarshal(line, &h) != nil || !geminiSpec.ID.Valid(h.SessionID) {
		return geminiHead{}, false
	}
	return h, true
}

// geminiMessage is one message of a session, as replayed.
type geminiMessage struct {
	ID, Type  string
	Text      string // its text parts, joined
	Resumable bool   // a prompt typed or an answer given
}

// geminiChat is what fleetcom reads of a session file.
type geminiChat struct {
	geminiHead
	Summary string
	// FirstPrompt is the first prompt the user typed, as Gemini reads it
	// for a title (a later rewind does not take it back).
	FirstPrompt string
	messages    []geminiMessage
	resumable   bool
}

// active is when the session last had a message: its lastUpdated, else
// its start.
func (c geminiChat) active() time.Time {
	for _, s := range []string{c.LastUpdated, c.StartTime} {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// title is the session's summary, else its first prompt.
func (c geminiChat) title() string {
	if strings.TrimSpace(c.Summary) != "" {
		return CleanTitle(c.Summary)
	}
	return CleanTitle(c.FirstPrompt)
}

// geminiRecord is the part of a line of a session file the replay reads.
type geminiRecord struct {
	geminiHead
	Summary   *string         `json:"summary"`
	ID        *string         `json:"id"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []any           `json:"toolCalls"`
	Thoughts  []any           `json:"thoughts"`
	Rewind    *string         `json:"$rewindTo"`
	Set       *geminiSet      `json:"$set"`
	Messages  []geminiRecord  `json:"messages"`
}

// geminiSet is a $set line's metadata; Messages, when it is a list,
// replaces every message.
type geminiSet struct {
	SessionID   *string         `json:"sessionId"`
	LastUpdated *string         `json:"lastUpdated"`
	StartTime   *string         `json:"startTime"`
	Summary     *string         `json:"summary"`
	Messages    json.RawMessage `json:"messages"`
}

// geminiText joins the text parts of a message's content: a string, one
// part, or a list of parts.
func geminiText(raw json.RawMessage) string {
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

// geminiIgnored is user content Gemini does not count as a prompt: slash
// commands, its own context blocks.
func geminiIgnored(text string) bool {
	return text == "" || strings.HasPrefix(text, "/") || strings.HasPrefix(text, "?") ||
		strings.HasPrefix(text, "<session_context>") || strings.HasPrefix(text, "<hook_context>")
}

// message turns a message record into what the replay keeps.
func (r geminiRecord) message(keepText bool) geminiMessage {
	text := strings.TrimSpace(geminiText(r.Content))
	m := geminiMessage{ID: *r.ID, Type: r.Type}
	switch r.Type {
	case "user":
		m.Resumable = !geminiIgnored(text)
	case "gemini":
		m.Resumable = text != "" || len(r.ToolCalls) > 0 || len(r.Thoughts) > 0
	}
	if keepText || r.Type == "user" && m.Resumable {
		m.Text = text
	}
	return m
}

// geminiReplay rebuilds a session's messages and metadata line by line.
type geminiReplay struct {
	chat     geminiChat
	index    map[string]int
	keepText bool
}

func (g *geminiReplay) put(r geminiRecord) {
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

func (g *geminiReplay) reset() {
	g.chat.messages = g.chat.messages[:0]
	clear(g.index)
}

func (g *geminiReplay) line(line []byte) {
	var r geminiRecord
	if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &r) != nil {
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
		var list []geminiRecord
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
		h := r.geminiHead
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

// readGeminiChat replays a session file; keepText keeps every message's
// text, for a preview. It fails for a file that is not a session of the
// agent's grammar.
func readGeminiChat(path string, keepText bool) (geminiChat, bool) {
	g := geminiReplay{index: map[string]int{}, keepText: keepText}
	if err := EachLine(path, func(line []byte) bool { g.line(line); return true }); err != nil {
		return geminiChat{}, false
	}
	if !geminiSpec.ID.Valid(g.chat.SessionID) || g.chat.ProjectHash == "" {
		return geminiChat{}, false
	}
	for _, m := range g.chat.messages {
		if m.Resumable {
			g.chat.resumable = true
			break
		}
	}
	return g.chat, true
}
