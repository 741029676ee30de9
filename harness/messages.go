package harness

import (
	"encoding/json"
	"strings"
)

// Message is one turn of a conversation, for a preview.
type Message struct {
	Role string // "user" or "assistant"
	Text string // one line, cleaned for display
}

// Excerpt is the start and the end of a conversation: its first and last
// messages, without repeating any.
type Excerpt struct {
	First, Last []Message
	Total       int
}

// ExcerptBuilder collects the first n and last m messages of a stream, as
// an agent's store gives them, for its Excerpter.
type ExcerptBuilder struct {
	n, m  int
	out   Excerpt
	ring  []Message
	count int
}

// NewExcerptBuilder returns a builder of the first n and last m messages.
func NewExcerptBuilder(n, m int) *ExcerptBuilder { return &ExcerptBuilder{n: n, m: m} }

// Add takes the next message, by "user" or "assistant"; text is cleaned for
// display, and a message with nothing left is not counted.
func (e *ExcerptBuilder) Add(role, text string) {
	text = cleanLine(text)
	if text == "" {
		return
	}
	msg := Message{Role: role, Text: text}
	e.count++
	if len(e.out.First) < e.n {
		e.out.First = append(e.out.First, msg)
		return
	}
	if e.m == 0 {
		return
	}
	if len(e.ring) < e.m {
		e.ring = append(e.ring, msg)
	} else {
		copy(e.ring, e.ring[1:])
		e.ring[len(e.ring)-1] = msg
	}
}

// Excerpt returns what was collected.
func (e *ExcerptBuilder) Excerpt() Excerpt {
	e.out.Last = e.ring
	e.out.Total = e.count
	return e.out
}

// previewWidth bounds one message line of an excerpt.
const previewWidth = 400

// cleanLine is CleanTitle at a preview's length.
func cleanLine(s string) string { return cleanTo(s, previewWidth) }

// PromptText reads a message content that is a string or a list of blocks:
// the string, or the first text block, trimmed.
func PromptText(raw json.RawMessage) string { return FirstText(DecodeContent(raw)) }

// FirstText is PromptText of a content already decoded by DecodeContent.
func FirstText(s string, blocks []TextBlock) string {
	for _, b := range blocks {
		if (b.Type == "text" || b.Type == "input_text") && strings.TrimSpace(b.Text) != "" {
			return strings.TrimSpace(b.Text)
		}
	}
	return strings.TrimSpace(s)
}

// TextBlock is what the readers use of one block of a message's content.
type TextBlock struct {
	Type string
	Text string
}

// DecodeContent decodes a message content that is a string or a list of
// blocks, telling the two apart by the first byte. Of a block it decodes
// only the type and the text: the rest (a tool's input or output, often
// the most of a transcript) is walked over, not decoded. A type or text
// that is not a string, anything else, or invalid JSON is neither.
func DecodeContent(raw json.RawMessage) (string, []TextBlock) {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return "", nil
	}
	switch raw[0] {
	case '"':
		s, _ := StringValue(raw)
		return s, nil
	case '[':
		blocks := []TextBlock{}
		bad := false // a type or text that is not a string
		walked := Elements(raw, func(v []byte) bool {
			var b TextBlock
			if string(v) == "null" {
				blocks = append(blocks, b)
				return true
			}
			object := Members(v, func(k, v []byte) bool {
				var good bool
				switch string(k) {
				case "type":
					b.Type, good = NullableString(v)
				case "text":
					b.Text, good = NullableString(v)
				default:
					return true
				}
				bad = bad || !good
				return good
			})
			blocks = append(blocks, b)
			bad = bad || !object
			return !bad
		})
		if walked && !bad {
			return "", blocks
		}
	}
	return "", nil
}
