package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/termtest"
	"github.com/rogpeppe/go-internal/testscript"
)

// A user at a terminal, for tests: the command runs with a fresh PTY as its
// stdin, stdout and stderr (its controlling terminal), and the test types
// into the master side and reads what the screen shows.

type ptyUser struct{ *termtest.Session }

// startPTY runs path with argv (argv[0] as a shell would pass it).
func startPTY(path string, argv, env []string, dir string) (*ptyUser, error) {
	s, err := termtest.Start(&exec.Cmd{Path: path, Args: argv, Env: env, Dir: dir}, 40, 120)
	if err != nil {
		return nil, err
	}
	return &ptyUser{s}, nil
}

// screen is everything the terminal received so far.
func (u *ptyUser) screen() string { return string(u.Output()) }

// ptyWait bounds each wait of a dialogue: for a text to appear, for the
// command to exit. It is generous, as a loaded machine (the race detector,
// a CPU hog, other suites) can take many seconds to start a process; it
// only ends a wait that failed.
const ptyWait = 5 * time.Minute

// expect waits until text appears after the first `from` bytes of output. A
// terminal that hung up (every process holding it gone) shows nothing more:
// the wait ends there, saying how the program ended.
func (u *ptyUser) expect(text string, from int) (int, error) {
	end, err := u.WaitFor(text, from, ptyWait)
	switch {
	case errors.Is(err, termtest.ErrHungUp):
		select { // the program's end is reaped a moment after the hang-up
		case <-u.Exited():
		case <-time.After(5 * time.Second):
		}
		return from, fmt.Errorf("the terminal hung up before %q appeared (%s); screen:\n%s", text, u.Ended(), u.screen())
	case err != nil:
		return from, fmt.Errorf("%v; screen:\n%s\nprocesses:\n%s", err, u.screen(), termtest.ProcessTree(u.Cmd.Process.Pid))
	}
	return end, nil
}

// finish waits for the process and the end of its output, and describes how
// it ended: "exit N" or "signal NAME".
func (u *ptyUser) finish() (string, error) {
	st, err := u.Wait(ptyWait)
	u.Close()
	if err != nil {
		return "", fmt.Errorf("%v; screen:\n%s", err, u.screen())
	}
	return st.String(), nil
}

// runDialogue drives a session from a script of lines:
//
//	expect TEXT   wait for TEXT on the screen (after the last match)
//	send TEXT     type TEXT and Enter
//	esc           press Escape
//	signal SIG    send SIG (TERM, HUP, KILL, INT) to the command
//	hangup        close the terminal, as when its window is closed
//	sleep MS      wait
//	until CMD     run the shell command CMD (elsewhere: another terminal)
//	              again and again until it succeeds
//	run FILE CMD  run the shell command CMD once; its output and exit
//	              status go to FILE
//
// and returns how the command ended. Shell commands run with env in dir.
func runDialogue(u *ptyUser, script string, env []string, dir string) (string, error) {
	pos := 0
	sc := bufio.NewScanner(strings.NewReader(script))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, arg, _ := strings.Cut(line, " ")
		var err error
		switch verb {
		case "expect":
			pos, err = u.expect(arg, pos)
		case "send":
			_, err = u.Write([]byte(arg + "\r"))
		case "type":
			_, err = u.Write([]byte(arg))
		case "esc":
			_, err = u.Write([]byte{0x1b})
		case "signal":
			err = u.Cmd.Process.Signal(signalNamed(arg))
		case "hangup":
			err = u.Term.Close()
		case "sleep":
			ms, _ := strconv.Atoi(arg)
			time.Sleep(time.Duration(ms) * time.Millisecond)
		case "until":
			err = until(arg, env, dir, u)
		case "run":
			file, cmdline, _ := strings.Cut(arg, " ")
			cmd := exec.Command("/bin/sh", "-c", cmdline)
			cmd.Env, cmd.Dir = env, dir
			out, cerr := cmd.CombinedOutput()
			code := 0
			var ee *exec.ExitError
			if errors.As(cerr, &ee) {
				code = ee.ExitCode()
			} else if cerr != nil {
				return "", cerr
			}
			if !filepath.IsAbs(file) {
				file = filepath.Join(dir, file)
			}
			err = os.WriteFile(file, fmt.Appendf(out, "exit %d\n", code), 0o644)
		default:
			err = fmt.Errorf("unknown dialogue verb %q", verb)
		}
		if err != nil {
			return "", err
		}
	}
	return u.finish()
}

// ptyVars are the variables a script's PTY command gets: the world's own,
// and each agent's (its home, its binary, its hop record) and each fake's.
// Built from the registries, so a new agent's variables reach its CLI and
// its tests cannot pass by reading some other home.
func ptyVars() []string {
	vars := []string{"PATH", "HOME", "WORK", "REAL", "SHELL", "TMPDIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
		"XDG_DATA_HOME", "XDG_RUNTIME_DIR", "FLEETCOM_SHIM_DIR", "FAKE_ARGV_LOG", "FLEETCOM_RUNTIME_DIR", "FLEETCOM_FZF", "TERM", "TMUX", "TMUX_PANE", "TMUX_TMPDIR"}
	for _, a := range agents.All() {
		vars = append(vars, a.HomeVar, a.BinVar(), a.HopVar())
	}
	for _, f := range fakes {
		vars = append(vars, f.vars...)
	}
	return vars
}

// until runs a shell command until it succeeds, for at most ptyWait.
func until(cmdline string, env []string, dir string, u *ptyUser) error {
	deadline := time.Now().Add(ptyWait)
	for {
		cmd := exec.Command("/bin/sh", "-c", cmdline)
		cmd.Env, cmd.Dir = env, dir
		out, err := cmd.CombinedOutput()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("until %s: still failing after %v: %v\n%s\nscreen:\n%s", cmdline, ptyWait, err, out, u.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cmdUntil is the testscript command `until CMD`: it runs the shell
// command CMD (in the script's environment and directory) again and again
// until it succeeds, for at most ptyWait: what another terminal does while
// the script waits for an event.
func cmdUntil(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: until 'shell command'")
	}
	var env []string
	for _, k := range append(ptyVars(), "TMUX_TMPDIR") {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	deadline := time.Now().Add(ptyWait)
	for {
		cmd := exec.Command("/bin/sh", "-c", args[0])
		cmd.Env, cmd.Dir = env, ts.MkAbs(".")
		out, err := cmd.CombinedOutput()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("until %s: still failing after %v: %v\n%s", args[0], ptyWait, err, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cmdPTY is the testscript command `pty DIALOGUE SCREEN STATUS -- CMD ARGS…`:
// it runs CMD on a PTY driven by the dialogue file, saves the screen to
// SCREEN, and fails unless the command ended as STATUS ("exit 0",
// "signal TERM", written with an underscore: exit_0, signal_TERM; or "any").
func cmdPTY(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 5 || args[3] != "--" {
		ts.Fatalf("usage: pty dialogue screen status -- command args...")
	}
	argv := args[4:]
	path := argv[0]
	if !strings.Contains(path, "/") {
		path = lookPathIn(ts.Getenv("PATH"), path)
	}
	env := ts.Getenv
	var environ []string
	for _, k := range ptyVars() {
		if v := env(k); v != "" {
			environ = append(environ, k+"="+v)
		}
	}
	u, err := startPTY(path, argv, environ, ts.MkAbs("."))
	ts.Check(err)
	status, err := runDialogue(u, ts.ReadFile(args[0]), environ, ts.MkAbs("."))
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(u.screen()), 0o644))
	ts.Check(err)
	if want := strings.ReplaceAll(args[2], "_", " "); want != "any" && status != want {
		ts.Fatalf("command ended with %s, want %s; screen:\n%s", status, want, u.screen())
	}
}

// lookPathIn finds name on a PATH other than the test process's own; the
// command keeps its name as argv[0] through the symlink, as a shell does.
func lookPathIn(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return name
}
