package fakeapi

import (
	"encoding/json"
	"strings"
	"testing"
)

// A turn asking for "CALL <tool> <input>" gets that tool called, once: the
// turn carrying its result gets a text reply; a tool the request does not
// offer is not called.
func TestMessagesToolUse(t *testing.T) {
	s := start(t)
	const tools = `"tools":[{"name":"Bash","input_schema":{}},{"name":"Agent","input_schema":{}}]`
	var got struct {
		Content []struct {
			Type  string
			Name  string
			ID    string
			Input json.RawMessage
			Text  string
		}
		StopReason string `json:"stop_reason"`
	}
	resp := post(t, s.URL()+"/v1/messages", `{"model":"m",`+tools+`,"messages":[
		{"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"CALL Bash {\"command\":\"seq 3\"}"}]},
		{"role":"system","content":"env"}]}`)
	json.NewDecoder(resp.Body).Decode(&got)
	if len(got.Content) != 1 || got.Content[0].Type != "tool_use" || got.Content[0].Name != "Bash" ||
		string(got.Content[0].Input) != `{"command":"seq 3"}` || got.StopReason != "tool_use" {
		t.Fatalf("tool call %+v", got)
	}
	id := got.Content[0].ID
	resp = post(t, s.URL()+"/v1/messages", `{"model":"m",`+tools+`,"messages":[
		{"role":"user","content":"CALL Bash {\"command\":\"seq 3\"}"},
		{"role":"assistant","content":[{"type":"tool_use","id":"`+id+`","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"`+id+`","content":"1\n2\n3"}]}]}`)
	json.NewDecoder(resp.Body).Decode(&got)
	if len(got.Content) != 1 || got.Content[0].Text != "ACK tool Bash" {
		t.Errorf("after the result %+v", got)
	}
	resp = post(t, s.URL()+"/v1/messages", `{"model":"m",`+tools+`,"messages":[{"role":"user","content":"CALL Task {}"}]}`)
	json.NewDecoder(resp.Body).Decode(&got)
	if len(got.Content) != 1 || got.Content[0].Type != "text" || !strings.HasPrefix(got.Content[0].Text, "ACK ") {
		t.Errorf("a tool not offered %+v", got)
	}
	// Streamed: the call arrives as an input_json_delta.
	resp = post(t, s.URL()+"/v1/messages", `{"model":"m","stream":true,`+tools+`,"messages":[{"role":"user","content":"CALL Agent {\"prompt\":\"p\"}"}]}`)
	names, data := events(t, resp.Body)
	var partial string
	for _, d := range data {
		if delta, ok := d["delta"].(map[string]any); ok && delta["type"] == "input_json_delta" {
			partial += delta["partial_json"].(string)
		}
	}
	if partial != `{"prompt":"p"}` || len(names) != 6 {
		t.Errorf("streamed call: %q, events %v", partial, names)
	}
}
