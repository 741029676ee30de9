package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"golang.org/x/term"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// fakeClaude behaves like Claude Code 2.1.197 as CLI-FACTS.md records it.
func fakeClaude() int {
	if printVersion("2.1.197 (Claude Code)") {
		return 0
	}
	logArgv("claude")
	var sessionID, resume, settings, prompt string
	print, fork := false, false
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch a := args[i]; a {
		case "--help", "-h":
			fmt.Println("Usage: claude [options] [prompt]\n  --session-id <uuid>\n  -r, --resume [id]\n  --settings <file>\n  -p, --print")
			return 0
		case "--session-id":
			sessionID = next()
		case "--resume", "-r":
			resume = next()
		case "--settings":
			settings = next()
		case "-p", "--print":
			print = true
		case "--fork-session":
			fork = true
		case "--model", "--permission-mode", "--add-dir", "--append-system-prompt":
			next()
		default:
			if a != "" && a[0] != '-' {
				prompt = a
			}
		}
	}
	c := &claudeFake{home: fakeHome("CLAUDE_CONFIG_DIR", ".claude"), cwd: physicalWd(), settings: settings}
	if sessionID != "" && !safe.UUID(sessionID) {
		fmt.Fprintln(os.Stderr, "Error: Invalid session ID. Must be a valid UUID.")
		return 1
	}
	if sessionID != "" && resume != "" && !fork {
		fmt.Fprintln(os.Stderr, "Error: --session-id cannot be used with --resume or --continue unless --fork-session is also specified.")
		return 1
	}
	source := "startup"
	switch {
	case resume != "":
		if !c.exists(resume) {
			fmt.Printf("No conversation found with session ID: %s\n", resume)
			return 1
		}
		c.id, source = resume, "resume"
	case sessionID != "":
		if _, err := os.Stat(c.transcript(sessionID)); err == nil {
			fmt.Fprintf(os.Stderr, "Error: Session ID %s is already in use.\n", sessionID)
			return 1
		}
		c.id = sessionID
	default:
		c.id = fakeV4()
	}
	c.hook(source)
	if print || !term.IsTerminal(1) {
		if prompt == "" {
			fmt.Fprintln(os.Stderr, "Error: Input must be provided either through stdin or as a prompt argument when using --print")
			return 1
		}
		c.say(prompt)
		return 0
	}
	session := filepath.Join(c.home, "sessions", strconv.Itoa(os.Getpid())+".json")
	os.MkdirAll(filepath.Dir(session), 0o700)
	b, _ := json.Marshal(map[string]any{"pid": os.Getpid(), "sessionId": c.id, "cwd": c.cwd, "startedAt": stamp()})
	os.WriteFile(session, b, 0o600)
	defer os.Remove(session)

	fmt.Print("\x1b]0;✳ Claude Code\x07\x1b[38;5;174m✻\x1b[0m Welcome to Claude Code!\r\n\x1b[2m  cwd: " + c.cwd + "\x1b[22m\r\n")
	if prompt != "" {
		c.say(prompt)
	}
	t := &tui{onPrompt: c.say, onCmd: func(cmd, arg string) bool {
		switch cmd {
		case "/clear":
			c.leave()
			c.id = fakeV4()
			c.hook("clear")
		case "/resume":
			if !c.exists(arg) {
				fmt.Printf("No conversation found with session ID: %s\r\n", arg)
				return true
			}
			c.leave()
			c.id = arg
			c.hook("resume")
		default:
			return false
		}
		return true
	}}
	code, _ := t.run()
	c.leave()
	if c.exists(c.id) {
		fmt.Print("\r\n\x1b[2mResume this session with:\x1b[22m\r\n\x1b[2mclaude --resume " + c.id + "\x1b[22m\r\n")
	}
	return code
}

type claudeFake struct {
	home, cwd, settings string
	id                  string
}

func (c *claudeFake) transcript(id string) string {
	return filepath.Join(c.home, "projects", harness.ClaudeSlug(c.cwd), id+".jsonl")
}

// exists: resume is scoped to the current directory's project folder, and a
// metadata-only transcript holds no conversation.
func (c *claudeFake) exists(id string) bool {
	b, err := os.ReadFile(c.transcript(id))
	return err == nil && (bytes.Contains(b, []byte(`"type":"user"`)) || bytes.Contains(b, []byte(`"type":"assistant"`)))
}

// say answers a prompt; the transcript is created at the first one.
func (c *claudeFake) say(text string) {
	path := c.transcript(c.id)
	if _, err := os.Stat(path); err != nil {
		c.metadata()
	}
	appendJSONL(path, map[string]any{"type": "user", "sessionId": c.id, "cwd": c.cwd, "timestamp": stamp(),
		"message": map[string]any{"role": "user", "content": text}})
	appendJSONL(path, map[string]any{"type": "assistant", "sessionId": c.id, "cwd": c.cwd, "timestamp": stamp(),
		"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "ACK " + text}}}})
	fmt.Printf("\x1b[1m⏺\x1b[0m ACK %s\r\n", text)
}

// metadata writes the two lines a transcript starts with.
func (c *claudeFake) metadata() {
	path := c.transcript(c.id)
	appendJSONL(path, map[string]any{"type": "permission-mode", "permissionMode": "default", "sessionId": c.id})
	appendJSONL(path, map[string]any{"type": "file-history-snapshot", "messageId": fakeV4(), "sessionId": c.id,
		"snapshot": map[string]any{"timestamp": stamp()}})
}

// leave closes the current conversation; one that never got a prompt
// keeps its metadata-only transcript.
func (c *claudeFake) leave() {
	if _, err := os.Stat(c.transcript(c.id)); err != nil {
		c.metadata()
	}
}

// hook runs the SessionStart command hooks of the --settings file with the
// real payload on stdin.
func (c *claudeFake) hook(source string) {
	if c.settings == "" {
		return
	}
	data, err := os.ReadFile(c.settings)
	if err != nil {
		fmt.Fprintf(os.Stderr, "Error: settings file not found: %s\n", c.settings)
		return
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct{ Type, Command string }
		}
	}
	json.Unmarshal(data, &s)
	payload, _ := json.Marshal(map[string]any{"session_id": c.id, "transcript_path": c.transcript(c.id),
		"cwd": c.cwd, "hook_event_name": "SessionStart", "source": source, "model": "claude-opus-4"})
	for _, m := range s.Hooks["SessionStart"] {
		for _, h := range m.Hooks {
			if h.Type != "command" {
				continue
			}
			cmd := exec.Command("/bin/sh", "-c", h.Command)
			cmd.Stdin = bytes.NewReader(payload)
			cmd.Env = append(os.Environ(), "CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID="+c.id)
			cmd.Run()
		}
	}
}
