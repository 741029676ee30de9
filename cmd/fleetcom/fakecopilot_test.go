package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

func init() {
	registerFake(fake{role: "fake-copilot", tool: "copilot", dir: "real", main: fakeCopilot,
		pkg: fakePackage{"@github/copilot", "1.0.102", "npm-loader.js"}})
}

// fakeCopilot behaves like GitHub's Copilot CLI 1.0.102 (e2e/README.md):
// each session is a folder session-state/<id>/ of its home ($COPILOT_HOME,
// else ~/.copilot) with workspace.yaml from the start and events.jsonl from
// the first prompt; inuse.<pid>.lock while a process has it open (a resumed
// one from its first prompt); --session-id creates a session, or resumes
// one that exists; --resume=<id> resumes from any directory and runs in the
// session's own; the hooks of each --plugin-dir's plugin.json run with
// Copilot's PascalCase payloads, SessionStart at the first prompt; the exit
// summary's Resume line names the session, after a prompt or a resume.
func fakeCopilot() int {
	if printVersion("GitHub Copilot CLI 1.0.102.") {
		return 0
	}
	logArgv("copilot")
	c := &copilotFake{home: fakeHome("COPILOT_HOME", ".copilot"), cwd: physicalWd()}
	var sessionID, resume, prompt, name string
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		opt, val, joined := strings.Cut(args[i], "=")
		next := func() string {
			if joined {
				return val
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch opt {
		case "--help", "-h":
			fmt.Println("Usage: copilot [OPTIONS] [COMMAND]\n  -r, --resume [<value>]\n      --session-id <id>\n      --plugin-dir <directory>\n  -p, --prompt <text>")
			return 0
		case "--plugin-dir":
			c.loadPlugin(next())
		case "--session-id":
			sessionID = next()
		case "--resume", "-r":
			resume = next()
		case "-p", "--prompt":
			prompt = next()
		case "-n", "--name":
			name = next()
		}
	}
	switch {
	case resume != "":
		if !c.open(resume) {
			fmt.Fprintf(os.Stderr, "Error: No session, task, or name matched '%s'.\n\nTo resume by session or task ID:  copilot --resume=<id>\n", resume)
			return 1
		}
	case sessionID != "":
		if !safe.UUID(sessionID) {
			fmt.Fprintf(os.Stderr, "Error: No session or task matched '%s'.\nThe value is not a valid UUID, so a new session cannot be created.\n", sessionID)
			return 1
		}
		if !c.open(sessionID) {
			c.create(sessionID, name)
		}
	default:
		c.create(fakeV4(), name)
	}
	if prompt != "" {
		c.turn(nil, prompt)
		c.close("complete")
		fmt.Fprint(os.Stderr, "\n\nChanges    +0 -0\nDuration   1s\nTokens     ↑ 12.0k • ↓ 8\nResume     copilot --resume="+c.id)
		return 0
	}
	fmt.Print("\x1b[?1049h\x1b[H\x1b[2J  Copilot v1.0.102 uses AI.\r\n")
	var t *tui
	t = &tui{onPrompt: func(text string) { c.turn(t, text) }, onCmd: func(cmd, arg string) bool {
		switch cmd {
		case "/clear", "/new":
			c.close("user_exit")
			c.create(fakeV4(), "")
			fmt.Print(" ● Started a fresh session.\r\n")
		case "/rename":
			c.name, c.named = arg, true
			c.workspace()
			fmt.Printf(" ● Session renamed to: %s\r\n", arg)
		default:
			return false
		}
		return true
	}}
	code, signaled := t.run()
	if signaled {
		c.unlock()
		return 0 // measured: SIGTERM ends it with status 0, and no summary
	}
	summary := c.prompts > 0 || c.resumed
	c.close("user_exit")
	fmt.Print("\x1b[?1049l")
	if summary {
		fmt.Print("\r\n  ╭─╮╭─╮   Changes    +0 -0\r\n   ▔▔▔▔    Resume     copilot --resume=" + c.id + "\r\n")
	}
	return code
}

// copilotFake is the session a fake run has open.
type copilotFake struct {
	home, cwd, id string
	dir           string
	name          string
	named         bool
	resumed       bool // opened with --resume or an existing --session-id
	prompts       int  // in this run
	locked        bool
	hooks         map[string][]string // event -> bash commands
}

// loadPlugin reads the hooks of dir/plugin.json, as given inline.
func (c *copilotFake) loadPlugin(dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "plugin.json"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "Warning: [plugin-dir] no plugin.json or SKILL.md found in %s\n", dir)
		return
	}
	var p struct {
		Hooks map[string][]struct{ Type, Bash string }
	}
	json.Unmarshal(b, &p)
	if c.hooks == nil {
		c.hooks = map[string][]string{}
	}
	for event, hs := range p.Hooks {
		for _, h := range hs {
			if h.Type == "command" {
				c.hooks[event] = append(c.hooks[event], h.Bash)
			}
		}
	}
}

// fire runs the hooks of event with Copilot's payload, in the plugin's
// folder's stead the fake's working directory.
func (c *copilotFake) fire(event string, fields map[string]any) {
	p := map[string]any{"hook_event_name": event, "session_id": c.id, "timestamp": stamp(), "cwd": c.cwd}
	for k, v := range fields {
		p[k] = v
	}
	payload, _ := json.Marshal(p)
	for _, command := range c.hooks[event] {
		cmd := exec.Command("/bin/sh", "-c", command)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Run()
	}
}

func (c *copilotFake) create(id, name string) {
	c.id, c.dir, c.resumed, c.prompts = id, filepath.Join(c.home, "session-state", id), false, 0
	c.name, c.named = name, name != ""
	os.MkdirAll(filepath.Join(c.dir, "checkpoints"), 0o700)
	c.workspace()
	c.lock()
}

// open resumes session id: the run goes on in its directory.
func (c *copilotFake) open(id string) bool {
	dir := filepath.Join(c.home, "session-state", id)
	if _, err := os.Stat(filepath.Join(dir, "events.jsonl")); err != nil || !safe.UUID(id) {
		return false
	}
	c.id, c.dir, c.resumed, c.prompts = id, dir, true, 0
	b, _ := os.ReadFile(filepath.Join(dir, "workspace.yaml"))
	for _, l := range strings.Split(string(b), "\n") {
		switch k, v, _ := strings.Cut(l, ": "); k {
		case "cwd":
			if u, err := strconv.Unquote(v); err == nil {
				v = u
			} else if len(v) > 1 && v[0] == '\'' {
				v = strings.ReplaceAll(v[1:len(v)-1], "''", "'")
			}
			c.cwd = v
		case "name":
			c.name = v
		case "user_named":
			c.named = v == "true"
		}
	}
	os.Chdir(c.cwd)
	return true
}

// workspace writes workspace.yaml as Copilot's YAML writer does.
func (c *copilotFake) workspace() {
	cwd := c.cwd
	switch {
	case strings.ContainsAny(cwd, "\t\n"):
		cwd = strconv.Quote(cwd)
	case strings.Contains(cwd, ": ") || strings.Contains(cwd, " #"):
		cwd = "'" + strings.ReplaceAll(cwd, "'", "''") + "'"
	}
	s := "id: " + c.id + "\ncwd: " + cwd + "\nclient_name: github/cli\n"
	if c.name != "" {
		s += "name: " + c.name + "\n"
	}
	s += "user_named: " + strconv.FormatBool(c.named) + "\nsummary_count: 0\nfork_count: 0\ncreated_at: " + stamp() + "\nupdated_at: " + stamp() + "\n"
	os.WriteFile(filepath.Join(c.dir, "workspace.yaml"), []byte(s), 0o600)
}

func (c *copilotFake) lock() {
	pid := strconv.Itoa(os.Getpid())
	os.WriteFile(filepath.Join(c.dir, "inuse."+pid+".lock"), []byte(pid), 0o644)
	os.WriteFile(filepath.Join(c.dir, "inuse."+pid+".hold"), nil, 0o644)
	c.locked = true
}

func (c *copilotFake) unlock() {
	pid := strconv.Itoa(os.Getpid())
	os.Remove(filepath.Join(c.dir, "inuse."+pid+".lock"))
	os.Remove(filepath.Join(c.dir, "inuse."+pid+".hold"))
	c.locked = false
}

func (c *copilotFake) event(typ string, data map[string]any) {
	appendJSONL(filepath.Join(c.dir, "events.jsonl"), map[string]any{"type": typ, "data": data, "id": fakeV4(), "timestamp": stamp()})
}

// turn answers one prompt. The first of a run starts the session:
// session.start (or session.resume), the lock of a resumed one, and
// SessionStart. A prompt holding HOLD works until the next line is typed;
// one holding PERMIT asks to run a command (Notification
// permission_prompt) until "1" allows it.
func (c *copilotFake) turn(t *tui, text string) {
	if c.prompts == 0 {
		source := "new"
		if c.resumed {
			source = "resume"
			c.event("session.resume", map[string]any{"resumeTime": stamp(), "context": map[string]any{"cwd": c.cwd}})
			if !c.locked {
				c.lock()
			}
		} else {
			c.event("session.start", map[string]any{"sessionId": c.id, "version": 1, "copilotVersion": "1.0.102",
				"startTime": stamp(), "context": map[string]any{"cwd": c.cwd}})
		}
		c.fire("SessionStart", map[string]any{"source": source, "initial_prompt": text})
	}
	c.prompts++
	c.fire("UserPromptSubmit", map[string]any{"prompt": text})
	c.event("user.message", map[string]any{"content": text, "transformedContent": "<current_datetime>" + stamp() + "</current_datetime>\n\n" + text})
	if !c.named && c.prompts == 1 && !c.resumed {
		c.name = text
		c.workspace()
	}
	switch {
	case t == nil:
	case strings.Contains(text, "HOLD"):
		// The footer's spinner turns while the turn runs.
		done := make(chan struct{})
		go func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				case <-time.After(100 * time.Millisecond):
					fmt.Printf("\r %s Working · esc esc interrupt", []string{"◉", "●"}[i%2])
				}
			}
		}()
		_, ok := t.next()
		close(done)
		fmt.Print("\r\n")
		if !ok {
			return
		}
	case strings.Contains(text, "PERMIT"):
		fmt.Print(" Do you want to run this command?\r\n ❯ 1. Yes\r\n")
		c.fire("Notification", map[string]any{"message": "Run command: touch permitted", "title": "Permission needed",
			"notification_type": "permission_prompt"})
		// The tool's line counts the seconds while the prompt waits.
		fmt.Print(" $ Shell touch permitted 1s\r\n")
		if answer, ok := t.next(); !ok || answer != "1" {
			return
		}
		c.fire("PostToolUse", map[string]any{"tool_name": "Bash"})
	}
	c.event("assistant.message", map[string]any{"content": "ACK " + text})
	if t == nil {
		fmt.Println("ACK " + text)
	} else {
		fmt.Printf(" ● ACK %s\r\n", text)
	}
	c.fire("Stop", map[string]any{"stop_reason": "end_turn"})
	if t != nil {
		// The footer, redrawn once the turn is over.
		fmt.Print(" ← open sidebar · / commands · ? help\r\n")
	}
}

// close ends the session the run has open.
func (c *copilotFake) close(reason string) {
	if c.prompts > 0 {
		c.event("session.shutdown", map[string]any{})
		c.fire("SessionEnd", map[string]any{"reason": reason})
	}
	c.unlock()
}
