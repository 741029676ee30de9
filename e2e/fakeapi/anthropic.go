package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// The Anthropic Messages API (Claude Code).
func init() {
	handle(http.MethodPost, "/v1/messages", (*Server).anthropicMessages)
	handle(http.MethodPost, "/v1/messages/count_tokens", func(_ *Server, w http.ResponseWriter, _ *http.Request, body []byte, rec *Request) {
		anthropicCountTokens(w, body, rec)
	})
}

// messagesRequest is the part of an Anthropic Messages API request the fake
// reads.
type messagesRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Output struct {
		Format *jsonFormat `json:"format"`
	} `json:"output_config"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// lastTyped is the text of the last turn when the user typed it: the last
// user message (Claude Code 2.1.332 sends its environment as a system
// message after it) when it holds text and no tool's result, without the
// reminders the CLI adds to it.
func (m *messagesRequest) lastTyped() string {
	for i := len(m.Messages) - 1; i >= 0; i-- {
		msg := m.Messages[i]
		switch msg.Role {
		case "system":
			continue
		case "user":
		default:
			return ""
		}
		var s string
		if json.Unmarshal(msg.Content, &s) == nil {
			return s
		}
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		json.Unmarshal(msg.Content, &blocks)
		text := ""
		for _, b := range blocks {
			switch {
			case b.Type == "tool_result":
				return ""
			case b.Type == "text" && !strings.HasPrefix(strings.TrimSpace(b.Text), "<"):
				text = b.Text
			}
		}
		return text
	}
	return ""
}

// permitted reports whether a user turn asked for the PermitWord tool call:
// the turn after its result is a plain reply to what was typed.
func (m *messagesRequest) permitted() bool {
	for _, t := range m.userTexts() {
		if typed(t, PermitWord) {
			return true
		}
	}
	return false
}

// hasTool reports whether the request offers the model a tool of that name.
func (m *messagesRequest) hasTool(name string) bool {
	for _, t := range m.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// userTexts returns the text of every user turn, oldest first. Content is
// either a string or a list of blocks; tool results and images are skipped.
func (m *messagesRequest) userTexts() []string {
	var out []string
	for _, msg := range m.Messages {
		if msg.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(msg.Content, &s) == nil {
			out = append(out, s)
			continue
		}
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		json.Unmarshal(msg.Content, &blocks)
		for _, b := range blocks {
			if b.Type == "text" {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

func (s *Server) anthropicMessages(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	var req messagesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, anthropicError("invalid_request_error", err.Error()), rec)
		return
	}
	text, ok := structured(req.Output.Format)
	call, result := req.lastTurn()
	held := false
	switch {
	case ok:
	case result != "" && !req.permitted():
		text = "ACK tool " + result
	case call != nil:
		text = ""
	default:
		text = Reply(req.userTexts())
		last := req.lastTyped()
		if typed(last, PermitWord) && req.hasTool("Bash") {
			input, _ := json.Marshal(map[string]any{"command": permitCommand, "description": "Create a file for the test"})
			call = &toolCall{Name: "Bash", Input: input}
		}
		held = typed(last, HoldWord)
	}
	rec.Model, rec.Reply = req.Model, text
	m := anthropicReply{id: fmt.Sprintf("msg_fake_%06d", nextID()), model: req.Model, in: len(body)/4 + 1}
	if call != nil && !ok {
		rec.Reply = "CALL " + call.Name + " " + string(call.Input)
		anthropicToolUse(w, req.Stream, m, call, rec)
		return
	}
	m.stop, m.out = "end_turn", len(text)/4+1
	if !req.Stream {
		m.whole(w, map[string]any{"type": "text", "text": text}, rec)
		return
	}
	e := m.start(w, map[string]any{"type": "text", "text": ""}, rec)
	e.event("ping", map[string]any{"type": "ping"})
	for i, c := range chunks(text) {
		e.event("content_block_delta", map[string]any{
			"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": c},
		})
		if i == 0 && held {
			s.hold(r)
		}
	}
	m.end(e)
}

// anthropicToolUse answers with one tool_use block and stop reason
// "tool_use".
func anthropicToolUse(w http.ResponseWriter, stream bool, m anthropicReply, call *toolCall, rec *Request) {
	useID := fmt.Sprintf("toolu_fake_%06d", nextID())
	m.stop, m.out = "tool_use", 10
	if !stream {
		m.whole(w, map[string]any{"type": "tool_use", "id": useID, "name": call.Name, "input": call.Input}, rec)
		return
	}
	e := m.start(w, map[string]any{"type": "tool_use", "id": useID, "name": call.Name, "input": map[string]any{}}, rec)
	e.event("content_block_delta", map[string]any{
		"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": "input_json_delta", "partial_json": string(call.Input)},
	})
	m.end(e)
}

// anthropicReply is one answer of the Messages API around its one content
// block: how it ends and what it counts.
type anthropicReply struct {
	id, model string
	stop      string // "end_turn" or "tool_use"
	in, out   int    // input and output tokens
}

// whole writes the answer as one message holding block.
func (m anthropicReply) whole(w http.ResponseWriter, block map[string]any, rec *Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"id": m.id, "type": "message", "role": "assistant", "model": m.model,
		"content":       []any{block},
		"stop_reason":   m.stop,
		"stop_sequence": nil,
		"usage":         map[string]any{"input_tokens": m.in, "output_tokens": m.out},
	}, rec)
}

// start opens the answer's event stream up to its block's start, with
// block as it is before its first delta.
func (m anthropicReply) start(w http.ResponseWriter, block map[string]any, rec *Request) *sse {
	e := startSSE(w, rec)
	e.event("message_start", map[string]any{
		"type": "message_start",
		"message": map[string]any{
			"id": m.id, "type": "message", "role": "assistant", "model": m.model,
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
			"usage": map[string]any{
				"input_tokens": m.in, "output_tokens": 1,
				"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
			},
		},
	})
	e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
	return e
}

// end closes the block and the answer's event stream.
func (m anthropicReply) end(e *sse) {
	e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	e.event("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": m.stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": m.out},
	})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}

func anthropicCountTokens(w http.ResponseWriter, body []byte, rec *Request) {
	var req messagesRequest
	json.Unmarshal(body, &req)
	rec.Model = req.Model
	writeJSON(w, http.StatusOK, map[string]any{"input_tokens": len(body)/4 + 1}, rec)
}

func anthropicError(kind, msg string) map[string]any {
	return map[string]any{"type": "error", "error": map[string]any{"type": kind, "message": msg}}
}
