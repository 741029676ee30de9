//go:build linux

package main

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// silentSocket listens on a Unix socket that accepts connections and never
// reads from them, as a planted tmux socket may.
func silentSocket(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "fleetcom-silent-") // a socket path must be short
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	t.Cleanup(func() { l.Close(); <-done; os.RemoveAll(dir) })
	return path
}

// TestStatusFrozenTmux runs two conversations through the built shims: one
// in a pane of a real tmux server, which is then stopped (kill -STOP), and
// then one whose $TMUX names a socket that accepts and never reads. With
// each, status, resume and status --watch (ended by q, and by SIGTERM) end
// within the bound, and say what they know without the tmux targets.
func TestStatusFrozenTmux(t *testing.T) {
	needShell(t, "tmux")
	fc := filepath.Join(selfAs(t, "fleetcom"), "fleetcom")
	w := newJobWorld(t, fc)
	other := filepath.Join(filepath.Dir(w.dir), "other")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}

	p := startPane(t, w.dir, w.env, "claude")
	p.waitFor("Welcome")
	p.typeLine("hello frozen")
	p.waitFor("ACK hello frozen")
	// Running, its target known while its server answers.
	deadline := time.Now().Add(ptyWait)
	for {
		out, _ := boundedRun(t, fc, w.dir, w.env, "status", "--json")
		if strings.Contains(out, `"target": "0:0.0"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("status never showed the run's pane:\n%s", out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	server, err := strconv.Atoi(p.Display("#{pid}"))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(server, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// Before startPane's cleanup kills the server: a stopped one would
	// not hear it.
	t.Cleanup(func() { syscall.Kill(server, syscall.SIGCONT) })
	askAll(t, fc, w, 1, w.dir)

	silent := silentSocket(t)
	env := append(append([]string(nil), w.env...), "TMUX="+silent+",1,0", "TMUX_PANE=%1", "TERM=xterm-256color")
	shim := filepath.Join(filepath.Dir(filepath.Dir(w.dir)), "shims", "claude")
	u, err := startPTY(shim, []string{"claude"}, env, other)
	if err != nil {
		t.Fatal(err)
	}
	// Ended as a logout ends it, so that the shim takes its CLI down and
	// nothing writes under the test's home once the test is over.
	t.Cleanup(func() {
		u.Cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-u.Exited():
		case <-time.After(ptyWait):
			u.Cmd.Process.Kill()
		}
	})
	at, err := u.expect("Welcome", 0)
	if err != nil {
		t.Fatal(err)
	}
	u.Write([]byte("hello silent\r"))
	if _, err := u.expect("ACK hello silent", at); err != nil {
		t.Fatal(err)
	}
	askAll(t, fc, w, 2, w.dir, other)
}

// askAll runs status, resume in each of dirs (a conversation runs in
// each), and status --watch ended by q and by SIGTERM, each within the
// bound; status shows runs runs.
func askAll(t *testing.T, fc string, w *jobWorld, runs int, dirs ...string) {
	t.Helper()
	out, code := boundedRun(t, fc, w.dir, w.env, "status")
	if code != 0 || strings.Count(out, "claude ") != runs || !strings.Contains(out, "tmux %0") {
		t.Errorf("status (exit %d), want %d runs:\n%s", code, runs, out)
	}
	for _, dir := range dirs {
		out, code := boundedRun(t, fc, dir, w.env, "resume")
		if code != 1 || !strings.Contains(out, "is running now") {
			t.Errorf("resume in %s (exit %d):\n%s", dir, code, out)
		}
	}
	for _, end := range []string{"q", "TERM"} {
		u, err := startPTY(fc, []string{"fleetcom", "status", "--watch"}, append(w.env, "TERM=xterm-256color"), w.dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := u.expect("claude", 0); err != nil {
			u.Cmd.Process.Kill()
			t.Fatal(err)
		}
		want := "exit 0"
		if end == "q" {
			u.Write([]byte("q"))
		} else {
			u.Cmd.Process.Signal(syscall.SIGTERM)
			want = "exit 143"
		}
		if how := endsWithin(t, u); how != want || !strings.Contains(u.screen(), "\x1b[?1049l") {
			t.Errorf("status --watch ended by %s: %s, want %s with the screen given back", end, how, want)
		}
	}
}
