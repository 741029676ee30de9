package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pelletier/go-toml/v2"
	"golang.org/x/term"
)

func init() {
	registerFake(fake{role: "fake-codex", tool: "codex", dir: "real", main: fakeCodex, vars: []string{"FAKE_CODEX_TITLE_FIRST"},
		pkg: fakePackage{"@openai/codex", "0.171.0", "bin/codex.js"}})
}

// fakeCodex behaves like Codex CLI 0.171.0 as it was measured (e2e/ checks the same against the real one).
func fakeCodex() int {
	if printVersion("codex-cli 0.171.0") {
		return 0
	}
	logArgv("codex")
	c := &codexFake{home: fakeHome("CODEX_HOME", ".codex"), cwd: physicalWd(), started: map[string]bool{}}
	var overrides []string
	var sub, resume, profile, prompt string
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--help" || a == "-h":
			fmt.Println("Usage: codex [OPTIONS] [PROMPT]\n       codex [OPTIONS] <COMMAND>\nCommands: exec, resume, fork\n  -c, --config <key=value>\n  -p, --profile <name>")
			return 0
		case a == "-c" || a == "--config":
			if i+1 < len(args) {
				i++
				overrides = append(overrides, args[i])
			}
		case a == "--profile" || a == "-p":
			if i+1 < len(args) {
				i++
				profile = args[i]
			}
		case sub == "" && (a == "resume" || a == "exec" || a == "fork"):
			sub = a
		case sub == "resume" && resume == "" && !strings.HasPrefix(a, "-"):
			resume = a
		case !strings.HasPrefix(a, "-"):
			prompt = a
		}
	}
	if err := c.loadNotify(overrides, profile); err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		return 1
	}
	c.loadHooks(overrides)
	if sub == "exec" {
		c.thread = fakeV7()
		c.turn(prompt)
		c.wait()
		return 0
	}
	if !term.IsTerminal(0) || !term.IsTerminal(1) {
		fmt.Fprintln(os.Stderr, "Error: stdin is not a terminal")
		return 1
	}
	if sub == "resume" {
		if resume == "" || resume == "--last" {
			fmt.Fprintln(os.Stderr, "fake codex: picker not supported")
			return 1
		}
		if c.rollout(resume) == "" {
			fmt.Fprintf(os.Stderr, "ERROR: No saved session found with ID %s. Run `codex resume` without an ID to choose from existing sessions.\n", resume)
			return 1
		}
		c.thread, c.path = resume, c.rollout(resume)
		c.started[resume] = true
		c.hold()
	} else {
		c.thread = fakeV7()
	}
	fmt.Print("\x1b[?1049h\x1b[H\x1b[2J\x1b[1m>_ OpenAI Codex\x1b[0m (v0.171.0)\r\n\x1b[2mdirectory: " + c.cwd + "\x1b[22m\r\n")
	if prompt != "" {
		c.turn(prompt)
	}
	var t *tui
	t = &tui{onPrompt: func(text string) { c.prompt(t, text) }, onCmd: func(cmd, arg string) bool {
		switch cmd {
		case "/rename":
			c.name(c.thread, arg)
		case "/new":
			c.release()
			c.thread, c.path = fakeV7(), ""
		case "/subagent":
			sub := fakeV7()
			writeRollout(c.home, sub, c.cwd, "subagent")
			c.notify(sub)
		default:
			return false
		}
		return true
	}}
	if len(c.untrusted) > 0 {
		// Codex asks before running hooks it has not been told to trust.
		t.start()
		fmt.Print("  Hooks need review\r\n  " + fmt.Sprint(len(c.untrusted)) + " hooks are new or changed.\r\n" +
			"› 1. Review hooks\r\n  2. Trust all and continue\r\n  3. Continue without trusting (hooks won't run)\r\n")
		if answer, _ := t.next(); answer == "2" {
			c.trust()
		} else {
			c.hooks = nil
		}
	}
	code, byTerm := t.run()
	c.fire("SessionEnd", map[string]any{"reason": "other"})
	c.release()
	c.wait()
	fmt.Print("\x1b[?1049l")
	if byTerm {
		return code
	}
	if c.path != "" {
		fmt.Print("\x1b[2mTo continue this session, run:\x1b[22m\r\n  \x1b[1mcodex resume " + c.thread + "\x1b[0m\r\nOr run codex resume and select \x1b[36m" + c.threadName(c.thread) + "\x1b[0m.\r\n")
	} else {
		fmt.Print("Session ID: " + c.thread + "\r\n")
	}
	return code
}

type codexFake struct {
	home, cwd string
	notifyCmd []string
	hooks     map[string][]string // event: the commands of its hooks
	untrusted []string            // hooks config.toml records no trust of
	thread    string
	path      string // rollout of the current thread, once written
	held      *os.File
	started   map[string]bool
	pending   sync.WaitGroup
}

// loadNotify settles the effective notify: a -c override beats config.toml.
func (c *codexFake) loadNotify(overrides []string, profile string) error {
	var cfg struct {
		Profile *string  `toml:"profile"`
		Notify  []string `toml:"notify"`
	}
	if data, err := os.ReadFile(filepath.Join(c.home, "config.toml")); err == nil {
		if err := toml.Unmarshal(data, &cfg); err != nil {
			return fmt.Errorf("config.toml: %v", err)
		}
	}
	if cfg.Profile != nil {
		return fmt.Errorf("legacy `profile` config is no longer supported; use --profile")
	}
	c.notifyCmd = cfg.Notify
	if profile != "" {
		var p struct{ Notify []string }
		if data, err := os.ReadFile(filepath.Join(c.home, profile+".config.toml")); err == nil {
			if err := toml.Unmarshal(data, &p); err == nil && p.Notify != nil {
				c.notifyCmd = p.Notify
			}
		}
	}
	for _, o := range overrides {
		var v struct{ Notify []string }
		if strings.HasPrefix(o, "notify=") {
			if err := toml.Unmarshal([]byte(o), &v); err != nil {
				return fmt.Errorf("invalid override %q: %v", o, err)
			}
			c.notifyCmd = v.Notify
		}
	}
	return nil
}

// turn answers a prompt: the rollout is written at the first one, and the
// notifier runs after each turn; the first turn of a thread in the TUI also
// notifies for a title-generation side thread that has no rollout, after
// the real thread's, or before it with FAKE_CODEX_TITLE_FIRST=1 (on a busy
// machine the title thread can finish first: measured).
func (c *codexFake) turn(text string) {
	if c.path == "" {
		c.path = writeRollout(c.home, c.thread, c.cwd, "user")
	}
	c.hold()
	appendJSONL(c.path, map[string]any{"timestamp": stamp(), "type": "event_msg", "payload": map[string]any{"type": "user_message", "message": text}})
	appendJSONL(c.path, map[string]any{"timestamp": stamp(), "type": "response_item", "payload": map[string]any{"type": "message", "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "text": "ACK " + text}}}})
	fmt.Printf("\x1b[1m•\x1b[0m ACK %s\r\n", text)
	title := !c.started[c.thread]
	c.started[c.thread] = true
	if title && os.Getenv("FAKE_CODEX_TITLE_FIRST") == "1" {
		c.notify(fakeV7())
		title = false
	}
	c.notify(c.thread)
	if title {
		c.notify(fakeV7())
		// After its first turn Codex names the thread itself, from a title
		// the model writes (measured on 0.171.0); the fake's model writes
		// the prompt.
		c.name(c.thread, text)
	}
}

// name appends a thread name to session_index.jsonl, as the first turn and
// /rename do.
func (c *codexFake) name(thread, name string) {
	appendJSONL(filepath.Join(c.home, "session_index.jsonl"), map[string]any{"id": thread, "thread_name": name,
		"updated_at": time.Now().UTC().Format(time.RFC3339Nano)})
}

// threadName is the last name session_index.jsonl gives thread.
func (c *codexFake) threadName(thread string) string {
	data, _ := os.ReadFile(filepath.Join(c.home, "session_index.jsonl"))
	name := "fake-thread"
	for _, line := range strings.Split(string(data), "\n") {
		var l struct {
			ID   string `json:"id"`
			Name string `json:"thread_name"`
		}
		if json.Unmarshal([]byte(line), &l) == nil && l.ID == thread {
			name = l.Name
		}
	}
	return name
}

// hold keeps the current rollout open, as Codex 0.171.0 does for the whole
// run (measured: /proc/<pid>/fd/50 -> rollout-….jsonl).
func (c *codexFake) hold() {
	if c.held != nil || c.path == "" {
		return
	}
	c.held, _ = os.OpenFile(c.path, os.O_WRONLY|os.O_APPEND, 0)
}

// release closes the rollout held open.
func (c *codexFake) release() {
	if c.held != nil {
		c.held.Close()
		c.held = nil
	}
}

// notify runs the notifier with the payload as its last argument, without
// waiting for it, as Codex does.
func (c *codexFake) notify(thread string) {
	if len(c.notifyCmd) == 0 {
		return
	}
	payload, _ := json.Marshal(map[string]any{"type": "agent-turn-complete", "thread-id": thread, "turn-id": fakeV4(),
		"cwd": c.cwd, "client": "codex-tui", "input-messages": []string{"hi $(touch pwned)"}, "last-assistant-message": "ACK `x`"})
	cmd := exec.Command(c.notifyCmd[0], append(c.notifyCmd[1:], string(payload))...)
	if err := cmd.Start(); err != nil {
		return
	}
	c.pending.Add(1)
	go func() {
		defer c.pending.Done()
		cmd.Wait()
	}()
	// Give the notifier a moment, as a turn does, so its write usually
	// lands before the next prompt; correctness never depends on it.
	time.Sleep(20 * time.Millisecond)
}

// wait lets running notifiers finish before exiting, for at most a minute:
// on a loaded machine a notifier chain can take seconds to start.
func (c *codexFake) wait() {
	done := make(chan struct{})
	go func() { c.pending.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
	}
}

// rollout finds the rollout of id anywhere under sessions/.
func (c *codexFake) rollout(id string) string {
	matches, _ := filepath.Glob(filepath.Join(c.home, "sessions", "*", "*", "*", "rollout-*-"+id+".jsonl"))
	if len(matches) == 1 {
		return matches[0]
	}
	return ""
}

// writeRollout creates a rollout in the local-time day directory with its
// session_meta line.
func writeRollout(home, id, cwd, source string) string {
	now := time.Now()
	path := filepath.Join(home, "sessions", now.Format("2006"), now.Format("01"), now.Format("02"),
		"rollout-"+now.Format("2006-01-02T15-04-05")+"-"+id+".jsonl")
	meta := map[string]any{"id": id, "session_id": id, "timestamp": stamp(), "cwd": cwd, "originator": "codex_cli_rs",
		"cli_version": "0.171.0", "source": "cli", "thread_source": source}
	if branch, ok := gitBranch(cwd); ok && branch != "HEAD" {
		meta["git"] = map[string]any{"branch": branch} // and commit_hash (0.171.0)
	}
	appendJSONL(path, map[string]any{"timestamp": stamp(), "type": "session_meta", "payload": meta})
	return path
}

// The hooks of the fake: -c hooks.<Event>=[…] overrides, run only once
// config.toml records their trust, as Codex 0.171.0 does (e2e/README.md).
// Trust is kept per event, as Codex keys it; the hash stands for the
// definition.

// loadHooks reads the hook overrides and which of them are not trusted yet.
func (c *codexFake) loadHooks(overrides []string) {
	c.hooks = map[string][]string{}
	var state map[string]any
	if data, err := os.ReadFile(filepath.Join(c.home, "config.toml")); err == nil {
		var cfg struct {
			Hooks struct {
				State map[string]any `toml:"state"`
			} `toml:"hooks"`
		}
		toml.Unmarshal(data, &cfg)
		state = cfg.Hooks.State
	}
	for _, o := range overrides {
		if !strings.HasPrefix(o, "hooks.") {
			continue
		}
		var v struct {
			Hooks map[string][]struct {
				Hooks []struct{ Type, Command string }
			}
		}
		if toml.Unmarshal([]byte(o), &v) != nil {
			continue
		}
		for event, groups := range v.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					c.hooks[event] = append(c.hooks[event], h.Command)
					if _, ok := state[codexTrustKey(event)]; !ok {
						c.untrusted = append(c.untrusted, event)
					}
				}
			}
		}
	}
}

// codexTrustKey is where Codex records the trust of a session-flags hook.
func codexTrustKey(event string) string {
	var b strings.Builder
	for i, r := range event {
		if 'A' <= r && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return "/<session-flags>/config.toml:" + b.String() + ":0:0"
}

// trust records the trust of every hook in config.toml, as Codex's "Trust
// all and continue" does.
func (c *codexFake) trust() {
	p := filepath.Join(c.home, "config.toml")
	os.MkdirAll(c.home, 0o700)
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprint(f, "\n[hooks.state]\n")
	for event := range c.hooks {
		fmt.Fprintf(f, "\n[hooks.state.%q]\ntrusted_hash = \"sha256:%064x\"\n", codexTrustKey(event), len(event))
	}
	c.untrusted = nil
}

// fire runs the hooks of event with its payload on stdin.
func (c *codexFake) fire(event string, fields map[string]any) {
	p := map[string]any{"session_id": c.thread, "cwd": c.cwd, "hook_event_name": event, "model": "fake-model",
		"permission_mode": "default"}
	for k, v := range fields {
		p[k] = v
	}
	payload, _ := json.Marshal(p)
	for _, command := range c.hooks[event] {
		cmd := exec.Command("/bin/sh", "-c", command)
		cmd.Stdin = strings.NewReader(string(payload))
		cmd.Run()
	}
}

// prompt is one turn in the TUI, with the hooks Codex fires: SessionStart
// at the thread's first prompt, UserPromptSubmit, and Stop once the answer
// is there. HOLD works until the next line is typed, drawing its timer
// meanwhile as Codex does; PERMIT asks to approve a command (PermissionRequest)
// and runs it on "1" (PostToolUse), anything else interrupts the turn
// (Interrupt).
func (c *codexFake) prompt(t *tui, text string) {
	if c.path == "" {
		c.path = writeRollout(c.home, c.thread, c.cwd, "user")
		c.fire("SessionStart", map[string]any{"source": "startup", "transcript_path": c.path})
	}
	c.fire("UserPromptSubmit", map[string]any{"prompt": text})
	switch {
	case strings.Contains(text, "HOLD"):
		done := make(chan struct{})
		go func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				case <-time.After(100 * time.Millisecond):
					fmt.Printf("\r• Working (%ds • esc to interrupt)", i/10)
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
		c.fire("PermissionRequest", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "touch permitted"}})
		fmt.Print("  Would you like to run the following command?\r\n› 1. Yes, proceed (y)\r\n  3. No (esc)\r\n")
		if answer, ok := t.next(); !ok || answer != "1" {
			c.fire("Interrupt", nil)
			fmt.Print("■ Conversation interrupted\r\n")
			return
		}
		c.fire("PostToolUse", map[string]any{"tool_name": "Bash"})
	}
	c.turn(text)
	c.fire("Stop", map[string]any{"last_assistant_message": "ACK " + text})
	fmt.Print("  Worked for 1s\r\n")
}
