package harness

import (
	"encoding/json"
	"testing"
)

func TestPromptText(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{`"  hello there "`, "hello there"},
		{` "padded"`, "padded"},
		{`[{"type":"tool_result","content":"x"},{"type":"text","text":"  "},{"type":"input_text","text":" second "}]`, "second"},
		{`[{"type":"image","source":{}}]`, ""},
		{`[]`, ""},
		{`null`, ""},
		{`42`, ""},
		{`{"type":"text","text":"an object is neither"}`, ""},
		{`[{"type":"text","text":5}]`, ""},
		{`"unterminated`, ""},
		{``, ""},
	} {
		if got := PromptText(json.RawMessage(c.raw)); got != c.want {
			t.Errorf("PromptText(%s) = %q, want %q", c.raw, got, c.want)
		}
	}
}

func TestDecodeContent(t *testing.T) {
	s, blocks := DecodeContent(json.RawMessage(`"a\nb"`))
	if s != "a\nb" || blocks != nil {
		t.Errorf("a string: %q %v", s, blocks)
	}
	s, blocks = DecodeContent(json.RawMessage(`[{"type":"tool_use","input":{"cmd":["ls","-l"]}},{"type":"text","text":"done"}]`))
	if s != "" || len(blocks) != 2 || blocks[1] != (TextBlock{Type: "text", Text: "done"}) {
		t.Errorf("blocks: %q %v", s, blocks)
	}
	// An empty list is a list, which a reply's reader tells from a string.
	if _, blocks = DecodeContent(json.RawMessage(`[]`)); blocks == nil {
		t.Error("an empty list decoded as no list")
	}
}
