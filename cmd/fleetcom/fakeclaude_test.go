package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
)

func init() {
	registerFake(fake{role: "fake-claude", tool: "claude", dir: "real", main: fakeClaude, vars: []string{"FAKE_CLAUDE_VERSION", "FAKE_CLAUDE_CLEAR_ID", "FAKE_CLAUDE_PRINT_WAIT", "FAKE_CLAUDE_START_FAIL", "FAKE_CLAUDE_START_DELAY"},
		pkg: fakePackage{"@anthropic-ai/claude-code", "2.1.197", "bin/claude.exe"}})
}

// fakeClaude behaves like Claude Code 2.1.197 as it was measured (e2e/ checks the same against the real one),
// or like 2.1.332 with FAKE_CLAUDE_VERSION=2.1.332 (e2e/README.md has the
// measurements): its exit hint repeats launch options by the rule
// claudeEcho follows, and --resume continues a conversation from any
// directory.
func fakeClaude() int {
	version := os.Getenv("FAKE_CLAUDE_VERSION")
	if version == "" {
		version = "2.1.197"
	}
	newer := version != "2.1.197"
	if printVersion(version + " (Claude Code)") {
		return 0
	}
	logArgv("claude")
	var sessionID, resume, settings, prompt, name string
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
		case "--name", "-n":
			name = next()
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
	c := &claudeFake{home: fakeHome("CLAUDE_CONFIG_DIR", ".claude"), cwd: physicalWd(), settings: settings, anyDir: newer, name: name}
	if settings != "" && settings[0] != '{' {
		if _, err := os.Stat(settings); err != nil {
			fmt.Fprintf(os.Stderr, "Error: Settings file not found: %s\n", settings)
			return 1
		}
	}
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
	if msg := os.Getenv("FAKE_CLAUDE_START_FAIL"); msg != "" && !print {
		// A CLI that cannot start (a login gone stale, a setting it
		// refuses): it says why and exits, before any session starts;
		// after FAKE_CLAUDE_START_DELAY, as one slow to load does.
		if d, err := time.ParseDuration(os.Getenv("FAKE_CLAUDE_START_DELAY")); err == nil {
			time.Sleep(d)
		}
		fmt.Fprintf(os.Stderr, "Error: %s\r\n", msg)
		return 1
	}
	c.hook(source)
	if print || !term.IsTerminal(1) {
		if prompt == "" {
			fmt.Fprintln(os.Stderr, "Error: Input must be provided either through stdin or as a prompt argument when using --print")
			return 1
		}
		c.printWait()
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
	var t *tui
	t = &tui{onPrompt: func(text string) { c.prompt(t, text) }, onCmd: func(cmd, arg string) bool {
		switch cmd {
		case "/clear":
			c.leave()
			c.fire("SessionEnd", "", map[string]any{"reason": "clear"})
			c.id, c.name = fakeV4(), ""
			if id := os.Getenv("FAKE_CLAUDE_CLEAR_ID"); id != "" {
				c.id = id // a test's choice, so an order by ID is known
			}
			c.hook("clear")
		case "/rename":
			c.rename(arg)
		case "/subagent":
			c.subagent(arg)
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
	c.fire("SessionEnd", "", map[string]any{"reason": "prompt_input_exit"})
	if c.exists(c.id) {
		line := "claude --resume " + c.id
		switch {
		case newer:
			line = claudeEcho(args, c.id)
		case c.name != "":
			// 2.1.197 resumes a named conversation by its name.
			line = `claude --resume "` + c.name + `"`
		}
		fmt.Print("\r\n\x1b[2mResume this session with:\x1b[22m\r\n\x1b[2m" + line + "\x1b[22m\r\n")
	}
	return code
}

// claudeEcho is the resume line 2.1.332 prints: the launch options repeated
// as written, when every one is a known option and every word a plain one,
// those with a path only when the line fits the terminal; options choosing
// the conversation are left out.
func claudeEcho(args []string, id string) string {
	plain := regexp.MustCompile(`^[A-Za-z0-9_./:+@=-]+$`)
	valued := map[string]bool{"--model": true, "--permission-mode": true, "--add-dir": true, "--append-system-prompt": true,
		"--settings": true, "--allowedTools": true, "--mcp-config": true}
	choosing := map[string]bool{"--resume": true, "-r": true, "--session-id": true, "--name": true, "--worktree": true, "--from-pr": true}
	var kept []string
	pathy := false
	for i := 0; i < len(args) && args[i] != "--"; i++ {
		a := args[i]
		name, _, _ := strings.Cut(a, "=")
		switch {
		case a == "--continue" || a == "-c" || a == "--fork-session":
		case choosing[name]:
			if !strings.Contains(a, "=") {
				i++
			}
		case !strings.HasPrefix(a, "-"): // a prompt
		case !valued[name] && a != "--verbose" && a != "-d":
			return "claude --resume " + id // an option it does not repeat drops them all
		default:
			words := []string{a}
			if valued[a] && i+1 < len(args) {
				i++
				words = append(words, args[i])
				if strings.HasPrefix(args[i], "-") {
					return "claude --resume " + id
				}
			}
			for _, w := range words {
				if !plain.MatchString(w) || strings.HasPrefix(w, "/dev/") || strings.HasPrefix(w, "/proc/") {
					return "claude --resume " + id
				}
				pathy = pathy || strings.ContainsAny(w, "/.")
			}
			kept = append(kept, words...)
		}
	}
	line := strings.Join(append(append([]string{"claude"}, kept...), "--resume", id), " ")
	if cols, _, err := term.GetSize(1); pathy && (err != nil || len(line) > cols) {
		return "claude --resume " + id
	}
	return line
}

type claudeFake struct {
	home, cwd, settings string
	id                  string
	anyDir              bool   // 2.1.332: --resume finds a conversation in any project folder
	name                string // --name, or the last /rename
}

// naming writes the two lines that name a conversation (2.1.197 and
// 2.1.332 alike): a custom-title line and an agent-name line.
func (c *claudeFake) naming() {
	if c.name == "" {
		return
	}
	path := c.transcript(c.id)
	appendJSONL(path, map[string]any{"type": "custom-title", "customTitle": c.name, "sessionId": c.id})
	appendJSONL(path, map[string]any{"type": "agent-name", "agentName": c.name, "sessionId": c.id})
}

// rename is /rename: the naming lines and the command's own lines go to the
// transcript when there is one; before the first prompt the name waits for
// the transcript to be created.
func (c *claudeFake) rename(name string) {
	c.name = name
	if _, err := os.Stat(c.transcript(c.id)); err != nil {
		return
	}
	c.naming()
	path := c.transcript(c.id)
	appendJSONL(path, map[string]any{"type": "system", "subtype": "local_command", "sessionId": c.id, "cwd": c.cwd, "timestamp": stamp(),
		"content": "<command-name>/rename</command-name>\n<command-message>rename</command-message>\n<command-args>" + name + "</command-args>"})
	appendJSONL(path, map[string]any{"type": "system", "subtype": "local_command", "sessionId": c.id, "cwd": c.cwd, "timestamp": stamp(),
		"content": "<local-command-stdout>Session renamed to: " + name + "</local-command-stdout>"})
	fmt.Printf("Session renamed to: %s\r\n", name)
}

// transcript is id's file: in the current directory's project folder, or,
// where the version resumes from any directory, wherever it already is.
func (c *claudeFake) transcript(id string) string {
	here := claudeTranscriptPath(c.home, c.cwd, id)
	if c.anyDir {
		if _, err := os.Stat(here); err != nil {
			if m, _ := filepath.Glob(filepath.Join(c.home, "projects", "*", id+".jsonl")); len(m) == 1 {
				return m[0]
			}
		}
	}
	return here
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
	branch, _ := gitBranch(c.cwd) // on every message line (2.1.197)
	appendJSONL(path, map[string]any{"type": "user", "sessionId": c.id, "cwd": c.cwd, "timestamp": stamp(),
		"message": map[string]any{"role": "user", "content": text}, "gitBranch": branch})
	appendJSONL(path, map[string]any{"type": "assistant", "sessionId": c.id, "cwd": c.cwd, "timestamp": stamp(),
		"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "ACK " + text}}}, "gitBranch": branch})
	fmt.Printf("\x1b[1m⏺\x1b[0m ACK %s\r\n", text)
}

// printWait holds a print-mode run before it answers, as a slow model
// would, until the file FAKE_CLAUDE_PRINT_WAIT names exists; it makes
// <file>.started first, so a test knows the run is under way.
func (c *claudeFake) printWait() {
	wait := os.Getenv("FAKE_CLAUDE_PRINT_WAIT")
	if wait == "" {
		return
	}
	os.WriteFile(wait+".started", nil, 0o644)
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(wait); err == nil {
			return
		}
	}
}

// subagent runs a subagent and a tool with a large output, as Claude Code
// 2.1.197 and 2.1.332 keep them (measured, e2e TestMoveClaudeSide): beside
// the transcript, a folder named by the conversation holding
// subagents/agent-<id>.jsonl (a transcript with cwd on its lines) and its
// .meta.json, and tool-results/<id>.txt, whose path the transcript's tool
// result names in persistedOutputPath.
func (c *claudeFake) subagent(prompt string) {
	path := c.transcript(c.id)
	if _, err := os.Stat(path); err != nil {
		c.metadata()
	}
	side := strings.TrimSuffix(path, ".jsonl")
	agent := strings.ReplaceAll(fakeV4(), "-", "")[:17]
	sub := filepath.Join(side, "subagents", "agent-"+agent+".jsonl")
	for _, role := range []string{"user", "assistant"} {
		appendJSONL(sub, map[string]any{"isSidechain": true, "agentId": agent, "type": role, "sessionId": c.id, "cwd": c.cwd,
			"timestamp": stamp(), "message": map[string]any{"role": role, "content": role + " of the subagent: " + prompt}})
	}
	os.WriteFile(strings.TrimSuffix(sub, ".jsonl")+".meta.json", []byte(`{"agentType":"general-purpose","description":"look"}`), 0o644)
	result := filepath.Join(side, "tool-results", "b"+agent[:8]+".txt")
	os.MkdirAll(filepath.Dir(result), 0o755)
	os.WriteFile(result, []byte(strings.Repeat("tool output\n", 1000)), 0o644)
	appendJSONL(path, map[string]any{"type": "user", "sessionId": c.id, "cwd": c.cwd, "timestamp": stamp(),
		"message":       map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "content": "Output too large. Full output saved to: " + result}}},
		"toolUseResult": map[string]any{"persistedOutputPath": result, "persistedOutputSize": 12000}})
	fmt.Printf("\x1b[1m⏺\x1b[0m subagent done\r\n")
}

// metadata writes the lines a transcript starts with: the name, when it
// has one, then two more.
func (c *claudeFake) metadata() {
	path := c.transcript(c.id)
	c.naming()
	appendJSONL(path, map[string]any{"type": "permission-mode", "permissionMode": "default", "sessionId": c.id})
	appendJSONL(path, map[string]any{"type": "file-history-snapshot", "messageId": fakeV4(), "sessionId": c.id,
		"snapshot": map[string]any{"timestamp": stamp()}})
}

// leave closes the current conversation; one that never got a prompt
// keeps its metadata-only transcript.
func (c *claudeFake) leave() {
	if _, err := os.Stat(c.transcript(c.id)); err != nil {
		c.metadata()
	} else {
		// Claude appends the name again as a session goes on, so its
		// session list finds it in the transcript's tail.
		c.naming()
	}
}

// prompt is one turn in the TUI, with the hooks Claude Code fires
// (measured, e2e/README.md): UserPromptSubmit, then Stop once the answer is
// there, before the spinner's last line. A prompt holding HOLD works until the next line is typed; one
// holding PERMIT asks for a tool's permission (PermissionRequest, then the
// permission_prompt Notification) and runs it on "1" (PostToolUse); any
// other answer interrupts the turn, which fires nothing, as Esc does.
func (c *claudeFake) prompt(t *tui, text string) {
	c.fire("UserPromptSubmit", "", map[string]any{"prompt": text})
	switch {
	case strings.Contains(text, "HOLD"):
		fmt.Print("✻ Working… (esc to interrupt)\r\n")
		if _, ok := t.next(); !ok {
			return
		}
	case strings.Contains(text, "PERMIT"):
		tool := map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "touch permitted"}}
		c.fire("PreToolUse", "Bash", tool)
		c.fire("PermissionRequest", "Bash", tool)
		fmt.Print("Do you want to proceed?\r\n ❯ 1. Yes\r\n   2. No\r\n")
		c.fire("Notification", "permission_prompt", map[string]any{"notification_type": "permission_prompt",
			"message": "Claude needs your permission"})
		if answer, ok := t.next(); !ok || answer != "1" {
			fmt.Print("Interrupted · What should Claude do instead?\r\n")
			return
		}
		c.fire("PostToolUse", "Bash", tool)
	}
	c.say(text)
	c.fire("Stop", "", map[string]any{"last_assistant_message": "ACK " + text})
	// The spinner's line becomes the turn's summary once it is over.
	fmt.Print("✻ Worked for 1s\r\n")
}

// hook runs the SessionStart command hooks of --settings, a file or inline
// JSON, with the real payload on stdin.
func (c *claudeFake) hook(source string) {
	c.fire("SessionStart", source, map[string]any{"source": source, "model": "claude-opus-4"})
}

// fire runs the command hooks of --settings (a file or inline JSON) for
// event whose matcher takes subject (a tool's name, a notification's type,
// a session's source; "" and "*" take all), with the payload on stdin.
func (c *claudeFake) fire(event, subject string, fields map[string]any) {
	if c.settings == "" {
		return
	}
	data := []byte(c.settings)
	if c.settings[0] != '{' {
		var err error
		if data, err = os.ReadFile(c.settings); err != nil {
			return
		}
	}
	var s struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Type, Command string }
		}
	}
	json.Unmarshal(data, &s)
	p := map[string]any{"session_id": c.id, "transcript_path": c.transcript(c.id), "cwd": c.cwd, "hook_event_name": event}
	for k, v := range fields {
		p[k] = v
	}
	payload, _ := json.Marshal(p)
	for _, m := range s.Hooks[event] {
		if m.Matcher != "" && m.Matcher != "*" && !slices.Contains(strings.Split(m.Matcher, "|"), subject) {
			continue
		}
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

// claudeTranscriptPath is where Claude keeps conversation id of cwd under
// home: where its Mover would place the transcript.
func claudeTranscriptPath(home, cwd, id string) string {
	a, _ := agents.Named("claude")
	p, err := a.Behaviour.(harness.Mover).Place(home, cwd, id, cwd, []harness.File{{Name: "transcript.jsonl"}})
	if err != nil {
		panic(err)
	}
	return p.Path
}
