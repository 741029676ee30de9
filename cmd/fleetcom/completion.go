package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/completions"
	"github.com/fleetcom/fleetcom/internal/safe"
)

func cmdCompletion(in input) error {
	shell, err := shellArg("completion", in.args)
	if err != nil {
		return err
	}
	exe, err := selfPath()
	if err != nil {
		return err
	}
	script, _ := completions.Script(shell, safe.Quote(exe))
	fmt.Fprint(stdout, script)
	return nil
}

// shellArg checks that args name exactly one supported shell.
func shellArg(cmd string, args []string) (string, error) {
	if len(args) != 1 {
		return "", mustCommand(cmd).misuse("%s needs one shell: %s", cmd, shellList())
	}
	for _, s := range completions.Shells() {
		if args[0] == s {
			return s, nil
		}
	}
	err := usageError{msg: fmt.Sprintf("%s: unsupported shell %q (want %s)", cmd, args[0], shellList())}
	if s := suggest(args[0], completions.Shells()); s != "" {
		err.hint = fmt.Sprintf("did you mean 'fleetcom %s %s'?", cmd, s)
	}
	return "", err
}

// shellList names the supported shells: "bash, zsh or fish".
func shellList() string {
	sh := completions.Shells()
	return strings.Join(sh[:len(sh)-1], ", ") + " or " + sh[len(sh)-1]
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
