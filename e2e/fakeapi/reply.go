package fakeapi

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync/atomic"
)

// codePattern matches the code words tests plant in prompts, such as
// PELICAN-4821: three or more capitals, a hyphen, two or more digits. It is
// strict enough not to match what the CLIs add to a conversation on their own
// (paths, "UTF-8", tool names).
var codePattern = regexp.MustCompile(`\b[A-Z]{3,}-[0-9]{2,}\b`)

// Reply is the fake model's whole answer to a conversation whose user turns
// are texts, oldest first: "ACK <last word of the last turn>", then, when any
// turn held code words, " CODES " and each distinct code word in the order
// first seen. Asking "which codes?" after a resume therefore shows on screen
// whether the earlier turns reached the model.
func Reply(texts []string) string {
	last := "nothing"
	var codes []string
	seen := map[string]bool{}
	for _, t := range texts {
		if w := lastWord(t); w != "" {
			last = w
		}
		for _, c := range codePattern.FindAllString(t, -1) {
			if !seen[c] {
				seen[c] = true
				codes = append(codes, c)
			}
		}
	}
	out := "ACK " + last
	if len(codes) > 0 {
		out += " CODES " + strings.Join(codes, " ")
	}
	return out
}

// lastWord is the last whitespace-separated word of a text the user typed,
// trimmed of punctuation. Texts the CLIs inject into user turns (reminders,
// environment blocks, all starting with '<') don't count as typed.
func lastWord(t string) string {
	t = strings.TrimSpace(t)
	if t == "" || strings.HasPrefix(t, "<") {
		return ""
	}
	f := strings.Fields(t)
	return strings.Trim(f[len(f)-1], ".,;:!?\"'()[]{}")
}

// chunks splits a reply into a few pieces so the CLIs see a real stream of
// deltas rather than one block.
func chunks(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s[min(len(s), 1):], ' ')
		if i < 0 {
			out = append(out, s)
			break
		}
		i += min(len(s), 1)
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

var idCounter atomic.Int64

// nextID is a process-unique suffix for message and response IDs.
func nextID() int64 { return idCounter.Add(1) }

// jsonFormat is how both APIs ask for structured output: a JSON schema the
// reply must follow. The CLIs use it for side requests such as session titles.
type jsonFormat struct {
	Type   string         `json:"type"`
	Schema map[string]any `json:"schema"`
}

// structured returns a reply to a structured-output request: an object with
// every required property filled by type. Strings get a fixed phrase rather
// than an echo, so code words never leak into titles shown on screen.
func structured(f *jsonFormat) (string, bool) {
	if f == nil || f.Type != "json_schema" {
		return "", false
	}
	b, _ := json.Marshal(fill(f.Schema))
	return string(b), true
}

func fill(schema map[string]any) any {
	switch schema["type"] {
	case "string":
		return "Fake session title"
	case "boolean":
		return false
	case "number", "integer":
		return 0
	case "array":
		return []any{}
	case "object", nil:
		out := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			if sub, ok := p.(map[string]any); ok {
				out[name] = fill(sub)
			}
		}
		return out
	}
	return nil
}
