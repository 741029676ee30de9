package harness

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// jsonSeeds are objects, arrays and strings in the shapes the readers meet,
// and the malformed ones they must refuse.
var jsonSeeds = []string{
	`{"type":"user","message":{"role":"user","content":"fix the \"login\" test"},"isSidechain":false}`,
	`{"message":{"content":[{"type":"tool_result","content":"a \\\" b \\\\"},{"type":"text","text":"é\u00e9"}]},"type":"assistant"}`,
	` { "a" : [ 1 , -2.5e3 , true , null , { } , [ ] ] , "b" : "\\" } `,
	`{}`, `[]`, `[null]`, `[1]`, `[{"type":null,"text":"x"}]`, `[{"type":1,"text":"x"}]`, `[{"text":"x","type":"text","text":[]}]`, `[{"Type":"text","text":"x"}]`,
	`"plain"`, `"tab\there"`, "\"raw\ttab\"", `"\ud800"`, "\"\xff\"",
	`{"a":"unterminated}`, `{"a":1,}`, `{"a" 1}`, `{"a":[1,2}`, `{"a":{]}`, `{"a":1}x`, `{"a":tru}`,
	`{"a":"x"`, `[1 2]`, `{"a":"\\"}`, `{"a":"\\\"}`, "\v\"x\"",
}

// members is what Members yields, as encoding/json would decode it: the
// last value of each key, compacted.
func members(t *testing.T, data []byte) (map[string]string, bool) {
	out := map[string]string{}
	ok := Members(data, func(k, v []byte) bool {
		key, good := StringValue(append(append([]byte{'"'}, k...), '"'))
		if !good {
			key = "(not a string) " + string(k) // only in what is not JSON
		}
		var c bytes.Buffer
		if json.Compact(&c, v) != nil {
			c.Reset()
			c.Write(v)
		}
		out[key] = c.String()
		return true
	})
	return out, ok
}

func compacted(m map[string]json.RawMessage) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		var c bytes.Buffer
		json.Compact(&c, v)
		out[k] = c.String()
	}
	return out
}

func TestMembersRefusesWhatIsNotAnObject(t *testing.T) {
	for _, s := range []string{`{"a":"unterminated}`, `{"a":1,}`, `{"a" 1}`, `{"a":[1,2}`, `{"a":{]}`, `{"a":1}x`, `{"a":"x"`, `{"a":"\\\"}`, `[]`, `"s"`, ``, `{"a":}`, `{"a":1 "b":2}`} {
		if _, ok := members(t, []byte(s)); ok {
			t.Errorf("Members(%q) walked it to its end", s)
		}
	}
}

func TestMembersStopsWhenAsked(t *testing.T) {
	var keys []string
	ok := Members([]byte(`{"a":1,"b":2,"c":3`), func(k, v []byte) bool {
		keys = append(keys, string(k))
		return string(k) != "b"
	})
	if !ok || !slices.Equal(keys, []string{"a", "b"}) {
		t.Errorf("keys %q, ok %v: the walk stops at b, before the unfinished end", keys, ok)
	}
}

func FuzzMembers(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := members(t, data)
		var want map[string]json.RawMessage
		if json.Unmarshal(data, &want) != nil || want == nil {
			return // not an object: Members may walk what it does not check
		}
		if !ok {
			t.Fatalf("Members(%q) refused an object", data)
		}
		if w := compacted(want); !maps.Equal(got, w) {
			t.Fatalf("Members(%q) = %q, encoding/json has %q", data, got, w)
		}
	})
}

func FuzzElements(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []string
		ok := Elements(data, func(v []byte) bool {
			got = append(got, string(v))
			return true
		})
		var want []json.RawMessage
		if json.Unmarshal(data, &want) != nil || want == nil {
			return
		}
		if !ok || len(got) != len(want) {
			t.Fatalf("Elements(%q) = %q (%v), encoding/json has %d", data, got, ok, len(want))
		}
		for i := range want {
			if !bytes.Equal(bytes.TrimSpace(want[i]), []byte(got[i])) {
				t.Fatalf("element %d of %q: %q, encoding/json has %q", i, data, got[i], want[i])
			}
		}
	})
}

func FuzzStringValue(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := StringValue(data)
		if string(bytes.Trim(data, " \t\n\r")) == "null" {
			if ok {
				t.Fatalf("StringValue(%q) took null for a string", data)
			}
			return // encoding/json leaves a string alone for null
		}
		var want string
		err := json.Unmarshal(data, &want)
		if ok != (err == nil) || got != want {
			t.Fatalf("StringValue(%q) = %q, %v; encoding/json: %q, %v", data, got, ok, want, err)
		}
	})
}

// decodeContentByJSON is DecodeContent as it was, with encoding/json
// decoding every block whole: the walk must agree with it on valid JSON.
func decodeContentByJSON(raw []byte) (string, []TextBlock) {
	type block struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var bs []block
	if json.Unmarshal(raw, &bs) != nil || bs == nil {
		return "", nil
	}
	out := []TextBlock{}
	for _, b := range bs {
		out = append(out, TextBlock(b))
	}
	return "", out
}

func FuzzDecodeContent(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) || foldedKey(raw) {
			return
		}
		s, blocks := DecodeContent(raw)
		ws, wblocks := decodeContentByJSON(raw)
		if s != ws || !slices.Equal(blocks, wblocks) || (blocks == nil) != (wblocks == nil) {
			t.Fatalf("DecodeContent(%q) = %q, %q; encoding/json: %q, %q", raw, s, blocks, ws, wblocks)
		}
	})
}

// foldedKey reports a key that encoding/json would take for "type" or
// "text" by its case-insensitive match, which the walk does not make.
func foldedKey(raw []byte) bool {
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(raw, &blocks) != nil {
		return false
	}
	for _, b := range blocks {
		for k := range b {
			if (strings.EqualFold(k, "type") && k != "type") || (strings.EqualFold(k, "text") && k != "text") {
				return true
			}
		}
	}
	return false
}

// stringFieldByLoop is StringField as it was: its own walk to the closing
// quote, and encoding/json to decode.
func stringFieldByLoop(data []byte, key string) (string, bool) {
	pat := `"` + key + `":"`
	i := bytes.Index(data, []byte(pat))
	if i < 0 {
		return "", false
	}
	start := i + len(pat) - 1
	for end := start + 1; end < len(data); end++ {
		switch data[end] {
		case '\\':
			end++
		case '"':
			var s string
			if json.Unmarshal(data[start:end+1], &s) != nil {
				return "", false
			}
			return s, true
		}
	}
	return "", false
}

func FuzzStringField(f *testing.F) {
	for _, s := range append(jsonSeeds, `{"role":"user","x":1}`, `{"role":"a\"b\\\\"}`, `"role":"\`, `{"role":"\u00e9\n"}`) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := StringField(data, "role")
		want, wok := stringFieldByLoop(data, "role")
		if got != want || ok != wok {
			t.Fatalf("StringField(%q) = %q, %v; before: %q, %v", data, got, ok, want, wok)
		}
	})
}
