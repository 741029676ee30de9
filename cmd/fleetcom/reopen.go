package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// cmdReopen is what a window of `restore --exec` runs: `fleetcom resume
// --exec TOOL ID`, then, once the agent quits, the user's shell in the
// window's directory, as after `fr` in a terminal of one's own. Between the
// two it marks the window with the resume's exit status (fleet.ExitOption),
// which is how restore tells a start that failed. A window whose terminal
// went, or that was told to end, starts no shell.
func cmdReopen(in input) error {
	if len(in.args) != 2 {
		return usagef("__reopen takes a tool and an ID")
	}
	a, ok := agents.Named(in.args[0])
	if !ok || !a.ID.Valid(in.args[1]) {
		return usagef("__reopen: %q %q is not a conversation", in.args[0], in.args[1])
	}
	self, err := selfPath()
	if err != nil {
		return err
	}
	// Signals are caught, not ignored, so that the resume gets them as
	// they are: the keyboard's reach it from the terminal; one sent to this
	// process alone is passed on, and ends the window.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	cmd := exec.Command(self, "resume", "--exec", a.Name, in.args[1])
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	done, told := make(chan struct{}), make(chan os.Signal, 1)
	go func() {
		var ended os.Signal
		defer func() { told <- ended }()
		for {
			select {
			case s := <-sigs:
				if s == syscall.SIGTERM || s == syscall.SIGHUP {
					ended = s
					_ = cmd.Process.Signal(s)
				}
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	ended := <-told
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
			if ws.Signal() == syscall.SIGHUP || ws.Signal() == syscall.SIGTERM || ws.Signal() == syscall.SIGKILL {
				ended = ws.Signal()
			}
		}
	case err != nil:
		code = 127
	}
	if pane := os.Getenv("TMUX_PANE"); os.Getenv("TMUX") != "" && pane != "" {
		_ = fleet.MarkExit(pane, code)
	}
	if ended != nil {
		return exitStatus(code)
	}
	return execShell()
}

// execShell replaces this process with the user's shell, as a login
// shell, as tmux starts one in a new window: $SHELL, else /bin/sh.
func execShell() error {
	sh := os.Getenv("SHELL")
	if fi, err := os.Stat(sh); sh == "" || !filepath.IsAbs(sh) || err != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		sh = "/bin/sh"
	}
	signal.Reset()
	return syscall.Exec(sh, []string{"-" + filepath.Base(sh)}, os.Environ())
}
