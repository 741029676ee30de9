package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

func init() {
	registerFake(fake{role: "fake-gemini", tool: "gemini", dir: "real", main: fakeGemini,
		vars: []string{"GEMINI_CLI_HOME", "FAKE_GEMINI_LATER", "FAKE_GEMINI_COLUMNS"},
		pkg:  fakePackage{"@google/gemini-cli", "0.61.0", "bundle/gemini.js"}})
}

// fakeGemini behaves like Gemini CLI 0.61.0 (e2e/README.md has the
// measurements). Its home is $GEMINI_CLI_HOME/.gemini, else ~/.gemini.
// Each start registers the directory (projects.json and the .project_root
// markers) and first runs the session cleanup that is on by default: every
// session file with nothing to resume goes, with every file named by the
// same short ID, unless it is the session this run opens. The session file
// is there from the start, holding the session context; a run quit before
// its first prompt deletes it. --session-id creates (an ID that is there:
// exit 42); --resume <id> continues a session of this directory only (exit
// 42 otherwise), and with FAKE_GEMINI_LATER=1, as in a later minute than
// the session began, it leaves the two-line stub beside it. /quit and EOF
// print the exit box, /clear starts another session, SIGTERM and SIGHUP
// exit 0 with no box. FAKE_GEMINI_COLUMNS=80 wraps the box as an 80-column
// terminal does, the ID on a line of its own.
func fakeGemini() int {
	if printVersion("0.61.0") {
		return 0
	}
	logArgv("gemini")
	home := filepath.Join(os.Getenv("HOME"), ".gemini")
	if v := os.Getenv("GEMINI_CLI_HOME"); v != "" {
		home = filepath.Join(v, ".gemini")
	}
	var sessionID, resume string
	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--help", "-h":
			fmt.Println("Usage: gemini [options] [command]\n  -r, --resume  Resume a previous session\n      --session-id  Start a new session with a manually provided UUID.")
			return 0
		case "--session-id":
			if i+1 < len(args) {
				i++
				sessionID = args[i]
			}
		case "--resume", "-r":
			if i+1 < len(args) {
				i++
				resume = args[i]
			}
		}
	}
	g := &geminiFake{home: home, cwd: physicalWd()}
	g.register()
	current := sessionID
	if resume != "" {
		current = resume
	}
	g.cleanup(current)
	g.summarize(current)
	switch {
	case resume != "":
		p := g.find(resume)
		if p == "" {
			fmt.Fprintf(os.Stderr, "Error resuming session: Invalid session identifier %q.\n", resume)
			return 42
		}
		g.resume(resume, p)
	case sessionID != "":
		if g.exists(sessionID) {
			fmt.Fprintf(os.Stderr, "Error starting session: Session ID %q already exists. Use --resume to resume it, or provide a different ID.\n", sessionID)
			return 42
		}
		g.start(sessionID)
	default:
		g.start(fakeV4())
	}
	fmt.Print(" ▝▜▄     Gemini CLI v0.61.0\r\n >   Type your message or @path/to/file\r\n")
	t := &tui{onPrompt: g.prompt, onCmd: func(cmd, arg string) bool {
		if cmd != "/clear" {
			return false
		}
		g.quitEmpty()
		g.start(fakeV4())
		return true
	}}
	_, signaled := t.run()
	g.quitEmpty()
	if !signaled {
		g.box()
	}
	return 0
}

// geminiFake is one run of the fake and the session it has open.
type geminiFake struct {
	home, cwd, slug string
	id, file        string
	prompts         int
	history         []map[string]any
}

func (g *geminiFake) chats() string { return filepath.Join(g.home, "tmp", g.slug, "chats") }

// register gives the directory its slug, as Gemini's ProjectRegistry does.
func (g *geminiFake) register() {
	reg := map[string]any{}
	if b, err := os.ReadFile(filepath.Join(g.home, "projects.json")); err == nil {
		json.Unmarshal(b, &reg)
	}
	projects, _ := reg["projects"].(map[string]any)
	if projects == nil {
		projects = map[string]any{}
	}
	if s, ok := projects[g.cwd].(string); ok {
		g.slug = s
	} else {
		for _, base := range []string{"tmp", "history"} {
			entries, _ := os.ReadDir(filepath.Join(g.home, base))
			for _, e := range entries {
				if b, err := os.ReadFile(filepath.Join(g.home, base, e.Name(), ".project_root")); err == nil && string(b) == g.cwd && g.slug == "" {
					g.slug = e.Name()
				}
			}
		}
	}
	if g.slug == "" {
		base := strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(filepath.Base(g.cwd)), "-"), "-")
		if base == "" {
			base = "project"
		}
		taken := map[string]bool{}
		for _, s := range projects {
			taken[fmt.Sprint(s)] = true
		}
		for n := 0; ; n++ {
			c := base
			if n > 0 {
				c = fmt.Sprintf("%s-%d", base, n)
			}
			if _, err := os.Stat(filepath.Join(g.home, "tmp", c)); err != nil && !taken[c] {
				g.slug = c
				break
			}
		}
	}
	projects[g.cwd], reg["projects"] = g.slug, projects
	for _, base := range []string{"tmp", "history"} {
		os.MkdirAll(filepath.Join(g.home, base, g.slug), 0o755)
		marker := filepath.Join(g.home, base, g.slug, ".project_root")
		if _, err := os.Stat(marker); err != nil {
			os.WriteFile(marker, []byte(g.cwd), 0o644)
		}
	}
	b, _ := json.MarshalIndent(reg, "", "  ")
	tmp := filepath.Join(g.home, "projects.json."+fakeV4()+".tmp")
	os.WriteFile(tmp, b, 0o644)
	os.Rename(tmp, filepath.Join(g.home, "projects.json"))
}

// files lists this directory's session files named for id's short ID.
func (g *geminiFake) files(id string) []string {
	if len(id) < 8 {
		return nil
	}
	m, _ := filepath.Glob(filepath.Join(g.chats(), "session-*-"+id[:8]+".jsonl"))
	sort.Strings(m)
	return m
}

// session reads a session file: its ID and whether it holds a prompt.
func (g *geminiFake) session(p string) (id string, prompts int, summary bool) {
	b, _ := os.ReadFile(p)
	for i, line := range bytes.Split(b, []byte("\n")) {
		var r map[string]any
		if json.Unmarshal(line, &r) != nil {
			continue
		}
		if i == 0 {
			id, _ = r["sessionId"].(string)
		}
		if r["type"] == "user" {
			prompts++
		}
		if set, ok := r["$set"].(map[string]any); ok && set["summary"] != nil {
			summary = true
		}
	}
	return id, prompts, summary
}

// exists reports any file of session id, as --session-id checks.
func (g *geminiFake) exists(id string) bool {
	for _, p := range g.files(id) {
		if sid, _, _ := g.session(p); sid == id {
			return true
		}
	}
	return false
}

// find is the file of session id that holds a prompt, in this directory.
func (g *geminiFake) find(id string) string {
	for _, p := range g.files(id) {
		if sid, n, _ := g.session(p); sid == id && n > 0 {
			return p
		}
	}
	return ""
}

// cleanup is Gemini's session retention at start: a session file with no
// prompt goes with every file of its short ID, unless it is current's.
func (g *geminiFake) cleanup(current string) {
	if !geminiRetentionOn(g.home) {
		return
	}
	all, _ := filepath.Glob(filepath.Join(g.chats(), "session-*.jsonl"))
	for _, p := range all {
		if _, n, _ := g.session(p); n > 0 {
			continue
		}
		short := strings.TrimSuffix(p[len(p)-14:], ".jsonl")
		siblings, _ := filepath.Glob(filepath.Join(g.chats(), "session-*-"+short+".jsonl"))
		for _, s := range siblings {
			if sid, _, _ := g.session(s); sid != current || current == "" {
				os.Remove(s)
			}
		}
	}
}

// geminiRetentionOn reads general.sessionRetention.enabled, true unless
// set.
func geminiRetentionOn(home string) bool {
	var s struct {
		General struct {
			Retention struct {
				Enabled *bool `json:"enabled"`
			} `json:"sessionRetention"`
		} `json:"general"`
	}
	b, err := os.ReadFile(filepath.Join(home, "settings.json"))
	// Gemini reads JSON with comments; the fake knows whole-line ones.
	b = regexp.MustCompile(`(?m)^\s*//.*$`).ReplaceAll(b, nil)
	if err != nil || json.Unmarshal(b, &s) != nil || s.General.Retention.Enabled == nil {
		return true
	}
	return *s.General.Retention.Enabled
}

// summarize gives the newest other session of the directory with a prompt
// and no summary one, as Gemini does at a later start.
func (g *geminiFake) summarize(current string) {
	all, _ := filepath.Glob(filepath.Join(g.chats(), "session-*.jsonl"))
	for i := len(all) - 1; i >= 0; i-- {
		id, n, has := g.session(all[i])
		if id == current || n == 0 || has {
			continue
		}
		b, _ := json.Marshal(map[string]any{"$set": map[string]any{"summary": "Summary of the session"}})
		safe.AppendFile(all[i], append(b, '\n'), 0o644)
		return
	}
}

func (g *geminiFake) write(v any) {
	b, _ := json.Marshal(v)
	safe.AppendFile(g.file, append(b, '\n'), 0o644)
}

func (g *geminiFake) context() map[string]any {
	return map[string]any{"id": "ctx", "type": "user", "timestamp": stamp(),
		"content": []any{map[string]any{"text": "<session_context>\n- **Workspace Directories:**\n  - " + g.cwd + "\n</session_context>"}}}
}

// head writes a session file's first two lines, as at every start.
func (g *geminiFake) head(file, id string) {
	sum := sha256.Sum256([]byte(g.cwd))
	old := g.file
	g.file = file
	g.write(map[string]any{"sessionId": id, "projectHash": hex.EncodeToString(sum[:]), "startTime": stamp(), "lastUpdated": stamp(), "kind": "main"})
	g.write(map[string]any{"$set": map[string]any{"messages": []any{g.context()}, "lastUpdated": stamp()}})
	g.file = old
}

func (g *geminiFake) start(id string) {
	os.MkdirAll(g.chats(), 0o755)
	g.id, g.prompts, g.history = id, 0, []map[string]any{g.context()}
	g.file = filepath.Join(g.chats(), "session-"+time.Now().UTC().Format("2006-01-02T15-04")+"-"+id[:min(8, len(id))]+".jsonl")
	g.head(g.file, id)
}

func (g *geminiFake) resume(id, file string) {
	if os.Getenv("FAKE_GEMINI_LATER") == "1" {
		later := filepath.Join(g.chats(), "session-"+time.Now().UTC().Add(time.Minute).Format("2006-01-02T15-04")+"-"+id[:8]+".jsonl")
		g.head(later, id)
	}
	g.id, g.file = id, file
	_, g.prompts, _ = g.session(file)
	g.history = []map[string]any{g.context()}
	b, _ := os.ReadFile(file)
	for _, line := range bytes.Split(b, []byte("\n")) {
		var r map[string]any
		if json.Unmarshal(line, &r) == nil && r["id"] != nil && r["id"] != "ctx" {
			g.history = append(g.history, r)
		}
	}
	g.write(map[string]any{"$set": map[string]any{"sessionId": id}})
	g.write(map[string]any{"$set": map[string]any{"messages": g.history}})
}

func (g *geminiFake) prompt(text string) {
	g.prompts++
	u := map[string]any{"id": fakeV4(), "timestamp": stamp(), "type": "user", "content": []any{map[string]any{"text": text}}}
	a := map[string]any{"id": fakeV4(), "timestamp": stamp(), "type": "gemini", "content": "ACK " + text, "model": "fake"}
	for _, m := range []map[string]any{u, a} {
		g.write(m)
		g.write(map[string]any{"$set": map[string]any{"lastUpdated": stamp()}})
		g.history = append(g.history, m)
	}
	fmt.Printf("✦ ACK %s\r\n", text)
}

// quitEmpty deletes the open session when it holds no prompt.
func (g *geminiFake) quitEmpty() {
	if g.prompts == 0 {
		os.Remove(g.file)
	}
}

// box prints the exit box; 80 columns wrap the hint.
func (g *geminiFake) box() {
	rule := strings.Repeat("─", 78)
	fmt.Printf("╭%s╮\r\n│  Agent powering down. Goodbye!%s│\r\n│  Session ID:                 %s%s│\r\n", rule, strings.Repeat(" ", 47), g.id, strings.Repeat(" ", 49-len(g.id)))
	if os.Getenv("FAKE_GEMINI_COLUMNS") == "80" {
		fmt.Printf("│  \x1b[38;5;74mTo resume this session: gemini --resume\x1b[39m%s│\r\n│  %s%s│\r\n", strings.Repeat(" ", 37), g.id, strings.Repeat(" ", 76-len(g.id)))
	} else {
		fmt.Printf("│  To resume this session: gemini --resume %s │\r\n", g.id)
	}
	fmt.Printf("╰%s╯\r\n", rule)
}
