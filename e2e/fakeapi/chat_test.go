package fakeapi

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// chatChunks reads a Chat Completions stream: the data lines up to
// "[DONE]", and whether "[DONE]" came. It reads on to the end of the body:
// the server records a request when its handler returns, which the end of
// the body follows, so a test that reads Requests next sees it.
func chatChunks(t *testing.T, r io.Reader) ([]map[string]any, bool) {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if d == "[DONE]" {
			io.Copy(io.Discard, r)
			return out, true
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(d), &m); err != nil {
			t.Fatalf("data %q: %v", d, err)
		}
		out = append(out, m)
	}
	return out, false
}

// streamed gathers the text, the tool call and the finish reason of a
// stream's chunks.
func streamed(chunks []map[string]any) (text, call, args, finish string, usage bool) {
	for _, c := range chunks {
		if c["usage"] != nil {
			usage = true
		}
		choices, _ := c["choices"].([]any)
		for _, ch := range choices {
			ch := ch.(map[string]any)
			if f, ok := ch["finish_reason"].(string); ok {
				finish = f
			}
			delta, _ := ch["delta"].(map[string]any)
			if s, ok := delta["content"].(string); ok {
				text += s
			}
			calls, _ := delta["tool_calls"].([]any)
			for _, tc := range calls {
				fn, _ := tc.(map[string]any)["function"].(map[string]any)
				if n, ok := fn["name"].(string); ok {
					call += n
				}
				if a, ok := fn["arguments"].(string); ok {
					args += a
				}
			}
		}
	}
	return
}

// grokTurn is a conversation as Grok sends it: an injected context block,
// a reminder, the typed prompts wrapped in <user_query>, a reply between.
const grokTurn = `"messages":[
	{"role":"system","content":"rules HAWK-99"},
	{"role":"user","content":[{"type":"text","text":"<user_info>\nWorkspace Path: /tmp/x\n</user_info>"}]},
	{"role":"user","content":[{"type":"text","text":"<system-reminder>\nworkflows\n</system-reminder>"}]},
	{"role":"user","content":[{"type":"text","text":"<user_query>\nremember PELICAN-4821\n</user_query>"}]},
	{"role":"assistant","content":"ACK PELICAN-4821 CODES PELICAN-4821"},
	{"role":"user","content":"<user_query>\nwhich codes now?\n</user_query>"}]`

func TestChatStream(t *testing.T) {
	s := start(t)
	resp := post(t, s.URL()+"/v1/chat/completions", `{"model":"m","stream":true,
		"stream_options":{"include_usage":true},"tools":[{"type":"function","function":{"name":"grep"}}],`+grokTurn+`}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	chunks, done := chatChunks(t, resp.Body)
	text, call, _, finish, usage := streamed(chunks)
	if !done || text != "ACK now CODES PELICAN-4821" || call != "" || finish != "stop" || !usage {
		t.Errorf("stream: done %v, text %q, call %q, finish %q, usage %v", done, text, call, finish, usage)
	}
	if len(chunks) < 3 || chunks[0]["object"] != "chat.completion.chunk" {
		t.Errorf("chunks %v", chunks)
	}
	if r := s.Requests(); len(r) != 1 || r[0].Reply != text || !r[0].Stream || r[0].Model != "m" {
		t.Errorf("recorded %+v", r)
	}
}

func TestChatJSON(t *testing.T) {
	s := start(t)
	var got struct {
		Object  string
		Choices []struct {
			Message struct {
				Role, Content string
			}
			FinishReason string `json:"finish_reason"`
		}
		Usage struct {
			Total int `json:"total_tokens"`
		}
	}
	resp := post(t, s.URL()+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi OWL-111"}]}`)
	json.NewDecoder(resp.Body).Decode(&got)
	if got.Object != "chat.completion" || len(got.Choices) != 1 || got.Choices[0].Message.Content != "ACK OWL-111 CODES OWL-111" ||
		got.Choices[0].FinishReason != "stop" || got.Usage.Total == 0 {
		t.Errorf("reply %+v", got)
	}
	resp = post(t, s.URL()+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi OWL-111"}],
		"response_format":{"type":"json_schema","json_schema":{"name":"t","schema":{"type":"object","properties":{"title":{"type":"string"}}}}}}`)
	json.NewDecoder(resp.Body).Decode(&got)
	if len(got.Choices) != 1 || got.Choices[0].Message.Content != `{"title":"Fake session title"}` {
		t.Errorf("structured reply %+v", got)
	}
}

// Grok asks for a session title by forcing a call of its session_title
// function.
func TestChatForcedToolCall(t *testing.T) {
	s := start(t)
	req := `{"model":"m","stream":%s,"tool_choice":{"type":"function","function":{"name":"session_title"}},
		"tools":[{"type":"function","function":{"name":"session_title","parameters":{"type":"object",
		"required":["session_title"],"properties":{"session_title":{"type":"string"}}}}}],
		"messages":[{"role":"system","content":"title it"},{"role":"user","content":"<user_query>\nremember OWL-1\n</user_query>"}]}`
	chunks, done := chatChunks(t, post(t, s.URL()+"/v1/chat/completions", strings.Replace(req, "%s", "true", 1)).Body)
	text, call, args, finish, _ := streamed(chunks)
	if !done || text != "" || call != "session_title" || args != `{"session_title":"Fake session title"}` || finish != "tool_calls" {
		t.Errorf("streamed: text %q, call %q, args %q, finish %q", text, call, args, finish)
	}
	var got struct {
		Choices []struct {
			Message struct {
				Content   *string
				ToolCalls []struct {
					ID       string
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			}
			FinishReason string `json:"finish_reason"`
		}
	}
	json.NewDecoder(post(t, s.URL()+"/v1/chat/completions", strings.Replace(req, "%s", "false", 1)).Body).Decode(&got)
	if len(got.Choices) != 1 || got.Choices[0].Message.Content != nil || len(got.Choices[0].Message.ToolCalls) != 1 ||
		got.Choices[0].Message.ToolCalls[0].Function.Arguments != args || got.Choices[0].FinishReason != "tool_calls" {
		t.Errorf("JSON reply %+v", got)
	}
}

// A conversation ending in an injected reminder is a side request: Grok's
// turn summary and its title refresh. Neither reply echoes the codes.
func TestChatSideRequests(t *testing.T) {
	s := start(t)
	for _, tc := range []struct{ reminder, want string }{
		{"Write an ultra-short dashboard line for the last turn.", "Fake turn summary"},
		{"Generate a session title for the conversation above.", "Fake session title"},
	} {
		b, _ := json.Marshal("<system-reminder>" + tc.reminder + "</system-reminder>")
		body := `{"model":"m","stream":true,` + strings.TrimSuffix(grokTurn, "]") +
			`,{"role":"assistant","content":"ACK now CODES PELICAN-4821"},{"role":"user","content":` + string(b) + `}]}`
		chunks, _ := chatChunks(t, post(t, s.URL()+"/v1/chat/completions", body).Body)
		if text, _, _, _, _ := streamed(chunks); text != tc.want {
			t.Errorf("%q: reply %q, want %q", tc.reminder, text, tc.want)
		}
	}
}

func TestUnwrapQuery(t *testing.T) {
	for in, want := range map[string]string{
		"<user_query>\nhello there\n</user_query>": "hello there",
		"  <user_query>x</user_query>\n":           "x",
		"<user_query>\nunclosed":                   "<user_query>\nunclosed",
		"<user_info>\nOS\n</user_info>":            "<user_info>\nOS\n</user_info>",
	} {
		if got := unwrapQuery(in); got != want {
			t.Errorf("unwrapQuery(%q) = %q, want %q", in, got, want)
		}
	}
}
