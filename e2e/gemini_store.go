package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// GeminiSlug is the folder Gemini files dir's sessions under (tmp/<slug>):
// its projects.json entry, else the slug whose .project_root names dir; ""
// when Gemini has none for it.
func GeminiSlug(home, dir string) string {
	var reg struct {
		Projects map[string]string `json:"projects"`
	}
	if b, err := os.ReadFile(filepath.Join(home, "projects.json")); err == nil && json.Unmarshal(b, &reg) == nil {
		if s := reg.Projects[dir]; s != "" {
			return s
		}
	}
	entries, _ := os.ReadDir(filepath.Join(home, "tmp"))
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join(home, "tmp", e.Name(), ".project_root")); err == nil && strings.TrimSpace(string(b)) == dir {
			return e.Name()
		}
	}
	return ""
}

// GeminiFile is one session file, as the suite reads it.
type GeminiFile struct {
	Path, ID, ProjectHash, Summary string
	Lines                          int
	// Prompts are the texts of the user messages typed, as the file holds
	// them after replaying its $set lines.
	Prompts []string
}

// GeminiSessions returns dir's session files by session ID, each ID's
// files in name order (the minute they began).
func GeminiSessions(home, dir string) map[string][]GeminiFile {
	out := map[string][]GeminiFile{}
	slug := GeminiSlug(home, dir)
	if slug == "" {
		return out
	}
	paths, _ := filepath.Glob(filepath.Join(home, "tmp", slug, "chats", "session-*.jsonl"))
	sort.Strings(paths)
	for _, p := range paths {
		f := ReadGeminiFile(p)
		out[f.ID] = append(out[f.ID], f)
	}
	return out
}

// geminiRecord is the part of a session file's line the suite reads.
type geminiRecord struct {
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	ID          string `json:"id"`
	Type        string `json:"type"`
	Content     json.RawMessage
	Set         *struct {
		Summary  string          `json:"summary"`
		Messages json.RawMessage `json:"messages"`
	} `json:"$set"`
}

// ReadGeminiFile reads one session file.
func ReadGeminiFile(p string) GeminiFile {
	f := GeminiFile{Path: p}
	b, _ := os.ReadFile(p)
	var order []string
	texts := map[string]string{}
	typed := func(r geminiRecord) {
		t := strings.TrimSpace(geminiContent(r.Content))
		if r.Type != "user" || t == "" || strings.HasPrefix(t, "<") || strings.HasPrefix(t, "/") {
			return
		}
		if _, ok := texts[r.ID]; !ok {
			order = append(order, r.ID)
		}
		texts[r.ID] = t
	}
	forLines(b, func(line []byte) {
		f.Lines++
		var r geminiRecord
		if json.Unmarshal(line, &r) != nil {
			return
		}
		switch {
		case f.ID == "" && r.SessionID != "":
			f.ID, f.ProjectHash = r.SessionID, r.ProjectHash
		case r.ID != "":
			typed(r)
		case r.Set != nil:
			if r.Set.Summary != "" {
				f.Summary = r.Set.Summary
			}
			var list []geminiRecord
			if json.Unmarshal(r.Set.Messages, &list) == nil && list != nil {
				order, texts = nil, map[string]string{}
				for _, m := range list {
					typed(m)
				}
			}
		}
	})
	for _, id := range order {
		f.Prompts = append(f.Prompts, texts[id])
	}
	return f
}

// GeminiConversations lists the IDs of dir's sessions that hold a prompt.
func GeminiConversations(home, dir string) []string {
	var out []string
	for id, files := range GeminiSessions(home, dir) {
		for _, f := range files {
			if len(f.Prompts) > 0 {
				out = append(out, id)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// geminiContent joins the text parts of a message's content, a string or a
// list of parts.
func geminiContent(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}
