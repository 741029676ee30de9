package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

func init() {
	registerFake(fake{role: "fake-grok", tool: "grok", dir: "real", main: fakeGrok,
		pkg: fakePackage{"@xai-official/grok", "1.0.41", "bin/grok"}})
	registerFake(fake{role: "fake-grok-community", tool: "grok", dir: "community", main: fakeGrokCommunity,
		pkg: fakePackage{"@vibe-kit/grok-cli", "0.0.34", "dist/index.js"}})
}

// fakeGrok behaves like the xAI Grok CLI 1.0.41 (e2e/README.md): the
// session directory exists from the start, under the percent-encoded cwd,
// with summary.json and the history's system lines; a prompt adds Grok's
// <user_info> context, the prompt in <user_query> with its prompt_index,
// the update log and a generated title; active_sessions.json lists the
// session for this process while it runs (following /new) and forgets it on
// a clean exit; the exit text names the session, also one with no prompt.
// --session-id creates (refused when the ID is in use in this cwd or not a
// UUID); --resume continues a session from any directory, running in the
// session's own.
func fakeGrok() int {
	if printVersion("grok 1.0.41 (4220f3b224a6)") {
		return 0
	}
	logArgv("grok")
	home := fakeHome("GROK_HOME", ".grok")
	cwd := physicalWd()
	var create, resume string
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--help", "-h":
			fmt.Println("Usage: grok [OPTIONS] [PROMPT]\n  -s, --session-id <UUID>  Start a new session with this ID\n  -r, --resume [<ID|TITLE>]  Resume a session")
			return 0
		case "--session-id", "-s":
			if i+1 < len(args) {
				i++
				create = args[i]
			}
		case "--resume", "-r":
			if i+1 < len(args) {
				i++
				resume = args[i]
			}
		}
	}
	var s *grokSession
	switch {
	case resume != "":
		matches, _ := filepath.Glob(filepath.Join(home, "sessions", "*", resume))
		if len(matches) != 1 {
			fmt.Fprintf(os.Stderr, "Session %q not found locally, restoring conversation from remote...\nError: Failed to authenticate for session restore\n", resume)
			return 1
		}
		s = loadGrokSession(home, matches[0])
	default:
		id := create
		if id == "" {
			id = fakeV7()
		} else if !safe.UUID(id) {
			fmt.Fprintf(os.Stderr, "Error: Error: --session-id must be a valid UUID (got '%s').\n", id)
			return 1
		}
		if _, err := os.Stat(filepath.Join(home, "sessions", harness.PercentEncode(cwd, ""), id)); err == nil {
			fmt.Fprintf(os.Stderr, "Error: Error: Session ID %s is already in use.\n", id)
			return 1
		}
		s = newGrokSession(home, cwd, id)
	}
	s.activate()
	fmt.Print("\x1b[1mGrok Build\x1b[0m ready\r\n")
	t := &tui{onPrompt: func(text string) { s.prompt(text) }, onCmd: func(cmd, arg string) bool {
		switch cmd {
		case "/new", "/clear":
			s = newGrokSession(home, cwd, fakeV7())
			s.activate()
			fmt.Printf("Session %s\r\n", s.id)
		case "/rename", "/title":
			// A manual title: automatic titling leaves it alone from now
			// on; --auto hands the title back.
			if arg == "--auto" {
				s.manual = ""
			} else {
				s.manual = arg
			}
			s.summary(s.title)
			fmt.Printf("Session renamed to %q\r\n", arg)
		default:
			return false
		}
		return true
	}}
	code, signaled := t.run()
	if !signaled {
		s.deactivate()
	}
	if !signaled || s.prompts > 0 {
		fmt.Print("\r\nResume this session with:\r\n  grok --resume " + s.id + "\r\n")
	}
	if signaled {
		return 0 // Grok exits 0 on SIGTERM
	}
	return code
}

// grokSession is one session directory of the fake.
type grokSession struct {
	home, dir, id, cwd string
	prompts            int
	title              string // the generated title: here, the last prompt
	manual             string // a title given with /rename
}

func newGrokSession(home, cwd, id string) *grokSession {
	s := &grokSession{home: home, dir: filepath.Join(home, "sessions", harness.PercentEncode(cwd, ""), id), id: id, cwd: cwd}
	os.MkdirAll(s.dir, 0o755)
	appendJSONL(filepath.Join(s.dir, "chat_history.jsonl"), map[string]any{"type": "system", "content": "You are Grok."})
	appendJSONL(filepath.Join(s.dir, "chat_history.jsonl"), map[string]any{"type": "user", "content": "<system-reminder>workflows</system-reminder>", "synthetic_reason": "system_reminder"})
	s.summary("")
	return s
}

func loadGrokSession(home, dir string) *grokSession {
	s := &grokSession{home: home, dir: dir, id: filepath.Base(dir)}
	var sum struct {
		Info struct{ Cwd string } `json:"info"`
	}
	var named struct {
		Title  string `json:"generated_title"`
		Manual bool   `json:"title_is_manual"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "summary.json")); err == nil {
		json.Unmarshal(b, &sum)
		json.Unmarshal(b, &named)
	}
	s.cwd, s.title = sum.Info.Cwd, named.Title
	if named.Manual {
		s.manual = named.Title
	}
	if b, err := os.ReadFile(filepath.Join(dir, "updates.jsonl")); err == nil {
		s.prompts = strings.Count(string(b), "user_message_chunk")
	}
	os.Chdir(s.cwd) // a resume runs in the session's own directory
	return s
}

// summary writes summary.json; a session with prompts has a title, and a
// manual title (measured: /rename on 1.0.41) replaces generated_title and
// is marked title_is_manual.
func (s *grokSession) summary(title string) {
	s.title = title
	m := map[string]any{"info": map[string]any{"id": s.id, "cwd": s.cwd}, "created_at": stamp(), "updated_at": stamp(),
		"num_messages": 3 * s.prompts, "session_summary": title}
	if title != "" {
		m["generated_title"], m["last_active_at"] = title, stamp()
	}
	if s.manual != "" {
		m["generated_title"], m["title_is_manual"] = s.manual, true
	}
	b, _ := json.Marshal(m)
	os.WriteFile(filepath.Join(s.dir, "summary.json"), b, 0o644)
}

func (s *grokSession) prompt(text string) {
	if s.prompts == 0 {
		appendJSONL(filepath.Join(s.dir, "chat_history.jsonl"), map[string]any{"type": "user",
			"content": "<user_info>\nOS Version: linux\nShell: /bin/sh\nWorkspace Path: " + s.cwd + "\n</user_info>\n\n<rules>…"})
	}
	appendJSONL(filepath.Join(s.dir, "chat_history.jsonl"), map[string]any{"type": "user", "content": "<user_query>\n" + text + "\n</user_query>", "prompt_index": s.prompts})
	appendJSONL(filepath.Join(s.dir, "chat_history.jsonl"), map[string]any{"type": "assistant", "content": "ACK " + text, "model_id": "fake-model"})
	appendJSONL(filepath.Join(s.dir, "updates.jsonl"), map[string]any{"method": "session/update", "params": map[string]any{"sessionId": s.id,
		"update": map[string]any{"sessionUpdate": "user_message_chunk", "content": map[string]any{"type": "text", "text": text}}}})
	s.prompts++
	s.summary(text)
	fmt.Printf("ACK %s\r\n", text)
}

// activate puts this process's entry in active_sessions.json, replacing
// the one it had.
func (s *grokSession) activate() { s.setActive(s.id) }

func (s *grokSession) deactivate() { s.setActive("") }

func (s *grokSession) setActive(id string) {
	p := filepath.Join(s.home, "active_sessions.json")
	var list []map[string]any
	if b, err := os.ReadFile(p); err == nil {
		json.Unmarshal(b, &list)
	}
	kept := []map[string]any{}
	for _, e := range list {
		if pid, _ := e["pid"].(float64); int(pid) != os.Getpid() {
			kept = append(kept, e)
		}
	}
	if id != "" {
		kept = append(kept, map[string]any{"session_id": id, "pid": os.Getpid(), "cwd": s.cwd, "opened_at": stamp()})
	}
	b, _ := json.Marshal(kept)
	os.MkdirAll(s.home, 0o755)
	tmp := p + ".tmp"
	os.WriteFile(tmp, b, 0o644)
	os.Rename(tmp, p)
}

// fakeGrokCommunity is the community CLI also installed as grok: no session
// flags at all.
func fakeGrokCommunity() int {
	if printVersion("0.0.34") {
		return 0
	}
	logArgv("grok-community")
	for _, a := range os.Args[1:] {
		switch a {
		case "--help", "-h":
			fmt.Println("Usage: grok [options]\n  -d, --directory <dir>\n  -p, --prompt <prompt>")
			return 0
		case "--session-id", "--resume", "-r":
			fmt.Fprintf(os.Stderr, "error: unknown option '%s'\n", a)
			return 1
		}
	}
	fmt.Print("community grok ready\r\n")
	t := &tui{onPrompt: func(text string) { fmt.Printf("ACK %s\r\n", text) }}
	code, _ := t.run()
	return code
}
