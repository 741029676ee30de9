//go:build linux

package shim

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// isRaw reports whether the user's terminal is in the shim's raw mode.
func isRaw(t *testing.T, u *userTerm) bool {
	t.Helper()
	m := u.termios(t)
	return m.Lflag&(unix.ICANON|unix.ECHO|unix.ISIG) == 0
}

// ^Z typed to a TUI that suspends itself: the shim stops with SIGTSTP, our
// terminal back in its own mode; fg brings both back, raw, at the size our
// terminal has now, the TUI goes on, and the run ends as the child does. Before the session leader the kernel
// discarded the TUI's SIGTSTP: nothing stopped.
func TestJobCtrlZ(t *testing.T) {
	needLeader(t)
	u := newUserTerm(t, 24, 80)
	before := u.termios(t)
	s := startJobs(t, u, "role:tui")
	u.out.waitFor(t, "ready")
	u.typeIn(t, "\x1a")
	s.stopped(t, syscall.SIGTSTP)
	u.out.waitFor(t, "suspending")
	if during := u.termios(t); during != before {
		t.Errorf("terminal not restored while stopped:\n%s", cmp.Diff(before, during))
	}
	// Resized while stopped: the child finds the new size once back.
	if err := unix.IoctlSetWinsize(int(u.master.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: 132}); err != nil {
		t.Fatal(err)
	}
	s.order(t, "fg")
	u.out.waitFor(t, "back 50x132")
	if !isRaw(t, u) {
		t.Errorf("terminal not raw after fg: lflag %#x", u.termios(t).Lflag)
	}
	u.typeIn(t, "x")
	u.out.waitFor(t, "got x")
	u.typeIn(t, "q")
	checkResult(t, s.exited(t), 0, 0)
	if after := u.termios(t); after != before {
		t.Errorf("terminal mode not restored:\n%s", cmp.Diff(before, after))
	}
}

// bg after ^Z: the shim, continued in the background, reaches for the
// terminal's mode and stops with SIGTTOU, as the TUI itself would; the TUI
// stays stopped until fg.
func TestJobBackground(t *testing.T) {
	needLeader(t)
	u := newUserTerm(t, 24, 80)
	s := startJobs(t, u, "role:tui")
	u.out.waitFor(t, "ready")
	u.typeIn(t, "\x1a")
	s.stopped(t, syscall.SIGTSTP)
	s.order(t, "bg")
	s.stopped(t, syscall.SIGTTOU)
	if strings.Contains(string(u.out.bytes()), "back") {
		t.Errorf("the TUI ran on while its job was in the background")
	}
	s.order(t, "fg")
	u.out.waitFor(t, "back")
	u.typeIn(t, "q")
	checkResult(t, s.exited(t), 0, 0)
}

// kill -STOP of the shim, then fg: the shell had put its own mode back; the
// shim makes the terminal raw again, and the child, never stopped, goes on.
// kill -CONT from outside, with the job in the background, stops the shim
// with SIGTTOU until fg, as for any program that wants the terminal.
func TestJobStopContShim(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	s := startJobs(t, u, "role:tui")
	u.out.waitFor(t, "signals caught")
	u.out.waitFor(t, "ready")
	syscall.Kill(s.pid, syscall.SIGSTOP)
	s.stopped(t, syscall.SIGSTOP)
	if isRaw(t, u) {
		t.Fatalf("the job shell did not put its mode back")
	}
	s.order(t, "wait")
	syscall.Kill(s.pid, syscall.SIGCONT) // from outside: the job is in the background
	s.stopped(t, syscall.SIGTTOU)
	s.order(t, "fg")
	u.typeIn(t, "y")
	u.out.waitFor(t, "got y")
	if !isRaw(t, u) {
		t.Errorf("terminal not raw after fg: lflag %#x", u.termios(t).Lflag)
	}
	u.typeIn(t, "q")
	checkResult(t, s.exited(t), 0, 0)
}

// kill -TSTP of the shim goes to the child's group: the child stops, and the
// shim with it, as a kill -TSTP of the child would have done; fg continues
// both.
func TestJobTSTPFromOutside(t *testing.T) {
	needLeader(t)
	u := newUserTerm(t, 24, 80)
	s := startJobs(t, u, "/bin/sh", "-c", "echo gc=$$; sleep 30 & wait")
	u.out.waitFor(t, "signals caught")
	child := grandchild(t, u)
	syscall.Kill(s.pid, syscall.SIGTSTP)
	s.stopped(t, syscall.SIGTSTP)
	if st := procState(t, child); st != "T" {
		t.Errorf("child in state %s while the shim is stopped; want T (stopped)", st)
	}
	s.order(t, "fg")
	waitState(t, child, "S")
	syscall.Kill(s.pid, syscall.SIGTERM)
	checkResult(t, s.exited(t), 128+int(syscall.SIGTERM), syscall.SIGTERM)
}

// procState is the state letter of a process, as /proc/<pid>/stat has it.
func procState(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return f[0]
}

// waitState waits until pid is in state st.
func waitState(t *testing.T, pid int, st string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for procState(t, pid) != st {
		if time.Now().After(deadline) {
			t.Fatalf("process %d in state %s; want %s", pid, procState(t, pid), st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// On the pipe path the child shares the shim's process group: the keyboard's
// ^Z stops both, and fg continues both.
func TestJobPipePathCtrlZ(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := startJobsOut(t, u, w, "/bin/sh", "-c", "echo ready; read line; echo got $line")
	w.Close()
	lines := bufio.NewReader(r)
	if l, err := lines.ReadString('\n'); l != "ready\n" {
		t.Fatalf("child said %q, %v", l, err)
	}
	u.typeIn(t, "\x1a")
	s.stopped(t, syscall.SIGTSTP)
	s.order(t, "fg")
	u.typeIn(t, "hello\n")
	if l, err := lines.ReadString('\n'); l != "got hello\n" {
		t.Fatalf("child said %q, %v", l, err)
	}
	checkResult(t, s.exited(t), 0, 0)
}

// The child leads its own process group, in the PTY's foreground, and its
// parent leads the PTY's session; Started reports the child, not the leader.
// Before the session leader the child led the session itself.
func TestJobChildPlace(t *testing.T) {
	needLeader(t)
	u := newUserTerm(t, 24, 80)
	var got int
	d := onTerm(t, u, selfCmd(t, "ids"), SpawnOptions{Started: func(pid int) { got = pid }})
	if d.err != nil || d.st.Code != 0 {
		t.Fatalf("Spawn = %+v, %v", d.st, d.err)
	}
	u.out.waitFor(t, "ids ")
	var pid, ppid, pgid, sid, fg int
	line := string(u.out.bytes()[strings.Index(string(u.out.bytes()), "ids "):])
	if _, err := fmt.Sscanf(line, "ids pid=%d ppid=%d pgid=%d sid=%d fg=%d", &pid, &ppid, &pgid, &sid, &fg); err != nil {
		t.Fatalf("child said %q: %v", line, err)
	}
	if pid != got || pgid != pid || fg != pid || sid != ppid || sid == pid || ppid == os.Getpid() {
		t.Errorf("child pid=%d ppid=%d pgid=%d sid=%d fg=%d, Started %d; want its own foreground group under a session leader",
			pid, ppid, pgid, sid, fg, got)
	}
}

// Signals the shim forwards reach the child's whole process group.
func TestJobSignalsReachGroup(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	p := startShim(t, u, "/bin/sh", "-c", "sleep 30 & echo gc=$!; wait")
	u.out.waitFor(t, "gc=")
	gc := grandchild(t, u)
	p.signal(t, syscall.SIGTERM)
	checkResult(t, p.finish(t), 128+int(syscall.SIGTERM), syscall.SIGTERM)
	waitGone(t, gc)
}

// grandchild reads the pid a child printed as "gc=<pid>".
func grandchild(t *testing.T, u *userTerm) int {
	t.Helper()
	re := regexp.MustCompile(`gc=(\d+)\r?\n`)
	u.out.waitUntil(t, "gc=<pid>", re.Match)
	pid, _ := strconv.Atoi(string(re.FindSubmatch(u.out.bytes())[1]))
	return pid
}

// waitGone waits until pid has ended (a zombie counts as ended).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil || strings.Contains(string(b), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d still runs: %s", pid, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A child started under the leader gets the limit on open files the shim
// started with, not the one Go raised it to, as os/exec would give it.
func TestJobChildOpenFileLimit(t *testing.T) {
	needLeader(t)
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Max < 300 {
		t.Skipf("hard limit %d leaves no room below it", lim.Max)
	}
	low := syscall.Rlimit{Cur: 200, Max: lim.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	u := newUserTerm(t, 24, 80)
	p := startShim(t, u, "/bin/sh", "-c", "echo limit=$(ulimit -n)")
	u.out.waitFor(t, "limit=")
	checkResult(t, p.finish(t), 0, 0)
	u.out.waitFor(t, "limit=200\r\n")
}

// needLeader skips where there is no session leader (package leader): there
// the child's group is orphaned and ^Z cannot stop it.
func needLeader(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skip("no session leader on " + runtime.GOOS + "/" + runtime.GOARCH)
	}
}

// A shim killed outright (SIGKILL): the leader, which shares the shim's
// descriptors, exits too, so the PTY closes and the child is hung up as when
// a terminal closes, instead of running on a terminal nobody reads.
func TestJobShimKilled(t *testing.T) {
	needLeader(t)
	u := newUserTerm(t, 24, 80)
	p := startShim(t, u, "/bin/sh", "-c", "echo gc=$$; exec sleep 30")
	u.out.waitFor(t, "gc=")
	child := grandchild(t, u)
	p.signal(t, syscall.SIGKILL)
	p.cmd.Wait()
	waitGone(t, child)
}

// A shim whose own process group is orphaned (it leads its terminal's
// session, as in a tmux pane started with the command itself): the kernel
// discards the shim's SIGTSTP as it would the CLI's own, so the shim goes on
// at once and continues the CLI, which comes back instead of hanging.
func TestJobOrphanedShim(t *testing.T) {
	needLeader(t)
	u := newUserTerm(t, 24, 80)
	p := startShim(t, u, "role:tui")
	u.out.waitFor(t, "ready")
	u.typeIn(t, "\x1a")
	u.out.waitFor(t, "back")
	var ws unix.WaitStatus
	if pid, err := unix.Wait4(p.cmd.Process.Pid, &ws, unix.WUNTRACED|unix.WNOHANG, nil); err != nil || pid != 0 {
		t.Errorf("shim reported %#x (%v): want it never stopped", ws, err)
	}
	u.typeIn(t, "q")
	checkResult(t, p.finish(t), 0, 0)
}
