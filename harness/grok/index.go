package grok

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
)

// The index reads two files of a Grok session folder: chat_history.jsonl,
// appended as the conversation goes on (the prompts the user typed, wrapped
// in <user_query>, and Grok's answers; the first user line is Grok's own
// <user_info> context, never a prompt), and summary.json, which Grok
// rewrites whole (its directory, times, the title it generates and revises,
// and a title the user chose with /rename, which is a name). Both belong
// to the conversation the folder is named after.

// Trees implements Indexer.
func (grok) Trees(home string) []harness.Tree {
	return []harness.Tree{{Root: filepath.Join(home, "sessions"),
		Levels: []string{"*", "*", "chat_history.jsonl|summary.json"}, Owns: true}}
}

// Near implements Indexer: cwd's folder of sessions.
func (grok) Near(home, cwd string) []string { return []string{folderOf(home, cwd)} }

// Read implements Indexer.
func (grok) Read(path string, c harness.Cursor, l harness.Limits) (harness.Delta, harness.Cursor, error) {
	id := filepath.Base(filepath.Dir(path))
	if !spec.ID.Valid(id) {
		return nil, c, nil
	}
	if filepath.Base(path) == "summary.json" {
		return readSummaryFile(path, id, c)
	}
	out := harness.Learned{ID: id}
	titled := len(c.State) > 0
	off, err := harness.ReadOn(path, c.Offset, l.Line, func(line []byte) {
		var text string
		if p := userPrompt(line); p != "" {
			out.Turns++
			text = p
			if !titled {
				out.Title, titled = harness.CleanTitle(p), true
			}
		} else {
			if !bytes.Contains(line, []byte(`"assistant"`)) {
				return
			}
			var msg struct {
				Type    string          `json:"type"`
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			}
			if json.Unmarshal(line, &msg) != nil || msg.Type != "assistant" && msg.Role != "assistant" {
				return
			}
			text = harness.PromptText(msg.Content)
		}
		out.Messages++
		if l.Text && text != "" {
			out.Texts = append(out.Texts, harness.ClipText(text, l.Message))
		}
	})
	next := harness.Cursor{Offset: off}
	if titled {
		next.State = []byte{1}
	}
	return harness.Delta{out}, next, err
}

// readSummaryFile reads summary.json whole: Grok writes it anew each time.
func readSummaryFile(path, id string, c harness.Cursor) (harness.Delta, harness.Cursor, error) {
	var s summary
	var times struct {
		Updated json.RawMessage `json:"updated_at"`
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, c, err
	}
	if !harness.ReadSmallJSON(path, &s) || s.Info.ID != "" && s.Info.ID != id {
		// Being written, or not this session's: read again once it changes.
		return harness.Delta{{ID: id}}, harness.Cursor{Offset: fi.Size()}, nil
	}
	harness.ReadSmallJSON(path, &times)
	out := harness.Learned{ID: id, Cwd: s.Info.Cwd, Started: readTime(s.CreatedAt), Active: readTime(s.LastActiveAt)}
	if out.Active.IsZero() {
		out.Active = readTime(times.Updated)
	}
	if t := strings.TrimSpace(s.GeneratedTitle); t != "" {
		out.Title, out.Retitle = harness.CleanTitle(t), true
	}
	out.Named = true
	if s.TitleIsManual {
		out.Name = harness.CleanName(s.GeneratedTitle)
	}
	// The folder's name holds the directory byte for byte; the session's
	// JSON cannot hold a name that is not UTF-8.
	if dir, ok := decodeDirName(filepath.Base(filepath.Dir(filepath.Dir(path)))); ok {
		out.Cwd = dir
	}
	return harness.Delta{out}, harness.Cursor{Offset: fi.Size()}, nil
}
