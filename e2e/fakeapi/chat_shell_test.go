package fakeapi

import (
	"strings"
	"testing"
)

// A CLI that speaks Chat Completions and puts the time in front of what
// the user typed (<current_datetime>…</current_datetime>, then a blank
// line) gets the usual reply to the typed text, and PERMIT makes the reply
// a call of its shell tool, "bash", asking to run the command the CLI asks
// the user's permission for; the turn after the tool's result is text.
func TestChatTimestampedTurnAndPermit(t *testing.T) {
	s := start(t)
	turn := func(text string) string {
		return `{"role":"user","content":"<current_datetime>2026-12-02T00:57:12.209+00:00</current_datetime>\n\n` + text + `"}`
	}
	tools := `"tools":[{"type":"function","function":{"name":"bash","parameters":{"type":"object"}}}]`
	chunks, _ := chatChunks(t, post(t, s.URL()+"/v1/chat/completions",
		`{"model":"m","stream":true,`+tools+`,"messages":[{"role":"system","content":"x"},`+turn("remember PELICAN-4821")+`]}`).Body)
	if text, call, _, _, _ := streamed(chunks); text != "ACK PELICAN-4821 CODES PELICAN-4821" || call != "" {
		t.Errorf("reply %q, call %q", text, call)
	}
	chunks, _ = chatChunks(t, post(t, s.URL()+"/v1/chat/completions",
		`{"model":"m","stream":true,`+tools+`,"messages":[`+turn("now "+PermitWord)+`]}`).Body)
	text, call, args, finish, _ := streamed(chunks)
	if text != "" || call != "bash" || !strings.Contains(args, `"command":"`+permitCommand+`"`) || finish != "tool_calls" {
		t.Errorf("PERMIT: text %q, call %q, args %q, finish %q", text, call, args, finish)
	}
	after := `{"model":"m","stream":true,` + tools + `,"messages":[` + turn("now "+PermitWord) +
		`,{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"done"}]}`
	chunks, _ = chatChunks(t, post(t, s.URL()+"/v1/chat/completions", after).Body)
	if text, call, _, _, _ := streamed(chunks); text != "ACK "+PermitWord || call != "" {
		t.Errorf("after the tool: text %q, call %q", text, call)
	}
	// Without a shell tool on offer, PERMIT is a word like another.
	chunks, _ = chatChunks(t, post(t, s.URL()+"/v1/chat/completions", `{"model":"m","stream":true,"messages":[`+turn("now "+PermitWord)+`]}`).Body)
	if text, call, _, _, _ := streamed(chunks); text != "ACK "+PermitWord || call != "" {
		t.Errorf("no tool: text %q, call %q", text, call)
	}
}
