package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The OpenAI Chat Completions API (Grok's custom models, Copilot's own
// provider with COPILOT_PROVIDER_BASE_URL).
func init() {
	handle(http.MethodPost, "/v1/chat/completions", (*Server).openaiChat)
}

// chatRequest is the part of an OpenAI Chat Completions request the fake
// reads. Grok's CLI speaks this API to a custom model.
type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string         `json:"name"`
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name       string         `json:"name"`
			Parameters map[string]any `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	// ToolChoice is "auto", "none", "required" or an object naming one
	// function the reply must call.
	ToolChoice json.RawMessage `json:"tool_choice"`
}

// hasTool reports whether the request offers a function of that name.
func (r *chatRequest) hasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Function.Name == name {
			return true
		}
	}
	return false
}

// forced returns the function the request makes the reply call, with its
// parameter schema: Grok asks for a session title this way.
func (r *chatRequest) forced() (string, map[string]any, bool) {
	var c struct {
		Type     string `json:"type"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if json.Unmarshal(r.ToolChoice, &c) != nil || c.Type != "function" {
		return "", nil, false
	}
	for _, t := range r.Tools {
		if t.Function.Name == c.Function.Name {
			return t.Function.Name, t.Function.Parameters, true
		}
	}
	return c.Function.Name, nil, true
}

// sideRequest returns the instruction of a request that asks about the
// conversation rather than continuing it: its last message is one the CLI
// injected as a user turn. Grok ends the conversation with a
// <system-reminder> to ask for a one-line recap of the turn, or for a
// refreshed session title.
func (r *chatRequest) sideRequest() (string, bool) {
	if len(r.Messages) == 0 {
		return "", false
	}
	last := r.Messages[len(r.Messages)-1]
	if last.Role != "user" {
		return "", false
	}
	texts := contentTexts(last.Content)
	if len(texts) == 0 || !strings.HasPrefix(strings.TrimSpace(texts[0]), "<system-reminder>") {
		return "", false
	}
	return texts[0], true
}

// sideReply answers a side request: a title when one is asked for, else a
// turn summary. Neither echoes code words, so a wait for a reply on screen
// never matches a title or a summary instead.
func sideReply(instruction string) string {
	if strings.Contains(strings.ToLower(instruction), "title") {
		return "Fake session title"
	}
	return "Fake turn summary"
}

// userTexts returns the text of every user message, oldest first, with
// Grok's <user_query> wrapper taken off what the user typed.
func (r *chatRequest) userTexts() []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		for _, t := range contentTexts(m.Content) {
			out = append(out, unwrapQuery(t))
		}
	}
	return out
}

// contentTexts returns the texts of one message's content: a string or a
// list of parts, of which only text parts count.
func contentTexts(content json.RawMessage) []string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return []string{s}
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(content, &parts)
	var out []string
	for _, p := range parts {
		if p.Type == "text" || p.Type == "input_text" {
			out = append(out, p.Text)
		}
	}
	return out
}

// unwrapQuery returns what the user typed when Grok wrapped it as
// "<user_query>\n...\n</user_query>", or when Copilot put the time in
// front of it ("<current_datetime>…</current_datetime>\n\n…"), else t
// unchanged.
func unwrapQuery(t string) string {
	s := strings.TrimSpace(t)
	if in, ok := strings.CutPrefix(s, "<current_datetime>"); ok {
		if _, typed, ok := strings.Cut(in, "</current_datetime>"); ok && strings.TrimSpace(typed) != "" {
			return strings.TrimSpace(typed)
		}
	}
	if in, ok := strings.CutPrefix(s, "<user_query>"); ok {
		if in, ok := strings.CutSuffix(in, "</user_query>"); ok {
			return strings.TrimSpace(in)
		}
	}
	return t
}

// format turns the request's response_format into the fake's common shape,
// or nil when the reply is free text.
func (r *chatRequest) format() *jsonFormat {
	rf := r.ResponseFormat
	switch {
	case rf == nil:
		return nil
	case rf.Type == "json_schema" && rf.JSONSchema != nil:
		return &jsonFormat{Type: "json_schema", Schema: rf.JSONSchema.Schema}
	case rf.Type == "json_object":
		// No schema to follow: a title is the likeliest thing asked for.
		return &jsonFormat{Type: "json_schema", Schema: map[string]any{
			"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}},
		}}
	}
	return nil
}

func (s *Server) openaiChat(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"error": map[string]any{"type": "invalid_request_error", "message": err.Error()},
		}, rec)
		return
	}
	n := nextID()
	id, callID := fmt.Sprintf("chatcmpl-fake-%06d", n), fmt.Sprintf("call_fake_%06d", n)
	var call, args string
	held := false
	text, ok := structured(req.format())
	instruction, side := req.sideRequest()
	switch name, params, forced := req.forced(); {
	case forced:
		b, _ := json.Marshal(fill(params))
		call, args = name, string(b)
		text = ""
	case ok:
	case side:
		text = sideReply(instruction)
	default:
		text = Reply(req.userTexts())
		if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "user" {
			if texts := contentTexts(req.Messages[n-1].Content); len(texts) > 0 {
				last := texts[len(texts)-1]
				held = typed(last, HoldWord)
				// The shell tool of Copilot (bash) or Grok
				// (run_terminal_command): each asks before it runs a command,
				// Grok only before one outside what it deems safe (measured
				// with 1.0.41: it runs a bare touch, asks before rm).
				for tool, command := range map[string]string{"bash": permitCommand, "run_terminal_command": permitCommandGrok} {
					if typed(last, PermitWord) && req.hasTool(tool) {
						b, _ := json.Marshal(map[string]any{"command": command, "description": "Create a file for the test"})
						call, args, text = tool, string(b), ""
						break
					}
				}
			}
		}
	}
	rec.Model, rec.Reply = req.Model, text
	if call != "" {
		rec.Reply = call + args
	}
	created := time.Now().Unix()
	in, out := len(body)/4+1, len(text+args)/4+1
	usage := map[string]any{
		"prompt_tokens": in, "completion_tokens": out, "total_tokens": in + out,
		"prompt_tokens_details":     map[string]any{"cached_tokens": 0},
		"completion_tokens_details": map[string]any{"reasoning_tokens": 0},
	}
	finish := "stop"
	message := map[string]any{"role": "assistant", "content": text}
	if call != "" {
		finish = "tool_calls"
		message = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"id": callID, "type": "function", "function": map[string]any{"name": call, "arguments": args},
		}}}
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, map[string]any{
			"id": id, "object": "chat.completion", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": message, "finish_reason": finish}},
			"usage":   usage,
		}, rec)
		return
	}
	e := startSSE(w, rec)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
	}
	if call != "" {
		e.data(chunk(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
			"index": 0, "id": callID, "type": "function",
			"function": map[string]any{"name": call, "arguments": ""},
		}}}, nil))
		e.data(chunk(map[string]any{"tool_calls": []any{map[string]any{
			"index": 0, "function": map[string]any{"arguments": args},
		}}}, nil))
	} else {
		e.data(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
		for i, c := range chunks(text) {
			e.data(chunk(map[string]any{"content": c}, nil))
			if i == 0 && held {
				s.hold(r)
			}
		}
	}
	e.data(chunk(map[string]any{}, finish))
	if req.StreamOptions != nil && req.StreamOptions.IncludeUsage {
		e.data(map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"choices": []any{}, "usage": usage,
		})
	}
	e.done()
}
