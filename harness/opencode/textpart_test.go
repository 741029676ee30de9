package opencode

import (
	"encoding/json"
	"strings"
	"testing"
)

// textPartByJSON is textPart as encoding/json decides it.
func textPartByJSON(data []byte) (string, bool) {
	var p struct {
		Type      string `json:"type"`
		Text      string `json:"text"`
		Synthetic bool   `json:"synthetic"`
		Ignored   bool   `json:"ignored"`
	}
	if json.Unmarshal(data, &p) != nil || p.Type != "text" || p.Synthetic || p.Ignored {
		return "", false
	}
	return p.Text, true
}

func FuzzTextPart(f *testing.F) {
	for _, s := range []string{
		`{"id":"prt_1","messageID":"msg_1","sessionID":"ses_1","type":"text","text":"fix the \"login\" test","time":{"start":1,"end":2}}`,
		`{"type":"text","text":"an injected file","synthetic":true}`,
		`{"type":"text","ignored":true,"text":"x"}`,
		`{"synthetic":true,"type":"text","synthetic":false,"text":"last one wins"}`,
		`{"type":"tool","tool":"bash","state":{"output":"text"}}`,
		`{"type":"text","text":null}`, `{"type":"text","type":null}`, `{"text":"a","type":"text","text":null}`, `{"type":"text","text":1}`, `{"type":"text","synthetic":"yes"}`,
		`{"type":"text","text":"x"`, `[]`, `null`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || foldedKey(data) {
			return
		}
		got, ok := textPart(data)
		want, wok := textPartByJSON(data)
		if got != want || ok != wok {
			t.Fatalf("textPart(%q) = %q, %v; encoding/json: %q, %v", data, got, ok, want, wok)
		}
	})
}

// foldedKey reports a key that encoding/json would match to a field by its
// case-insensitive rule, which the walk does not follow.
func foldedKey(data []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return false
	}
	for k := range m {
		for _, f := range []string{"type", "text", "synthetic", "ignored"} {
			if strings.EqualFold(k, f) && k != f {
				return true
			}
		}
	}
	return false
}
