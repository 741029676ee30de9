package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func shell(script string, env ...string) command {
	return command{label: "sh", argv: []string{"/bin/sh", "-c", script}, env: append(os.Environ(), env...)}
}

// TestUntilTypesEsc: once the output matches, the program is sent Esc.
func TestUntilTypesEsc(t *testing.T) {
	got := filepath.Join(t.TempDir(), "got")
	// stty makes the terminal hand the key over at once.
	s, err := runUntil(shell(`stty raw -echo; printf 'wait\n\033[7m> row\n'; dd bs=1 count=1 of="$GOT" 2>/dev/null`, "GOT="+got),
		regexp.MustCompile(`\x1b\[7m> row`), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if s.wall <= 0 {
		t.Errorf("time to the match %v", s.wall)
	}
	if b, _ := os.ReadFile(got); string(b) != "\x1b" {
		t.Errorf("the program read %q, want Esc", b)
	}
}

// TestUntilKillsWhatStays: a program that ignores Esc is killed after the
// grace, with what it started and that holds the terminal.
func TestUntilKillsWhatStays(t *testing.T) {
	if _, err := runUntil(shell(`echo ready; sleep 600 & sleep 600`), regexp.MustCompile(`ready`), 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

// TestUntilFailsWithoutMatch: a program that exits before its output
// matches fails the run, with what was awaited.
func TestUntilFailsWithoutMatch(t *testing.T) {
	_, err := runUntil(shell(`echo no row here`), regexp.MustCompile(`\x1b\[7m`), time.Second)
	if err == nil || !strings.Contains(err.Error(), "exited before") {
		t.Fatalf("err = %v, want an exit before the match", err)
	}
}
