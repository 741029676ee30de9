package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/testexec"
)

// Commands that only read must not hang on anything they ask. Each of
// these used to wait without end: on a tmux server stopped with SIGSTOP,
// which holds the tmux client's output pipe; on a socket that accepts and
// never reads, whose unread message holds it too; on an ssh whose child
// holds its pipes. doneWithin is how long one may take here: generous, as
// the machine may be loaded (a tmux question is cut at 2 s, a host's at
// 15 s), and far below "never".
const doneWithin = 60 * time.Second

// boundedRun runs fc with args in dir, and fails the test unless it has
// ended within doneWithin. It returns the output and the exit status.
func boundedRun(t *testing.T, fc, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), doneWithin)
	defer cancel()
	cmd := exec.CommandContext(ctx, fc, args...)
	cmd.Dir, cmd.Env = dir, env
	// A fleetcom that hangs leaves what it waits on holding the pipes: the
	// test must not wait on it in turn.
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("fleetcom %s still ran after %v:\n%s", strings.Join(args, " "), doneWithin, out)
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("fleetcom %s: %v", strings.Join(args, " "), err)
	}
	return string(out), code
}

// endsWithin waits for the program on u to end, at most doneWithin, and
// says how it ended.
func endsWithin(t *testing.T, u *ptyUser) string {
	t.Helper()
	select {
	case <-u.Exited():
	case <-time.After(doneWithin):
		u.Cmd.Process.Kill()
		t.Fatalf("still running after %v; screen:\n%s", doneWithin, u.screen())
	}
	how, err := u.finish()
	if err != nil {
		t.Fatal(err)
	}
	return how
}

// fakeSSH is a stand-in for ssh, first on PATH: it logs its arguments,
// one line per run, and behaves by host:
//   - box answers one Claude run; given a control socket to make
//     (ControlMaster), it makes a file there, as a master would;
//   - hang never answers, and leaves a child that holds its pipes (as a
//     ProxyCommand does), each one's PID in pids.
const fakeSSH = `#!/bin/sh
printf '%s\n' "$*" >> "$WORK/ssh.log"
prev= control= master=
for a; do
	case $a in
	ControlPath=*) control=${a#ControlPath=} ;;
	ControlMaster=auto) master=1 ;;
	esac
	host=$prev; prev=$a
done
case $* in *" -O exit "*) exit 0 ;; esac
case $host in
box)
	if [ -n "$master" ] && [ -n "$control" ]; then : > "$control"; fi
	cat <<'JSON'
[{"tool":"claude","id":"0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e","cwd":"/srv/web","title":"remote work","state":"working","since":"2026-12-01T09:30:00Z","started":"2026-12-01T09:00:00Z","pid":8,"tty":"/dev/pts/4","tmux":null}]
JSON
	;;
hang)
	sleep 600 &
	echo $! >> "$WORK/pids"
	echo $$ >> "$WORK/pids"
	exec sleep 600
	;;
esac
`

// hostWorld is a user with the fake ssh first on PATH and a private
// runtime directory; no run of its own.
type hostWorld struct {
	fc, work string
	env      []string
}

func newHostWorld(t *testing.T) *hostWorld {
	t.Helper()
	work := t.TempDir()
	bin, home, run := filepath.Join(work, "bin"), filepath.Join(work, "home"), filepath.Join(work, "run")
	for _, d := range []string{bin, home, run} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := testexec.WriteFile(filepath.Join(bin, "ssh"), []byte(fakeSSH), 0o755); err != nil {
		t.Fatal(err)
	}
	w := &hostWorld{fc: filepath.Join(selfAs(t, "fleetcom"), "fleetcom"), work: work}
	w.env = []string{"WORK=" + work, "HOME=" + home, "PATH=" + bin + ":/usr/bin:/bin",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_STATE_HOME=" + filepath.Join(home, ".local/state"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local/share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_RUNTIME_DIR=" + run, "TERM=xterm-256color", "LANG=C.UTF-8"}
	// What the fake left running: ended whatever the test found.
	t.Cleanup(func() {
		for _, pid := range w.pids() {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return w
}

// pids are the processes the fake ssh for host hang started.
func (w *hostWorld) pids() []int {
	b, _ := os.ReadFile(filepath.Join(w.work, "pids"))
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// log is what the fake ssh was run with, a line per run.
func (w *hostWorld) log() string {
	b, _ := os.ReadFile(filepath.Join(w.work, "ssh.log"))
	return string(b)
}

// watch starts status --watch with args on a terminal, and waits, at most
// doneWithin, for want on its screen.
func (w *hostWorld) watch(t *testing.T, want string, args ...string) *ptyUser {
	t.Helper()
	u, err := startPTY(w.fc, append([]string{"fleetcom", "status", "--watch"}, args...), w.env, w.work)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { u.Cmd.Process.Kill() })
	deadline := time.Now().Add(doneWithin)
	for !strings.Contains(u.screen(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q on the screen after %v:\n%s", want, doneWithin, u.screen())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return u
}

// stillRuns reports a process that runs (not gone, not a zombie).
func stillRuns(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// TestWatchHostThatHangs: while a host's ssh hangs, with a child holding
// its pipes, status --watch draws at once (the host being asked) and ends
// at once on q, Ctrl-C, SIGTERM and SIGHUP, the terminal given back; what
// it asked is killed.
func TestWatchHostThatHangs(t *testing.T) {
	w := newHostWorld(t)
	for _, c := range []struct {
		end  string
		want string
	}{{"q", "exit 0"}, {"\x03", "exit 0"}, {"TERM", "exit 143"}, {"HUP", "exit 129"}} {
		before := len(w.pids())
		u := w.watch(t, "(asking)", "--host", "hang")
		// The ask has started: its ssh is there to be killed.
		deadline := time.Now().Add(doneWithin)
		for len(w.pids()) < before+2 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		switch c.end {
		case "TERM":
			u.Cmd.Process.Signal(syscall.SIGTERM)
		case "HUP":
			u.Cmd.Process.Signal(syscall.SIGHUP)
		default:
			u.Write([]byte(c.end))
		}
		if how := endsWithin(t, u); how != c.want || !strings.Contains(u.screen(), "\x1b[?1049l") {
			t.Errorf("ended by %q: %s, want %s with the screen given back", c.end, how, c.want)
		}
	}
	for _, pid := range w.pids() {
		deadline := time.Now().Add(doneWithin)
		for stillRuns(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if stillRuns(pid) {
			t.Errorf("process %d of the hanging ssh outlived the watch", pid)
		}
	}
}

// TestWatchHostOneConnection: status --watch asks a host again and again
// through one ssh connection of its own (a control master whose socket is
// in the private runtime directory), and closes it when it ends.
func TestWatchHostOneConnection(t *testing.T) {
	w := newHostWorld(t)
	u := w.watch(t, "remote work", "--host", "box")
	deadline := time.Now().Add(doneWithin)
	for strings.Count(w.log(), "ControlMaster=auto") < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	u.Write([]byte("q"))
	if how := endsWithin(t, u); how != "exit 0" {
		t.Errorf("ended: %s", how)
	}
	runtime := filepath.Join(w.work, "run", "fleetcom")
	socket := filepath.Join(runtime, "ssh-"+strconv.Itoa(u.Cmd.Process.Pid), "0")
	var asks, exits int
	for _, line := range strings.Split(strings.TrimSpace(w.log()), "\n") {
		switch {
		case strings.Contains(line, "-O exit"):
			exits++
			if !strings.Contains(line, "ControlPath="+socket+" ") {
				t.Errorf("closed another connection: %s", line)
			}
		case strings.Contains(line, "status --json"):
			asks++
			if !strings.Contains(line, "-o ControlMaster=auto -o ControlPath="+socket+" -o ControlPersist=30 ") {
				t.Errorf("an ask not through the connection: %s", line)
			}
		}
	}
	if asks < 2 || exits != 1 {
		t.Errorf("%d asks, %d closes; log:\n%s", asks, exits, w.log())
	}
	if entries, _ := os.ReadDir(runtime); len(entries) != 0 {
		t.Errorf("left in the runtime directory: %v", entries)
	}
}
