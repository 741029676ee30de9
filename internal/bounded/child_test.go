package bounded

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bound is how long any of these may take: generous, as the machine may be
// loaded; each used to wait for as long as a descendant held its pipes.
const bound = 30 * time.Second

// within runs f and fails the test if it has not returned within bound.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(bound):
		t.Fatalf("%s: still waiting after %v", what, bound)
	}
}

// gone waits until pid has ended (or is a zombie waiting for its reaper).
func gone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			if syscall.Kill(pid, 0) != nil {
				return
			}
		} else if f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("process %d still runs", pid)
}

// pidFile is a file a test's program writes a PID to.
func pidFile(t *testing.T) (string, func() int) {
	path := t.TempDir() + "/pid"
	return path, func() int {
		b, err := os.ReadFile(path)
		n, err2 := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || err2 != nil {
			t.Fatalf("no pid written: %v %v", err, err2)
		}
		return n
	}
}

// cancelWhenWritten cancels once the program has written its PID: a
// deadline of a fixed time could pass, on a loaded machine, before the
// shell got as far as starting the child the test is about.
func cancelWhenWritten(path string, cancel context.CancelFunc) {
	go func() {
		defer cancel()
		deadline := time.Now().Add(bound)
		for time.Now().Before(deadline) {
			if b, err := os.ReadFile(path); err == nil && bytes.HasSuffix(b, []byte("\n")) {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
}

// A program that ends at once, leaving a child that holds its output:
// Run returns, with the program's success, and the child is gone.
func TestRunLeftChildHoldsPipe(t *testing.T) {
	path, pid := pidFile(t)
	var err error
	within(t, "Run", func() {
		cmd := exec.CommandContext(context.Background(), "sh", "-c", `sleep 1000 & echo $! > "$0"; echo started`, path)
		var out bytes.Buffer
		cmd.Stdout = &out
		err = Run(cmd)
	})
	if err != nil {
		t.Errorf("Run: %v", err)
	}
	gone(t, pid())
}

// A program that outlives its deadline, with a child that does too: both
// are killed, and Run returns.
func TestRunDeadlineKillsGroup(t *testing.T) {
	path, pid := pidFile(t)
	var err error
	within(t, "Run", func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cancelWhenWritten(path, cancel)
		cmd := exec.CommandContext(ctx, "sh", "-c", `sleep 1000 & echo $! > "$0"; sleep 1000`, path)
		cmd.Stdout = &bytes.Buffer{}
		err = Run(cmd)
	})
	if err == nil {
		t.Error("Run of a killed program: no error")
	}
	gone(t, pid())
}

// The tmux case: the output pipe is held by a process outside the group
// (a server of its own session) that never closes it. Wait ends anyway.
func TestRunPipeHeldOutsideGroup(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid here")
	}
	path, pid := pidFile(t)
	within(t, "Run", func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cancelWhenWritten(path, cancel)
		cmd := exec.CommandContext(ctx, "sh", "-c", `setsid sh -c 'echo $$ > "$0"; exec sleep 1000' "$0" & sleep 1000`, path)
		cmd.Stdout = &bytes.Buffer{}
		Run(cmd)
	})
	syscall.Kill(pid(), syscall.SIGKILL)
}

// Output stops a program that writes too much, and keeps what it may.
func TestOutputTooLong(t *testing.T) {
	var out []byte
	var err error
	within(t, "Output", func() {
		out, err = Output(exec.CommandContext(context.Background(), "yes"), 1<<20)
	})
	if !errors.Is(err, ErrTooLong) || len(out) != 1<<20 || !bytes.HasPrefix(out, []byte("y\ny\n")) {
		t.Errorf("Output(yes) = %d bytes, %v", len(out), err)
	}
}

// Output gives a failed program's last words on stderr.
func TestOutputStderr(t *testing.T) {
	cmd := exec.CommandContext(context.Background(), "sh", "-c", `i=0; while [ $i -lt 2000 ]; do echo noise >&2; i=$((i+1)); done; echo "last words" >&2; echo some; exit 3`)
	out, err := Output(cmd, 100)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || string(out) != "some\n" {
		t.Fatalf("Output = %q, %v", out, err)
	}
	if len(ee.Stderr) != 4<<10 || !bytes.HasSuffix(ee.Stderr, []byte("noise\nlast words\n")) {
		t.Errorf("stderr kept: %d bytes ending %q", len(ee.Stderr), ee.Stderr[max(0, len(ee.Stderr)-30):])
	}
}

func TestTail(t *testing.T) {
	tl := &Tail{Limit: 5}
	for _, s := range []string{"ab", "cd", "efg", "h"} {
		tl.Write([]byte(s))
	}
	if string(tl.Bytes) != "defgh" {
		t.Errorf("tail %q", tl.Bytes)
	}
	tl.Write([]byte("0123456789"))
	if string(tl.Bytes) != "56789" {
		t.Errorf("tail %q", tl.Bytes)
	}
}
