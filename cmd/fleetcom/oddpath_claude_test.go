package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// TestResumeLineOddDirInShells: a conversation made in a directory whose
// name holds ESC, TAB, a newline, a quote and a backslash is resumed with
// the line `fleetcom resume ID` prints, evaluated as it comes in bash, zsh,
// dash and fish: each shell lands in that directory and runs the CLI with
// the ID (issue 21, item 10).
func TestResumeLineOddDirInShells(t *testing.T) {
	bin := buildFleetcom(t)
	home := t.TempDir()
	odd := filepath.Join(home, "odd\x1b[31mred\ttab\nline it's \\ here")
	if err := os.MkdirAll(odd, 0o755); err != nil {
		t.Fatal(err)
	}
	id := safe.NewUUID()
	transcript := claudeTranscriptPath(filepath.Join(home, ".claude"), odd, id)
	var b strings.Builder
	for _, l := range []map[string]any{
		{"type": "user", "sessionId": id, "cwd": odd, "timestamp": "2026-11-30T08:00:00.000Z", "message": map[string]any{"role": "user", "content": "odd"}},
		{"type": "assistant", "sessionId": id, "cwd": odd, "timestamp": "2026-11-30T08:00:01.000Z", "message": map[string]any{"role": "assistant", "content": "ok"}},
	} {
		j, _ := json.Marshal(l)
		b.Write(append(j, '\n'))
	}
	if err := os.MkdirAll(filepath.Dir(transcript), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(transcript, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	// The "claude" the line runs: it says where it is and what it got.
	stub := filepath.Join(home, "stub")
	os.MkdirAll(stub, 0o755)
	if err := testexec.WriteFile(filepath.Join(stub, "claude"), []byte("#!/bin/sh\nprintf '%s|%s|%s' \"$PWD\" \"$1\" \"$2\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(shellEnv(home, filepath.Join(home, "state")), "FLEETCOM="+bin, "ID="+id)
	env[0] = "PATH=" + stub + ":" + os.Getenv("PATH")
	want := odd + "|--resume|" + id
	scripts := map[string][]string{
		"bash": {"bash", "--norc", "--noprofile", "-c", `eval "$("$FLEETCOM" resume "$ID")"`},
		"zsh":  {"zsh", "-f", "-c", `eval "$("$FLEETCOM" resume "$ID")"`},
		"dash": {"dash", "-c", `eval "$("$FLEETCOM" resume "$ID")"`},
		"fish": {"fish", "--no-config", "-c", `eval ("$FLEETCOM" resume "$ID" | string collect)`},
	}
	for _, shell := range []string{"bash", "zsh", "dash", "fish"} {
		t.Run(shell, func(t *testing.T) {
			needShell(t, shell)
			cmd := exec.Command(scripts[shell][0], scripts[shell][1:]...)
			cmd.Dir, cmd.Env = home, env
			out, err := cmd.CombinedOutput()
			if err != nil || string(out) != want {
				t.Errorf("%s: %v\n got %q\nwant %q", shell, err, out, want)
			}
		})
	}
}
