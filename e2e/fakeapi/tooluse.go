package fakeapi

import (
	"encoding/json"
	"regexp"
	"strings"
)

// A turn can make the fake model call one of Claude Code's tools, so a test
// can have Claude write what only tool use writes (a subagent's transcript,
// a large tool result kept beside the conversation): a typed turn holding
// "CALL <tool> <JSON object>" is answered with a tool_use block calling that
// tool, when the request offers it, with that input. The turn after the
// tool's result gets "ACK tool <tool>", so a call is made once.

// callPattern finds the tool and its input in a typed turn.
var callPattern = regexp.MustCompile(`CALL ([A-Za-z_][A-Za-z0-9_]*) (\{.*\})\s*$`)

// toolCall is what the model calls, when a turn asks for it.
type toolCall struct {
	Name  string
	Input json.RawMessage
}

// lastTurn describes the last message of a Messages API request: the tool
// the user asked to call (if the request offers it), or the tool whose
// result it carries.
func (m *messagesRequest) lastTurn() (call *toolCall, result string) {
	// 2.1.332 may end a request with a message of role "system" (its
	// environment): the turn is the last user message.
	i := len(m.Messages) - 1
	for i >= 0 && m.Messages[i].Role != "user" {
		i--
	}
	if i < 0 {
		return nil, ""
	}
	last := m.Messages[i]
	var blocks []struct {
		Type      string `json:"type"`
		Text      string `json:"text"`
		ToolUseID string `json:"tool_use_id"`
	}
	var text string
	if json.Unmarshal(last.Content, &text) != nil {
		json.Unmarshal(last.Content, &blocks)
	}
	for _, b := range blocks {
		switch b.Type {
		case "tool_result":
			return nil, m.toolOf(b.ToolUseID)
		case "text":
			if !strings.HasPrefix(strings.TrimSpace(b.Text), "<") {
				text = b.Text
			}
		}
	}
	sub := callPattern.FindStringSubmatch(text)
	if sub == nil || !json.Valid([]byte(sub[2])) {
		return nil, ""
	}
	for _, t := range m.Tools {
		if t.Name == sub[1] {
			return &toolCall{Name: sub[1], Input: json.RawMessage(sub[2])}, ""
		}
	}
	return nil, ""
}

// toolOf names the tool of an earlier tool_use block.
func (m *messagesRequest) toolOf(id string) string {
	for _, msg := range m.Messages {
		var blocks []struct {
			Type string `json:"type"`
			ID   string `json:"id"`
			Name string `json:"name"`
		}
		json.Unmarshal(msg.Content, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_use" && b.ID == id {
				return b.Name
			}
		}
	}
	return "unknown"
}
