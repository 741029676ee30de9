package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/completions"
	"github.com/fleetcom/fleetcom/harness"
)

func cmdCompletion(args []string) (int, error) {
	shell, err := shellArg("completion", args)
	if err != nil {
		return 2, err
	}
	exe, err := selfPath()
	if err != nil {
		return 1, err
	}
	script, _ := completions.Script(shell, quoteFor(shell, exe))
	fmt.Fprint(stdout, script)
	return 0, nil
}

// shellArg checks that args name exactly one supported shell.
func shellArg(cmd string, args []string) (string, error) {
	_, pos, err := parseFlags(args, flagSpec{})
	if err != nil {
		return "", err
	}
	usage := usagef("usage: fleetcom %s %s", cmd, strings.Join(completions.Shells(), "|"))
	if len(pos) != 1 {
		return "", usage
	}
	for _, s := range completions.Shells() {
		if pos[0] == s {
			return s, nil
		}
	}
	return "", usagef("%s: unsupported shell %q (want %s)", cmd, pos[0], strings.Join(completions.Shells(), ", "))
}

// selfPath is the absolute path of the running fleetcom as the user reaches
// it: the path it was started by when that is this very file (so a symlink
// such as ~/.local/bin/fleetcom stays one, surviving upgrades), else the
// executable itself.
func selfPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find fleetcom's own path: %w", err)
	}
	self, err := os.Stat(exe)
	if err != nil {
		return "", fmt.Errorf("find fleetcom's own path: %w", err)
	}
	invoked := os.Args[0]
	if !strings.Contains(invoked, "/") {
		if p, err := exec.LookPath(invoked); err == nil {
			invoked = p
		}
	}
	if abs, err := filepath.Abs(invoked); err == nil {
		if fi, err := os.Stat(abs); err == nil && os.SameFile(fi, self) {
			return abs, nil
		}
	}
	return exe, nil
}

// quoteFor writes s as one word of shell: bare when it is made only of
// characters no shell treats specially, else single-quoted.
func quoteFor(shell, s string) string {
	if s != "" && strings.Trim(s, plainChars) == "" {
		return s
	}
	if shell == "fish" {
		// Inside fish's single quotes, \ and ' are escaped with a backslash.
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
	}
	return harness.QuoteAlways(s)
}

const plainChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._+-"
