//go:build linux

package fleet

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
)

// TestHelperParent is not a test: run by TestLiveNeedsItsShim as a copy of
// this program, it starts a sleep, prints its PID and waits, as the session
// leader between a shim and its CLI does.
func TestHelperParent(t *testing.T) {
	if os.Getenv("FLEET_HELPER_PARENT") != "1" {
		t.Skip("a helper process, not a test")
	}
	cmd := exec.Command("sleep", "600")
	if err := cmd.Start(); err != nil {
		os.Exit(1)
	}
	os.Stdout.WriteString(strconv.Itoa(cmd.Process.Pid) + "\n")
	cmd.Wait()
	os.Exit(0)
}

// childOf starts cmd, which prints the PID of a sleep it started and waits,
// and returns that PID and cmd's.
func childOf(t *testing.T, cmd *exec.Cmd) (sleep, parent int) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, err2 := strconv.Atoi(line[:max(0, len(line)-1)])
	if err != nil || err2 != nil {
		t.Fatalf("no PID from %v: %v %v", cmd.Args, err, err2)
	}
	t.Cleanup(func() { syscallKill(pid) })
	return pid, cmd.Process.Pid
}

// A live file counts only for the CLI its shim runs: the shim's child, or
// its grandchild through a clone of the shim (the session leader). A file
// that names any other running process, even with its true parent as the
// shim, is no run: it neither shows in status nor holds its conversation.
func TestLiveNeedsItsShim(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc: process start times are not read here")
	}
	run := func(pid, shim int) Run {
		p, ok := Identify(pid)
		if !ok {
			t.Fatalf("process %d not identified", pid)
		}
		return Run{Tool: tool, ID: uid, Cwd: "/p", State: harness.Working, Since: t0, Started: t0, Proc: p, Shim: shim}
	}
	self := os.Getpid()
	child := sleeper(t).Process.Pid
	helper := exec.Command(os.Args[0], "-test.run=^TestHelperParent$")
	helper.Env = append(os.Environ(), "FLEET_HELPER_PARENT=1")
	led, leader := childOf(t, helper)
	viaShell, shell := childOf(t, exec.Command("sh", "-c", `sleep 600 & echo $!; wait`))
	for _, c := range []struct {
		what string
		r    Run
		want bool
	}{
		{"the shim's child", run(child, self), true},
		{"through a clone of the shim", run(led, self), true},
		{"no shim named", run(child, 0), false},
		{"another shim", run(child, 1), false},
		{"the shim itself as the CLI", run(self, self), false},
		{"a process whose parent is no fleetcom", run(viaShell, shell), false},
		{"through a process that is no clone of the shim", run(viaShell, self), false},
		{"the clone's parent named as the CLI's", run(led, leader), true},
	} {
		if got := Live(c.r); got != c.want {
			t.Errorf("%s: Live = %v, want %v", c.what, got, c.want)
		}
	}
}

func syscallKill(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
