package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// GrokFolder is the name of the folder Grok files a directory's sessions
// under: the path percent-encoded, every byte outside A-Z a-z 0-9 - . _ ~
// as %XX with capital hex digits ("/tmp/my proj" is "%2Ftmp%2Fmy%20proj").
// Grok switches to a slug and a hash for names over 255 bytes; the suite's
// paths stay short.
func GrokFolder(dir string) string {
	var b strings.Builder
	for i := 0; i < len(dir); i++ {
		c := dir[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// GrokSession is what one Grok session directory holds, as far as the suite
// cares.
type GrokSession struct {
	Dir string
	// From summary.json.
	ID, CWD, Title, Summary string
	NumMessages             int
	CreatedAt, LastActive   string
	// Prompts are the texts the user typed, from the user_message_chunk
	// lines of updates.jsonl; UpdateLines counts its lines.
	Prompts     []string
	UpdateLines int
	// FirstUser is the text of the first user entry of chat_history.jsonl,
	// and TypedUsers the texts of the entries carrying a prompt_index.
	FirstUser  string
	TypedUsers []string
}

// GrokSessions returns the sessions filed under dir's folder, by ID.
func GrokSessions(grokHome, dir string) map[string]GrokSession {
	out := map[string]GrokSession{}
	folder := filepath.Join(grokHome, "sessions", GrokFolder(dir))
	entries, _ := os.ReadDir(folder)
	for _, e := range entries {
		if e.IsDir() {
			out[e.Name()] = ReadGrokSession(filepath.Join(folder, e.Name()))
		}
	}
	return out
}

// ReadGrokSession reads one session directory.
func ReadGrokSession(dir string) GrokSession {
	s := GrokSession{Dir: dir}
	var sum struct {
		Info struct {
			ID  string `json:"id"`
			CWD string `json:"cwd"`
		} `json:"info"`
		Title       string `json:"generated_title"`
		Summary     string `json:"session_summary"`
		NumMessages int    `json:"num_messages"`
		CreatedAt   string `json:"created_at"`
		LastActive  string `json:"last_active_at"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "summary.json")); err == nil && json.Unmarshal(b, &sum) == nil {
		s.ID, s.CWD, s.Title, s.Summary = sum.Info.ID, sum.Info.CWD, sum.Title, sum.Summary
		s.NumMessages, s.CreatedAt, s.LastActive = sum.NumMessages, sum.CreatedAt, sum.LastActive
	}
	b, _ := os.ReadFile(filepath.Join(dir, "updates.jsonl"))
	forLines(b, func(line []byte) {
		s.UpdateLines++
		var u struct {
			Params struct {
				Update struct {
					Kind    string `json:"sessionUpdate"`
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"update"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &u) == nil && u.Params.Update.Kind == "user_message_chunk" {
			s.Prompts = append(s.Prompts, u.Params.Update.Content.Text)
		}
	})
	b, _ = os.ReadFile(filepath.Join(dir, "chat_history.jsonl"))
	forLines(b, func(line []byte) {
		var m struct {
			Type        string          `json:"type"`
			Content     json.RawMessage `json:"content"`
			PromptIndex *int            `json:"prompt_index"`
		}
		if json.Unmarshal(line, &m) != nil || m.Type != "user" {
			return
		}
		text := chatText(m.Content)
		if s.FirstUser == "" {
			s.FirstUser = text
		}
		if m.PromptIndex != nil {
			s.TypedUsers = append(s.TypedUsers, text)
		}
	})
	return s
}

// chatText joins the text parts of a chat_history.jsonl content.
func chatText(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(content, &parts)
	var out []string
	for _, p := range parts {
		out = append(out, p.Text)
	}
	return strings.Join(out, "")
}

// GrokActive is one entry of $GROK_HOME/active_sessions.json: a running
// Grok process and the session it shows.
type GrokActive struct {
	SessionID string `json:"session_id"`
	PID       int    `json:"pid"`
	CWD       string `json:"cwd"`
	OpenedAt  string `json:"opened_at"`
}

// GrokActiveSessions reads $GROK_HOME/active_sessions.json.
func GrokActiveSessions(grokHome string) []GrokActive {
	var out []GrokActive
	b, err := os.ReadFile(filepath.Join(grokHome, "active_sessions.json"))
	if err == nil {
		json.Unmarshal(b, &out)
	}
	return out
}
