package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// CopilotSession is what one folder of Copilot's session-state holds, as
// far as the suite cares.
type CopilotSession struct {
	Dir string
	// From events.jsonl: whether it is there, the ID and directory of its
	// session.start, the directory of each session.resume, the prompts
	// typed (user.message) and the answers (assistant.message).
	HasEvents     bool
	ID, StartCWD  string
	ResumeCWDs    []string
	Prompts       []string
	Answers       []string
	Hooks         []string // hook.start types, in order
	Shutdowns     int
	Workspace     map[string]string // workspace.yaml's one-line values
	Locks, Holds  []string          // inuse.<pid>.lock and .hold files
	WorkspaceText string
}

// CopilotSessions returns the sessions of a Copilot home, by folder name.
func CopilotSessions(home string) map[string]CopilotSession {
	out := map[string]CopilotSession{}
	root := filepath.Join(home, "session-state")
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out[e.Name()] = ReadCopilotSession(filepath.Join(root, e.Name()))
		}
	}
	return out
}

// ReadCopilotSession reads one session folder.
func ReadCopilotSession(dir string) CopilotSession {
	s := CopilotSession{Dir: dir, Workspace: map[string]string{}}
	if b, err := os.ReadFile(filepath.Join(dir, "workspace.yaml")); err == nil {
		s.WorkspaceText = string(b)
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ": "); ok && !strings.HasPrefix(l, " ") {
				s.Workspace[k] = v
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		switch n := e.Name(); {
		case strings.HasPrefix(n, "inuse.") && strings.HasSuffix(n, ".lock"):
			s.Locks = append(s.Locks, n)
		case strings.HasPrefix(n, "inuse.") && strings.HasSuffix(n, ".hold"):
			s.Holds = append(s.Holds, n)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		return s
	}
	s.HasEvents = true
	forLines(b, func(line []byte) {
		var e struct {
			Type string `json:"type"`
			Data struct {
				SessionID string `json:"sessionId"`
				Content   string `json:"content"`
				HookType  string `json:"hookType"`
				Context   struct {
					Cwd string `json:"cwd"`
				} `json:"context"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &e) != nil {
			return
		}
		switch e.Type {
		case "session.start":
			s.ID, s.StartCWD = e.Data.SessionID, e.Data.Context.Cwd
		case "session.resume":
			s.ResumeCWDs = append(s.ResumeCWDs, e.Data.Context.Cwd)
		case "user.message":
			s.Prompts = append(s.Prompts, e.Data.Content)
		case "assistant.message":
			s.Answers = append(s.Answers, e.Data.Content)
		case "hook.start":
			s.Hooks = append(s.Hooks, e.Data.HookType)
		case "session.shutdown":
			s.Shutdowns++
		}
	})
	return s
}

// copilotConversations lists the sessions that hold a prompt.
func copilotConversations(sessions map[string]CopilotSession) []string {
	var out []string
	for id, s := range sessions {
		if len(s.Prompts) > 0 {
			out = append(out, id)
		}
	}
	return out
}

// CopilotHookRecorder writes a plugin into the world whose hooks record
// each event's payload as one line "<event> <payload>" in the returned
// file, and returns the plugin's folder.
func (w *World) CopilotHookRecorder(events ...string) (plugin, record string) {
	w.t.Helper()
	plugin = filepath.Join(w.Root, "probe-plugin")
	record = filepath.Join(w.Root, "copilot-hooks.log")
	hooks := map[string]any{}
	for _, e := range events {
		cmd := "p=$(tr -d '\\r\\n'); printf '%s %s\\n' " + shellQuote(e) + " \"$p\" >> " + shellQuote(record)
		hooks[e] = []any{map[string]any{"type": "command", "bash": cmd}}
	}
	w.writeJSON(filepath.Join(plugin, "plugin.json"), map[string]any{"name": "probe", "version": "0.0.1", "hooks": hooks})
	return plugin, record
}

// CopilotHooks reads what CopilotHookRecorder's hooks recorded, by event.
func CopilotHooks(record string) map[string][]map[string]any {
	out := map[string][]map[string]any{}
	b, _ := os.ReadFile(record)
	forLines(b, func(line []byte) {
		event, payload, ok := strings.Cut(string(line), " ")
		var m map[string]any
		if ok && json.Unmarshal([]byte(payload), &m) == nil {
			out[event] = append(out[event], m)
		}
	})
	return out
}
