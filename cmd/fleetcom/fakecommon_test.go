package main

// Faithful fakes of the agent CLIs (as measured; e2e/ drives the real ones), played by
// the test binary under the names each fake registers (fake-<agent>, and
// others such as a community build of the same name). Tests put small
// "real CLI" scripts named after the agents later on PATH that exec them,
// so the shims find them the way they find the real ones.
//
// An interactive fake reads one line at a time from its terminal: a line is
// a prompt, or a command that drives it:
//
//	/exit [N]      quit (with status N)
//	/clear, /new   start another conversation inside the TUI
//	/resume ID     switch to another conversation
//	/subagent      run a subagent thread (codex)
//	/kill SIG      die of a signal
//	/ignore-term   ignore SIGTERM from now on
//	/sleep         wait for a signal
//	/spew N        write N bytes of output
//	/shell CMD     run CMD with /bin/sh, as an agent's shell tool does
//
// Every fake appends its argv (and the per-run variables it saw) to
// $FAKE_ARGV_LOG as one JSON line, so tests can check what reached it.

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// fake is one fake CLI, registered from its own file's init.
type fake struct {
	role string      // the test binary's name while it plays the fake: "fake-<agent>"
	tool string      // the agent it stands for
	dir  string      // the directory its "real CLI" script goes in, under the work dir: "real" for $REAL
	main func() int  // plays it
	vars []string    // variables of its own the PTY driver passes on
	pkg  fakePackage // the npm package its script is installed as
}

// fakePackage is the npm package a fake is installed as.
type fakePackage struct{ name, version, bin string }

// fakes are the registered fakes, by role.
var fakes = map[string]fake{}

func registerFake(f fake) {
	if _, dup := fakes[f.role]; dup {
		panic("fake registered twice: " + f.role)
	}
	fakes[f.role] = f
}

// fakeRun is what every fake logs about its invocation.
type fakeRun struct {
	Tool    string   `json:"tool"`
	Argv    []string `json:"argv"`
	Capture string   `json:"capture"`
	Chain   string   `json:"chain"`
	TTY     bool     `json:"tty"`
	Cwd     string   `json:"cwd"`
}

// printVersion answers `--version` as the real CLI does, before anything a
// run does (no argv log, no store): fleetcom asks it of every binary once.
func printVersion(line string) bool {
	if len(os.Args) != 2 || os.Args[1] != "--version" {
		return false
	}
	fmt.Println(line)
	return true
}

func logArgv(tool string) {
	path := os.Getenv("FAKE_ARGV_LOG")
	if path == "" {
		return
	}
	wd, _ := os.Getwd()
	b, _ := json.Marshal(fakeRun{Tool: tool, Argv: os.Args[1:], Capture: os.Getenv("FLEETCOM_CAPTURE_FILE"),
		Chain: os.Getenv("FLEETCOM_NOTIFY_CHAIN"), TTY: term.IsTerminal(1), Cwd: wd})
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.Write(append(b, '\n'))
	f.Close()
}

func fakeV4() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

func fakeV7() string {
	var b [16]byte
	rand.Read(b[:])
	ms := uint64(time.Now().UnixMilli())
	for i := 0; i < 6; i++ {
		b[i] = byte(ms >> (40 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

func formatUUID(b [16]byte) string {
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func physicalWd() string {
	wd, _ := os.Getwd()
	if p, err := filepath.EvalSymlinks(wd); err == nil {
		return p
	}
	return wd
}

// gitBranch is the branch checked out at dir as the real CLIs record it:
// read from the nearest .git (a folder, or a worktree's file pointing at
// its git directory); "HEAD" when detached or outside a repository, as
// Claude Code writes it, "" for none as Codex leaves it out.
func gitBranch(dir string) (branch string, repo bool) {
	for d := dir; ; d = filepath.Dir(d) {
		gd := filepath.Join(d, ".git")
		if b, err := os.ReadFile(gd); err == nil {
			gd = strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir: "))
		}
		if head, err := os.ReadFile(filepath.Join(gd, "HEAD")); err == nil {
			if b, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/"); ok {
				return b, true
			}
			return "HEAD", true
		}
		if d == filepath.Dir(d) {
			return "HEAD", false
		}
	}
}

func fakeHome(variable, dot string) string {
	if v := os.Getenv(variable); v != "" {
		return v
	}
	return filepath.Join(os.Getenv("HOME"), dot)
}

func appendJSONL(path string, v any) {
	os.MkdirAll(filepath.Dir(path), 0o755)
	b, _ := json.Marshal(v)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.Write(append(b, '\n'))
	f.Close()
}

func stamp() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

// tui is the interactive loop shared by the fakes: onPrompt answers a
// prompt, onCmd handles a tool-specific command.
type tui struct {
	sigterm  chan os.Signal
	lines    chan string
	onPrompt func(text string)
	onCmd    func(cmd, arg string) bool // false: not a command of this fake
}

// start begins reading the terminal (run does it, if not done before).
func (t *tui) start() {
	if t.lines != nil {
		return
	}
	t.sigterm = make(chan os.Signal, 1)
	signal.Notify(t.sigterm, syscall.SIGTERM, syscall.SIGHUP)
	t.lines = make(chan string)
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			t.lines <- strings.TrimRight(sc.Text(), "\r")
		}
		close(t.lines)
	}()
}

// next waits for the next line typed, as a dialog of the TUI does; false
// when input ended.
func (t *tui) next() (string, bool) {
	line, ok := <-t.lines
	return line, ok
}

// run loops until /exit, EOF or SIGTERM; it returns the exit status and
// whether SIGTERM ended it.
func (t *tui) run() (int, bool) {
	t.start()
	for {
		select {
		case sig := <-t.sigterm:
			if sig == syscall.SIGHUP {
				return 129, true
			}
			return 143, true
		case line, ok := <-t.lines:
			if !ok {
				return 0, false
			}
			if !strings.HasPrefix(line, "/") {
				t.onPrompt(line)
				continue
			}
			cmd, arg, _ := strings.Cut(line, " ")
			switch cmd {
			case "/exit", "/quit":
				n, _ := strconv.Atoi(arg)
				return n, false
			case "/kill":
				signal.Reset()
				syscall.Kill(os.Getpid(), signalNamed(arg))
				time.Sleep(time.Second)
			case "/ignore-term":
				signal.Stop(t.sigterm)
				signal.Ignore(syscall.SIGTERM)
				fmt.Println("ignoring SIGTERM")
			case "/sleep":
				fmt.Println("sleeping")
				select {}
			case "/spew":
				n, _ := strconv.Atoi(arg)
				spew(n)
			case "/shell":
				// What an agent's shell tool does: run a command as a child.
				cmd := exec.Command("/bin/sh", "-c", arg)
				cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
				err := cmd.Run()
				fmt.Printf("shell done: %v\r\n", err)
			default:
				if t.onCmd == nil || !t.onCmd(cmd, arg) {
					fmt.Printf("unknown command %s\r\n", cmd)
				}
			}
		}
	}
}

func signalNamed(name string) syscall.Signal {
	switch name {
	case "INT":
		return syscall.SIGINT
	case "KILL":
		return syscall.SIGKILL
	case "HUP":
		return syscall.SIGHUP
	}
	return syscall.SIGTERM
}

// spew writes n bytes of TUI-like output.
func spew(n int) {
	// An agent's resume spelling in prose: never a hint.
	frame := []byte("\x1b[2K\x1b[1G\x1b[38;5;246m⠋ thinking about " + agents.Names()[0] + " --resume in prose\x1b[0m\r\n")
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for n > 0 {
		k := min(n, len(frame))
		w.Write(frame[:k])
		n -= k
	}
	w.Flush()
}
