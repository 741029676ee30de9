package fakeapi

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHold: a typed HOLD streams the first piece, then holds the request
// open until Release; nothing else is held.
func TestHold(t *testing.T) {
	s := start(t)
	for _, tc := range []struct{ path, body string }{
		{"/v1/messages", `{"model":"m","stream":true,"messages":[{"role":"user","content":[
			{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"please HOLD"}]},
			{"role":"system","content":[{"type":"text","text":"# Environment"}]}]}`},
		{"/v1/responses", `{"model":"m","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"please HOLD"}]}]}`},
		{"/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"<user_query>\nplease HOLD\n</user_query>"}]}`},
	} {
		resp := post(t, s.URL()+tc.path, tc.body)
		r := bufio.NewReader(resp.Body)
		if _, err := r.ReadString('\n'); err != nil {
			t.Fatalf("%s: no first event: %v", tc.path, err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for s.Held() != 1 {
			if time.Now().After(deadline) {
				t.Fatalf("%s: held %d, want 1", tc.path, s.Held())
			}
			time.Sleep(10 * time.Millisecond)
		}
		s.Release()
		rest := new(strings.Builder)
		if _, err := r.WriteTo(rest); err != nil || !strings.Contains(rest.String(), "HOLD") {
			t.Errorf("%s: rest of the stream %q, %v", tc.path, rest, err)
		}
	}
	// A side request that quotes the word is not held.
	resp := post(t, s.URL()+"/v1/messages", `{"model":"m","stream":true,"messages":[{"role":"user","content":"<system-reminder>HOLD</system-reminder>"}]}`)
	if names, _ := events(t, resp.Body); len(names) == 0 || names[len(names)-1] != "message_stop" {
		t.Errorf("side request: events %v", names)
	}
}

// TestPermit: a typed PERMIT asks for the shell tool; the turn after the
// tool's result is text.
func TestPermit(t *testing.T) {
	s := start(t)
	resp := post(t, s.URL()+"/v1/messages", `{"model":"m","stream":true,"tools":[{"name":"Bash"}],
		"messages":[{"role":"user","content":"now PERMIT"}]}`)
	_, data := events(t, resp.Body)
	var use map[string]any
	for _, d := range data {
		if b, ok := d["content_block"].(map[string]any); ok && b["type"] == "tool_use" {
			use = b
		}
	}
	if use == nil || use["name"] != "Bash" {
		t.Fatalf("no Bash tool_use in %v", data)
	}
	resp = post(t, s.URL()+"/v1/messages", `{"model":"m","stream":true,"tools":[{"name":"Bash"}],"messages":[
		{"role":"user","content":"now PERMIT"},
		{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}]}`)
	if _, data := events(t, resp.Body); strings.Contains(mustJSON(data), "tool_use") {
		t.Errorf("tool asked for again after its result: %v", data)
	}

	resp = post(t, s.URL()+"/v1/responses", `{"model":"m","stream":true,"tools":[{"type":"function","name":"exec_command"}],
		"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"now PERMIT"}]}]}`)
	names, data := events(t, resp.Body)
	var call map[string]any
	for i, n := range names {
		if n == "response.output_item.done" {
			call = data[i]["item"].(map[string]any)
		}
	}
	if call == nil || call["type"] != "function_call" || call["name"] != "exec_command" ||
		!strings.Contains(call["arguments"].(string), "require_escalated") {
		t.Errorf("responses: item %v", call)
	}
	// Without the tool on offer, the reply is text.
	resp = post(t, s.URL()+"/v1/messages", `{"model":"m","stream":false,"messages":[{"role":"user","content":"now PERMIT"}]}`)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("plain: %d", resp.StatusCode)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
