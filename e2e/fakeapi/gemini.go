package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// The Gemini API (Gemini CLI, GOOGLE_GEMINI_BASE_URL pointed here):
// POST /v1beta/models/<model>:generateContent, answered with one JSON
// object, and …:streamGenerateContent, streamed as SSE with ?alt=sse (the
// CLI's way) or as a JSON array without it; …:countTokens for good measure.
//
// Measured on Gemini CLI 0.61.0: each prompt first asks a router
// (generateContent with responseMimeType application/json and a schema of
// complexity_score, which the CLI checks to be 1-100, or of model_choice,
// flash or pro), then streams the turn from the routed model. After a turn
// it may ask who speaks next (a schema whose next_speaker is user or model)
// and, at the start of a later session, for a one-line summary of an
// earlier one ("Summarize the user's primary intent…"), which becomes that
// session's title.
func init() {
	routes = append(routes, route{method: http.MethodPost, match: geminiPath, serve: (*Server).gemini})
}

// geminiPath matches /v1beta/models/<model>:<method> (any API version).
func geminiPath(p string) bool {
	_, method, ok := geminiModel(p)
	return ok && (method == "generateContent" || method == "streamGenerateContent" || method == "countTokens")
}

// geminiModel splits the path into the model and the method.
func geminiModel(p string) (model, method string, ok bool) {
	rest, found := strings.CutPrefix(p, "/")
	if !found {
		return "", "", false
	}
	version, rest, found := strings.Cut(rest, "/models/")
	if !found || strings.Contains(version, "/") {
		return "", "", false
	}
	model, method, found = strings.Cut(rest, ":")
	return model, method, found && model != "" && !strings.Contains(model, "/")
}

// geminiRequest is the part of a Gemini API request the fake reads.
type geminiRequest struct {
	Contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text string `json:"text"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		Functions []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	Config struct {
		MimeType   string         `json:"responseMimeType"`
		JSONSchema map[string]any `json:"responseJsonSchema"`
		Schema     map[string]any `json:"responseSchema"`
	} `json:"generationConfig"`
}

// userTexts are the text parts of the user turns, oldest first.
func (r *geminiRequest) userTexts() []string {
	var out []string
	for _, c := range r.Contents {
		if c.Role != "user" && c.Role != "" {
			continue
		}
		for _, p := range c.Parts {
			if p.Text != "" {
				out = append(out, p.Text)
			}
		}
	}
	return out
}

// lastTyped is the last text part of the last turn when it is the user's.
func (r *geminiRequest) lastTyped() string {
	if len(r.Contents) == 0 {
		return ""
	}
	last := r.Contents[len(r.Contents)-1]
	if last.Role != "user" && last.Role != "" {
		return ""
	}
	text := ""
	for _, p := range last.Parts {
		if p.Text != "" {
			text = p.Text
		}
	}
	return text
}

// hasTool reports whether the request offers the function name.
func (r *geminiRequest) hasTool(name string) bool {
	for _, t := range r.Tools {
		for _, f := range t.Functions {
			if f.Name == name {
				return true
			}
		}
	}
	return false
}

// geminiSummaryPrompt opens the CLI's request for a session's summary.
const geminiSummaryPrompt = "Summarize the user's primary intent"

// reply is the text the fake answers with, and whether it is held.
func (r *geminiRequest) reply() (string, bool) {
	if strings.Contains(r.Config.MimeType, "json") {
		schema := r.Config.JSONSchema
		if schema == nil {
			schema = r.Config.Schema
		}
		b, _ := json.Marshal(geminiFill(schema))
		return string(b), false
	}
	if t := r.lastTyped(); strings.HasPrefix(strings.TrimSpace(t), geminiSummaryPrompt) {
		return "Fake session title", false
	}
	return Reply(r.userTexts()), typed(r.lastTyped(), HoldWord)
}

// geminiFill answers a response schema: an object with every property
// filled, an enum's first value, 1 for numbers (the router's score must be
// 1-100) and a fixed phrase for strings, so code words never leak into
// what the CLI shows. Type names come in either case ("OBJECT", "object").
func geminiFill(schema map[string]any) any {
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	typ, _ := schema["type"].(string)
	switch strings.ToLower(typ) {
	case "string":
		return "Fake session title"
	case "boolean":
		return false
	case "number", "integer":
		if min, ok := schema["minimum"].(float64); ok && min > 1 {
			return min
		}
		return 1
	case "array":
		return []any{}
	}
	out := map[string]any{}
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		if sub, ok := p.(map[string]any); ok {
			out[name] = geminiFill(sub)
		}
	}
	return out
}

func (s *Server) gemini(w http.ResponseWriter, r *http.Request, body []byte, rec *Request) {
	model, method, _ := geminiModel(strings.TrimSuffix(r.URL.Path, "/"))
	rec.Model = model
	var req geminiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"error": map[string]any{"code": 400, "status": "INVALID_ARGUMENT", "message": err.Error()},
		}, rec)
		return
	}
	in := len(body)/4 + 1
	if method == "countTokens" {
		writeJSON(w, http.StatusOK, map[string]any{"totalTokens": in}, rec)
		return
	}
	text, held := req.reply()
	// Gemini's shell tool: in its default approval mode the CLI asks
	// before it runs the command.
	var call map[string]any
	if typed(req.lastTyped(), PermitWord) && req.hasTool("run_shell_command") {
		call = map[string]any{"name": "run_shell_command",
			"args": map[string]any{"command": permitCommand, "description": "Create a file for the test"}}
		b, _ := json.Marshal(call)
		text = ""
		rec.Reply = "run_shell_command" + string(b)
	} else {
		rec.Reply = text
	}
	out := len(text)/4 + 1
	id := fmt.Sprintf("fake-gemini-%06d", nextID())
	chunk := func(t string, last bool) map[string]any {
		part := map[string]any{"text": t}
		if call != nil {
			part = map[string]any{"functionCall": call}
		}
		cand := map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "index": 0}
		c := map[string]any{"candidates": []any{cand}, "modelVersion": model, "responseId": id}
		if last {
			cand["finishReason"] = "STOP"
			c["usageMetadata"] = map[string]any{"promptTokenCount": in, "candidatesTokenCount": out, "totalTokenCount": in + out}
		}
		return c
	}
	if method == "generateContent" {
		writeJSON(w, http.StatusOK, chunk(text, true), rec)
		return
	}
	pieces := chunks(text)
	if len(pieces) == 0 {
		pieces = []string{""}
	}
	if r.URL.Query().Get("alt") != "sse" {
		var all []any
		for i, p := range pieces {
			all = append(all, chunk(p, i == len(pieces)-1))
		}
		writeJSON(w, http.StatusOK, all, rec)
		return
	}
	e := startSSE(w, rec)
	for i, p := range pieces {
		e.data(chunk(p, i == len(pieces)-1))
		if i == 0 && held {
			s.hold(r)
		}
	}
}
