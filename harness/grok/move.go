package grok

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Grok keeps a conversation as a directory under the folder of its
// percent-encoded cwd, and names the directory in three places (measured on
// 1.0.41): summary.json's info.cwd, prompt_context.json's
// working_directory, and the "Workspace Path:" of the context block that
// opens chat_history.jsonl. summary.json also names Grok's home
// (grok_home). The folder decides where a resumed session runs.

// bundled reports whether a file of a session directory is one a bundle
// carries; lock files and anything else are left behind. (A switch, not a
// map: a map literal is built by every start of the binary.)
func bundled(name string) bool {
	switch name {
	case "summary.json", "chat_history.jsonl", "updates.jsonl", "events.jsonl",
		"system_prompt.txt", "prompt_context.json", "usage.json", "rewind_points.jsonl",
		"signals.json", "tool_definitions.json", "title_refresh_idx":
		return true
	}
	return false
}

// Pack implements Mover: the session directory's known files.
func (grok) Pack(home, cwd, id string) ([]harness.File, error) {
	dir, ok := sessionDir(home, cwd, id)
	if !ok {
		return nil, harness.Refuse(harness.ErrNoConversation, "no grok session %s for %s", id, cwd)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []harness.File
	for _, e := range entries {
		if !bundled(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		data, err := safe.ReadFile(filepath.Join(dir, e.Name()), harness.MaxConversationFile, safe.NoFollow)
		if err != nil {
			return nil, err
		}
		out = append(out, harness.File{Name: e.Name(), Mode: 0o644, Data: data})
	}
	return out, nil
}

// Place implements Mover: the session directory under dir's folder, the
// three directory fields and grok_home rewritten.
func (grok) Place(home, dir, id, from string, files []harness.File) (harness.Placement, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Placement{}, err
	}
	p := harness.Placement{Path: filepath.Join(folderOf(home, dir), id), Dir: true}
	seen := map[string]bool{}
	for _, f := range files {
		if !bundled(f.Name) || !harness.SafeFileName(f.Name) || seen[f.Name] {
			return harness.Placement{}, fmt.Errorf("a grok session holds no file %q", f.Name)
		}
		seen[f.Name] = true
		data := f.Data
		switch f.Name {
		case "summary.json":
			data = harness.RewriteField(data, "cwd", from, dir)
			data = rewriteHome(data, home)
		case "prompt_context.json":
			data = harness.RewriteField(data, "working_directory", from, dir)
		case "chat_history.jsonl":
			data = rewriteHistory(data, from, dir)
		}
		p.Files = append(p.Files, harness.File{Name: f.Name, Mode: 0o644, Data: data})
	}
	if !seen["summary.json"] {
		return harness.Placement{}, fmt.Errorf("a grok session needs its summary.json")
	}
	return p, nil
}

// Carry implements Mover: the session folder whole, into dir's folder,
// with whatever it holds (attachments, notes, files of a newer Grok), the
// three directory fields rewritten.
func (grok) Carry(home, from, dir, id string) (harness.Carry, error) {
	if err := spec.ValidateID(id); err != nil {
		return harness.Carry{}, err
	}
	src, ok := sessionDir(home, from, id)
	if !ok {
		return harness.Carry{}, harness.Refuse(harness.ErrNoConversation, "no grok session %s for %s", id, from)
	}
	if fi, err := os.Lstat(src); err != nil || !fi.IsDir() {
		return harness.Carry{}, fmt.Errorf("grok session %s is not a folder", src)
	}
	return harness.Carry{Parts: []harness.Part{{From: src, To: filepath.Join(folderOf(home, dir), id), Dir: true,
		Edit: func(rel string) func([]byte) []byte {
			switch rel {
			case "summary.json":
				return func(d []byte) []byte { return rewriteHome(harness.RewriteField(d, "cwd", from, dir), home) }
			case "prompt_context.json":
				return func(d []byte) []byte { return harness.RewriteField(d, "working_directory", from, dir) }
			case "chat_history.jsonl":
				return func(d []byte) []byte { return rewriteHistory(d, from, dir) }
			}
			return nil
		}}}}, nil
}

// rewriteHistory rewrites the "Workspace Path:" of the context blocks
// Grok puts in chat_history.jsonl (a user line opening with <user_info>
// that is not a prompt), and only there: a prompt that names the path is
// what the user typed.
func rewriteHistory(data []byte, from, dir string) []byte {
	return harness.RewriteLines(data, func(l []byte) []byte {
		if !bytes.Contains(l, []byte("user_info")) || bytes.Contains(l, []byte(`"prompt_index"`)) {
			return l
		}
		var m struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(l, &m) != nil || m.Type != "user" && m.Role != "user" ||
			!strings.HasPrefix(harness.PromptText(m.Content), "<user_info>") {
			return l
		}
		return harness.RewriteInString(l, "Workspace Path: ", from, dir)
	})
}

// rewriteHome points summary.json's grok_home at home.
func rewriteHome(data []byte, home string) []byte {
	var s struct {
		Home string `json:"grok_home"`
	}
	if err := json.Unmarshal(data, &s); err != nil || s.Home == "" || s.Home == home {
		return data
	}
	return harness.RewriteField(data, "grok_home", s.Home, home)
}

// Locate implements Mover; with no cwd, any sessions/*/<id>.
func (grok) Locate(home, cwd, id string) (harness.Placement, bool) {
	if cwd == "" && spec.ID.Valid(id) {
		matches, _ := filepath.Glob(filepath.Join(home, "sessions", "*", id))
		for _, m := range matches {
			if fi, err := os.Lstat(m); err == nil && fi.IsDir() {
				return harness.Placement{Path: m, Dir: true}, true
			}
		}
		return harness.Placement{}, false
	}
	dir, ok := sessionDir(home, cwd, id)
	return harness.Placement{Path: dir, Dir: true}, ok
}

// DirFields implements Mover.
func (grok) DirFields() []string {
	return []string{"the session folder's name", "summary.json info.cwd", "prompt_context.json working_directory",
		`chat_history.jsonl "Workspace Path:"`}
}
