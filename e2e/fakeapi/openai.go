package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// The OpenAI Responses API (Codex), and the model list beside it.
func init() {
	handle(http.MethodPost, "/v1/responses", (*Server).openaiResponses)
	handle(http.MethodGet, "/v1/models", func(_ *Server, w http.ResponseWriter, _ *http.Request, _ []byte, rec *Request) {
		openaiModels(w, rec)
	})
}

// responsesRequest is the part of an OpenAI Responses API request the fake
// reads.
type responsesRequest struct {
	Model  string          `json:"model"`
	Stream bool            `json:"stream"`
	Input  json.RawMessage `json:"input"`
	Text   struct {
		Format *jsonFormat `json:"format"`
	} `json:"text"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// lastTyped is the text of the last input item when it is a message the
// user typed, not a tool's output.
func (r *responsesRequest) lastTyped() string {
	var items []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(r.Input, &items) != nil || len(items) == 0 {
		return ""
	}
	last := items[len(items)-1]
	if last.Role != "user" || (last.Type != "" && last.Type != "message") {
		return ""
	}
	texts := contentTexts(last.Content)
	if len(texts) == 0 {
		return ""
	}
	return texts[len(texts)-1]
}

// hasTool reports whether the request offers the model a function of that
// name.
func (r *responsesRequest) hasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// userTexts returns the text of every user message in the input, oldest
// first. Input is either a plain string or a list of items.
func (r *responsesRequest) userTexts() []string {
	var s string
	if json.Unmarshal(r.Input, &s) == nil {
		return []string{s}
	}
	var items []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	json.Unmarshal(r.Input, &items)
	var out []string
	for _, it := range items {
		if it.Role != "user" || (it.Type != "" && it.Type != "message") {
			continue
		}
		if json.Unmarshal(it.Content, &s) == nil {
			out = append(out, s)
			continue
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		json.Unmarshal(it.Content, &parts)
		for _, p := range parts {
			if p.Type == "input_text" || p.Type == "text" {
				out = append(out, p.Text)
			}
		}
	}
	return out
}

func (s *Server) openaiResponses(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"error": map[string]any{"type": "invalid_request_error", "message": err.Error()},
		}, rec)
		return
	}
	text, ok := structured(req.Text.Format)
	held, call := false, ""
	if !ok {
		text = Reply(req.userTexts())
		last := req.lastTyped()
		held = typed(last, HoldWord)
		if typed(last, PermitWord) && req.hasTool("exec_command") {
			args, _ := json.Marshal(map[string]any{
				"cmd": permitCommand, "sandbox_permissions": "require_escalated",
				"justification": "Create a file for the test?",
			})
			call = string(args)
		}
	}
	rec.Model, rec.Reply = req.Model, text
	n := nextID()
	respID, itemID := fmt.Sprintf("resp_fake_%06d", n), fmt.Sprintf("msg_fake_%06d", n)
	in, out := len(body)/4+1, len(text)/4+1
	usage := map[string]any{
		"input_tokens":          in,
		"input_tokens_details":  map[string]any{"cached_tokens": 0},
		"output_tokens":         out,
		"output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens":          in + out,
	}
	done := map[string]any{
		"id": itemID, "type": "message", "status": "completed", "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}},
	}
	resp := func(status string, output []any, usage any) map[string]any {
		return map[string]any{
			"id": respID, "object": "response", "created_at": time.Now().Unix(),
			"status": status, "model": req.Model, "output": output, "usage": usage,
		}
	}
	if call != "" {
		rec.Reply = "exec_command" + call
		done = map[string]any{
			"id": fmt.Sprintf("fc_fake_%06d", n), "type": "function_call", "status": "completed",
			"call_id": fmt.Sprintf("call_fake_%06d", n), "name": "exec_command", "arguments": call,
		}
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, resp("completed", []any{done}, usage), rec)
		return
	}
	e := startSSE(w, rec)
	seq := 0
	ev := func(name string, data map[string]any) {
		data["type"] = name
		data["sequence_number"] = seq
		seq++
		e.event(name, data)
	}
	ev("response.created", map[string]any{"response": resp("in_progress", []any{}, nil)})
	ev("response.in_progress", map[string]any{"response": resp("in_progress", []any{}, nil)})
	if call != "" {
		added := map[string]any{}
		for k, v := range done {
			added[k] = v
		}
		added["status"], added["arguments"] = "in_progress", ""
		ev("response.output_item.added", map[string]any{"output_index": 0, "item": added})
		ev("response.function_call_arguments.delta", map[string]any{"item_id": done["id"], "output_index": 0, "delta": call})
		ev("response.function_call_arguments.done", map[string]any{"item_id": done["id"], "output_index": 0, "arguments": call})
		ev("response.output_item.done", map[string]any{"output_index": 0, "item": done})
		ev("response.completed", map[string]any{"response": resp("completed", []any{done}, usage)})
		return
	}
	ev("response.output_item.added", map[string]any{
		"output_index": 0,
		"item": map[string]any{
			"id": itemID, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{},
		},
	})
	ev("response.content_part.added", map[string]any{
		"item_id": itemID, "output_index": 0, "content_index": 0,
		"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}},
	})
	for i, c := range chunks(text) {
		ev("response.output_text.delta", map[string]any{
			"item_id": itemID, "output_index": 0, "content_index": 0, "delta": c,
		})
		if i == 0 && held {
			s.hold(r)
		}
	}
	ev("response.output_text.done", map[string]any{
		"item_id": itemID, "output_index": 0, "content_index": 0, "text": text,
	})
	ev("response.content_part.done", map[string]any{
		"item_id": itemID, "output_index": 0, "content_index": 0,
		"part": map[string]any{"type": "output_text", "text": text, "annotations": []any{}},
	})
	ev("response.output_item.done", map[string]any{"output_index": 0, "item": done})
	ev("response.completed", map[string]any{"response": resp("completed", []any{done}, usage)})
}

// openaiModels answers a model listing with the one model the tests name in
// their Codex config, whatever it is: the fake serves any model name.
func openaiModels(w http.ResponseWriter, rec *Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"object": "list",
		"data": []any{map[string]any{
			"id": "fake-model", "object": "model", "created": 0, "owned_by": "fakeapi",
		}},
	}, rec)
}
