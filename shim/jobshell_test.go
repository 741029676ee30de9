//go:build linux

package shim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// Job control, as a user's shell sees it. The tests run a small job-control
// shell (jobShellRole, a role of the test binary) as the session leader of the
// user's terminal; it starts the shim role as a job in a process group of its
// own, in the foreground, and reports to the test what wait(WUNTRACED) says
// about it, as a shell would show it. The test tells it to fg or bg the job.
const (
	jobShellEnv = "FLEETCOM_SHIMTEST_JOBSHELL" // the job shell's argv for the shim, JSON
	restEnv     = "FLEETCOM_SHIMTEST_REST"     // the shim role says when its job signals are caught
)

// jobShell is the test's end of a job shell.
type jobShell struct {
	cmd    *exec.Cmd
	orders *os.File
	lines  chan string
	shim   *shimProc // only for its result file
	pid    int       // the shim's
}

// startJobs starts a job shell on u's terminal, running the shim role as its
// job with argv as the shim's child.
func startJobs(t *testing.T, u *userTerm, argv ...string) *jobShell {
	t.Helper()
	return startJobsOut(t, u, u.slave, argv...)
}

// startJobsOut is startJobs with the job shell's and the shim's stdout and
// stderr on out.
func startJobsOut(t *testing.T, u *userTerm, out *os.File, argv ...string) *jobShell {
	t.Helper()
	p := newShimProc(t, argv)
	orderR, orderW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	reportR, reportW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Env = append(p.cmd.Env, jobShellEnv+"=1", restEnv+"=1")
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = u.slave, out, out
	p.cmd.ExtraFiles = []*os.File{orderR, reportW}
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	p.start(t)
	orderR.Close()
	reportW.Close()
	s := &jobShell{cmd: p.cmd, orders: orderW, shim: p, lines: make(chan string, 16)}
	t.Cleanup(func() { orderW.Close(); reportR.Close() })
	go func() {
		sc := bufio.NewScanner(reportR)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	pid := s.expect(t, "pid ")
	s.pid, _ = strconv.Atoi(pid)
	t.Cleanup(func() { syscall.Kill(s.pid, syscall.SIGKILL) })
	return s
}

// expect waits for the job shell's next report, which must start with
// prefix, and returns the rest of it.
func (s *jobShell) expect(t *testing.T, prefix string) string {
	t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			t.Fatalf("job shell ended; want a report %q", prefix)
		}
		rest, found := strings.CutPrefix(l, prefix)
		if !found {
			t.Fatalf("job shell reported %q; want %q", l, prefix)
		}
		return rest
	case <-time.After(15 * time.Second):
		t.Fatalf("no report %q from the job shell", prefix)
	}
	return ""
}

// stopped waits until the job shell reports the shim stopped with sig.
func (s *jobShell) stopped(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if got := s.expect(t, "stopped "); got != strconv.Itoa(int(sig)) {
		t.Fatalf("shim stopped with signal %s; want %d (%v)", got, sig, sig)
	}
}

// order tells the job shell to "fg", "bg" or "wait".
func (s *jobShell) order(t *testing.T, what string) {
	t.Helper()
	if _, err := s.orders.WriteString(what + "\n"); err != nil {
		t.Fatal(err)
	}
}

// exited waits until the job shell reports the shim's exit and returns what
// the shim itself reported.
func (s *jobShell) exited(t *testing.T) shimResult {
	t.Helper()
	s.expect(t, "exited ")
	b, err := os.ReadFile(s.shim.result)
	if err != nil {
		t.Fatalf("shim left no result: %v", err)
	}
	var r shimResult
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// jobShellRole is a job-control shell, reduced to one job: the shim role,
// started in a process group of its own in the terminal's foreground. When
// the job stops, the shell takes the terminal back and puts its own mode back
// (as bash does), reports "stopped <signal>" on descriptor 4 and waits for an
// order on descriptor 3: "fg" gives the job the terminal and continues it,
// "bg" only continues it, "wait" waits on (someone else continues it). When
// the job ends it reports "exited <status>".
func jobShellRole() {
	orders := bufio.NewScanner(os.NewFile(3, "orders"))
	reports := os.NewFile(4, "reports")
	mode, _ := unix.IoctlGetTermios(0, ioctlGetTermios)
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = dropEnv(os.Environ(), jobShellEnv)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Foreground: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(reports, "error %v\n", err)
		return
	}
	pid := cmd.Process.Pid
	fmt.Fprintf(reports, "pid %d\n", pid)
	for {
		var ws unix.WaitStatus
		if _, err := unix.Wait4(pid, &ws, unix.WUNTRACED, nil); err != nil {
			if err == unix.EINTR {
				continue
			}
			fmt.Fprintf(reports, "error %v\n", err)
			return
		}
		if !ws.Stopped() {
			fmt.Fprintf(reports, "exited %#x\n", int(ws))
			return
		}
		foreground(unix.Getpgrp())
		_ = unix.IoctlSetTermios(0, ioctlSetTermios, mode)
		fmt.Fprintf(reports, "stopped %d\n", int(ws.StopSignal()))
		if !orders.Scan() {
			return
		}
		switch orders.Text() {
		case "fg":
			foreground(pid)
			_ = unix.Kill(-pid, unix.SIGCONT)
		case "bg":
			_ = unix.Kill(-pid, unix.SIGCONT)
		}
	}
}

// foreground gives the terminal to process group pgrp, as a shell does from
// the background: with SIGTTOU blocked.
func foreground(pgrp int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var set, old unix.Sigset_t
	set.Val[(unix.SIGTTOU-1)/64] |= 1 << (uint(unix.SIGTTOU-1) % 64)
	_ = unix.PthreadSigmask(unix.SIG_BLOCK, &set, &old)
	_ = unix.IoctlSetPointerInt(0, unix.TIOCSPGRP, pgrp)
	_ = unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil)
}

func dropEnv(env []string, name string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, name+"=") {
			out = append(out, e)
		}
	}
	return out
}

// jobChildRole plays the children of the job-control tests.
func jobChildRole(role string, args []string) {
	switch role {
	case "tui": // as a TUI does: raw mode, ^Z read as a byte suspends, 'q' quits
		tuiRole()
	case "ids": // where the child sits: its pid, parent, group, session, foreground
		fg, _ := unix.IoctlGetInt(0, unix.TIOCGPGRP)
		fmt.Printf("ids pid=%d ppid=%d pgid=%d sid=%d fg=%d\n",
			os.Getpid(), os.Getppid(), unix.Getpgrp(), must(unix.Getsid(0)), fg)
	}
}

func must(v int, _ error) int { return v }

// tuiRole reads its terminal raw. ^Z restores the terminal's mode, says
// "suspending", and stops the process group with SIGTSTP (as Codex does; the
// kernel discards that in an orphaned group); once continued it goes raw
// again and says "back" and its terminal's size. Any other byte is echoed as "got <byte>"; 'q' quits.
func tuiRole() {
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	old, _ := term.MakeRaw(0)
	fmt.Print("ready\r\n")
	b := make([]byte, 1)
	for {
		if n, err := os.Stdin.Read(b); err != nil || n == 0 {
			return
		}
		switch b[0] {
		case 'q':
			_ = term.Restore(0, old)
			return
		case 0x1a:
			_ = term.Restore(0, old)
			fmt.Print("suspending\n")
			_ = syscall.Kill(0, syscall.SIGTSTP)
			<-cont
			old, _ = term.MakeRaw(0)
			ws, _ := unix.IoctlGetWinsize(0, unix.TIOCGWINSZ)
			fmt.Printf("back %dx%d\r\n", ws.Row, ws.Col)
		default:
			fmt.Printf("got %c\r\n", b[0])
		}
	}
}
