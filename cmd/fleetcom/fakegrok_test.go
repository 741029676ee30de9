package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// fakeGrok behaves like the xAI Grok CLI: --session-id creates a session
// and dies if it exists; --resume/-r continues one from any directory and
// dies on an unknown ID.
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
			fmt.Println("Usage: grok [options]\n  --session-id <uuid>  start a new session with this id\n  -r, --resume <uuid>  continue a session")
			return 0
		case "--session-id":
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
	var dir string
	switch {
	case resume != "":
		matches, _ := filepath.Glob(filepath.Join(home, "sessions", "*", resume))
		if !safe.UUID(resume) || len(matches) != 1 {
			fmt.Fprintf(os.Stderr, "Error: session %s not found (404)\n", resume)
			return 1
		}
		dir = matches[0]
	default:
		id := create
		if id == "" {
			id = fakeV4()
		} else if !safe.UUID(id) {
			fmt.Fprintln(os.Stderr, "Error: --session-id must be a UUID")
			return 1
		}
		if m, _ := filepath.Glob(filepath.Join(home, "sessions", "*", id)); len(m) > 0 {
			fmt.Fprintf(os.Stderr, "Error: session %s already in use\n", id)
			return 1
		}
		dir = filepath.Join(home, "sessions", harness.GrokDirName(cwd), id)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "summary.json"), []byte(`{"id":"`+id+`"}`), 0o644)
	}
	id := filepath.Base(dir)
	fmt.Print("\x1b[1mGrok\x1b[0m ready\r\n")
	t := &tui{onPrompt: func(text string) {
		appendJSONL(filepath.Join(dir, "chat_history.jsonl"), map[string]any{"role": "user", "content": text})
		fmt.Printf("ACK %s\r\n", text)
	}}
	code, _ := t.run()
	fmt.Print("To resume this session: \x1b[36mgrok --resume " + id + "\x1b[0m\r\n")
	return code
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
