// Command ptyproxy is the minimal Go PTY proxy anchor, written the way the
// creack/pty example is: installed under a tool's name, it runs the next program
// of that name on PATH on a PTY (size inherited and followed, our terminal raw),
// copies both ways with io.Copy while keeping a 64 KiB tail, and at exit writes a
// small JSON record with a temporary file and a rename. Build it static.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"
)

func main() { os.Exit(run()) }

func run() int {
	name := filepath.Base(os.Args[0])
	real, err := next(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptyproxy:", err)
		return 127
	}
	started := time.Now()
	cmd := exec.Command(real, os.Args[1:]...)
	cmd.Args[0] = os.Args[0]
	ptmx, err := pty.Start(cmd)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptyproxy:", err)
		return 126
	}
	defer ptmx.Close()

	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	go func() {
		for range winch {
			_ = pty.InheritSize(os.Stdin, ptmx)
		}
	}()
	winch <- syscall.SIGWINCH
	if old, err := term.MakeRaw(0); err == nil {
		defer term.Restore(0, old)
	}
	go func() { _, _ = io.Copy(ptmx, os.Stdin) }()

	tail := &ring{buf: make([]byte, 64<<10)}
	_, _ = io.Copy(io.MultiWriter(os.Stdout, tail), ptmx)
	_ = cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	record(name, cmd.Process.Pid, started, code, tail)
	return code
}

// next finds the next program called name on PATH that is not this one.
func next(name string) (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	me, err := os.Stat(self)
	if err != nil {
		return "", err
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 && !os.SameFile(fi, me) {
			return p, nil
		}
	}
	return "", fmt.Errorf("no %s on PATH", name)
}

type ring struct {
	buf  []byte
	pos  int
	full bool
}

func (r *ring) Write(p []byte) (int, error) {
	n := len(p)
	if n >= len(r.buf) {
		p = p[n-len(r.buf):]
	}
	for len(p) > 0 {
		c := copy(r.buf[r.pos:], p)
		p = p[c:]
		if r.pos += c; r.pos == len(r.buf) {
			r.pos, r.full = 0, true
		}
	}
	return n, nil
}

func record(tool string, pid int, started time.Time, code int, tail *ring) {
	dir := os.Getenv("PTYPROXY_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	b, _ := json.Marshal(map[string]any{
		"tool": tool, "pid": pid, "started": started.Format(time.RFC3339),
		"ended": time.Now().Format(time.RFC3339), "exit": code, "tail": tail.pos,
	})
	f, err := os.CreateTemp(dir, ".record-*")
	if err != nil {
		return
	}
	_, _ = f.Write(b)
	_ = f.Close()
	_ = os.Rename(f.Name(), filepath.Join(dir, "ptyproxy-record.json"))
}
