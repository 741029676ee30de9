package shim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// These tests run a whole shim (the test binary in the shim role) in a session
// of its own on the user's terminal, like a program a shell started, so that
// the kernel's resize and hangup signals and the signals the tests send reach
// it and not the test runner.

type shimProc struct {
	cmd    *exec.Cmd
	result string
}

// startShim starts the shim role on u's terminal, running argv as its child.
func startShim(t *testing.T, u *userTerm, argv ...string) *shimProc {
	t.Helper()
	p := newShimProc(t, argv)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = u.slave, u.slave, u.slave
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	p.start(t)
	return p
}

func newShimProc(t *testing.T, argv []string) *shimProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(argv)
	p := &shimProc{cmd: exec.Command(exe), result: filepath.Join(t.TempDir(), "result.json")}
	p.cmd.Env = append(selfEnv(), shimEnv+"="+p.result, argvEnv+"="+string(a))
	p.cmd.Dir = t.TempDir() // where a child's core file would go
	return p
}

func (p *shimProc) start(t *testing.T) {
	t.Helper()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill() })
}

func (p *shimProc) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// finish waits for the shim to exit by itself and returns what it reported.
func (p *shimProc) finish(t *testing.T) shimResult {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shim process: %v", err)
		}
	case <-time.After(testWait):
		p.cmd.Process.Kill()
		t.Fatal("shim did not exit")
	}
	b, err := os.ReadFile(p.result)
	if err != nil {
		t.Fatalf("shim left no result: %v", err)
	}
	var r shimResult
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func checkResult(t *testing.T, r shimResult, code int, sig syscall.Signal) {
	t.Helper()
	if r.Err != "" || r.Code != code || r.Signal != int(sig) {
		t.Errorf("shim reported code %d signal %d err %q; want code %d signal %d",
			r.Code, r.Signal, r.Err, code, sig)
	}
}

// checkSent checks the signal the shim reported passing on to its child
// (Status.Sent): what tells a run ended from outside from one its user quit.
func checkSent(t *testing.T, r shimResult, sig syscall.Signal) {
	t.Helper()
	if r.Sent != int(sig) {
		t.Errorf("shim reported passing on signal %d; want %d", r.Sent, sig)
	}
}

func TestShimFollowsResize(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	before := u.termios(t)
	p := startShim(t, u, "role:winch")
	u.out.waitFor(t, "size=24x80")
	// As a terminal emulator does: the kernel then signals SIGWINCH to the
	// terminal's foreground process group, the shim.
	if err := unix.IoctlSetWinsize(int(u.master.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: 132}); err != nil {
		t.Fatal(err)
	}
	u.out.waitFor(t, "size=50x132")
	u.typeIn(t, "q")
	r := p.finish(t)
	checkResult(t, r, 0, 0)
	checkSent(t, r, 0)
	if after := u.termios(t); after != before {
		t.Errorf("terminal mode not restored:\n%s", cmp.Diff(before, after))
	}
}

func TestShimForwardsSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			u := newUserTerm(t, 24, 80)
			p := startShim(t, u, "/bin/sh", "-c", "echo ready; exec sleep 20")
			u.out.waitFor(t, "ready")
			p.signal(t, sig)
			r := p.finish(t)
			checkResult(t, r, 128+int(sig), sig)
			checkSent(t, r, sig)
		})
	}
}

// Closing the terminal: the shim gets SIGHUP and EIO; the child is hung up
// in turn, and the shim still returns and reports.
func TestShimTerminalClosed(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		code         int
		sig          syscall.Signal
	}{
		{"child dies of SIGHUP", "echo ready; exec sleep 20", 128 + 1, syscall.SIGHUP},
		{"child ignores SIGHUP", `trap "" HUP; echo ready; cat; exit 7`, 7, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newUserTerm(t, 24, 80)
			p := startShim(t, u, "/bin/sh", "-c", tc.script)
			u.out.waitFor(t, "ready")
			u.master.Close()
			r := p.finish(t)
			checkResult(t, r, tc.code, tc.sig)
			checkSent(t, r, syscall.SIGHUP) // even when the child took no notice

		})
	}
}

// On the pipe path the child shares the shim's terminal and process group: ^C
// reaches the child from the terminal, and the shim survives to report it.
func TestShimPipePathSignals(t *testing.T) {
	for _, tc := range []struct {
		name      string
		send      func(t *testing.T, u *userTerm, p *shimProc)
		sig, sent syscall.Signal
	}{
		// The keyboard's ^C reaches the child itself: the user quit it.
		{"keyboard ^C", func(t *testing.T, u *userTerm, p *shimProc) { u.typeIn(t, "\x03") }, syscall.SIGINT, 0},
		{"kill -TERM shim", func(t *testing.T, u *userTerm, p *shimProc) { p.signal(t, syscall.SIGTERM) }, syscall.SIGTERM, syscall.SIGTERM},
		{"kill -HUP shim", func(t *testing.T, u *userTerm, p *shimProc) { p.signal(t, syscall.SIGHUP) }, syscall.SIGHUP, syscall.SIGHUP},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := newUserTerm(t, 24, 80)
			p := startPipePath(t, u)
			tc.send(t, u, p)
			res := p.finish(t)
			checkResult(t, res, 128+int(tc.sig), tc.sig)
			checkSent(t, res, tc.sent)
		})
	}
}

// A child that stops itself: the shim gives the terminal back and stops too,
// and when continued it continues the child.
func TestShimFollowsChildStop(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("stops are followed on Linux only")
	}
	u := newUserTerm(t, 24, 80)
	before := u.termios(t)
	p := startShim(t, u, "/bin/sh", "-c", "echo ready; kill -STOP $$; echo resumed")
	u.out.waitFor(t, "ready")
	var ws unix.WaitStatus
	pid := p.cmd.Process.Pid
	if _, err := unix.Wait4(pid, &ws, unix.WUNTRACED, nil); err != nil || !ws.Stopped() {
		t.Fatalf("shim not stopped: %v, status %#x", err, ws)
	}
	if during := u.termios(t); during != before {
		t.Errorf("terminal not restored while stopped:\n%s", cmp.Diff(before, during))
	}
	p.signal(t, syscall.SIGCONT)
	u.out.waitFor(t, "resumed")
	checkResult(t, p.finish(t), 0, 0)
	if after := u.termios(t); after != before {
		t.Errorf("terminal mode not restored:\n%s", cmp.Diff(before, after))
	}
}

func TestReraise(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGPIPE, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			if sig == syscall.SIGPIPE && runtime.GOOS != "linux" {
				t.Skip("SIGPIPE is re-raised on Linux only")
			}
			cmd := selfCmd(t, "reraise", strconv.Itoa(int(sig)))
			cmd.Dir = t.TempDir()
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("process did not die: %v, output %q", err, out)
			}
			ws := ee.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != sig || ws.CoreDump() {
				t.Errorf("process ended with %#x (%v); want killed by %v without a core", ws, err, sig)
			}
		})
	}
}

// stageRole is the shim role with a halt on the way: at the named stage it
// says so on its stdout and then waits, as a shim does while it reads a config
// or waits for a store lock that another process holds, until a signal ends
// it. The stages: "before" the child (signals caught, as supervise has them
// caught first), "starting" (our terminal raw, the child not started),
// "exited" (the child exited, our terminal not yet restored) and "after"
// Spawn returned. With "slowrelay" it does not halt, but the signal relay
// acts on each signal late, and the shim takes a moment after Spawn returned
// before it exits.
func stageRole(stage string) {
	halt := func() {
		fmt.Printf("halted %s\r\n", stage)
		time.Sleep(time.Hour)
	}
	switch stage {
	case "before":
		signalsReady()
		halt()
	case "starting":
		hookStarting = halt
	case "exited":
		hookExited = halt
	case "slowrelay":
		hookRelay = func() { time.Sleep(50 * time.Millisecond) }
	}
	var argv []string
	_ = json.Unmarshal([]byte(os.Getenv(argvEnv)), &argv)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = childEnv(os.Environ())
	_, _ = Spawn(cmd, SpawnOptions{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	switch stage {
	case "after":
		halt()
	case "slowrelay":
		time.Sleep(200 * time.Millisecond) // as if recording the run
	case "recording":
		_ = os.WriteFile(os.Getenv(stageFileEnv), []byte("spawned"), 0o600)
		time.Sleep(time.Second) // as if recording the run
	}
}

// stageFileEnv names the file the "recording" stage writes once Spawn has
// returned: its terminal may be gone by then.
const stageFileEnv = "FLEETCOM_SHIMTEST_STAGEFILE"

// A closed terminal sends the shim a SIGHUP, which goes on to the child, and
// may send another as the processes on it go: one that comes after the child
// died of the first, while the run is recorded, must not end the shim before
// the record is written. (restore then said "killed", not "hangup", for a
// run in a tmux server that was killed.)
func TestShimSecondHangupWhileRecording(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	spawned := filepath.Join(t.TempDir(), "spawned")
	p := newShimProc(t, []string{"/bin/sh", "-c", "echo ready; exec sleep 20"})
	p.cmd.Env = append(p.cmd.Env, recordingEnv(spawned)...)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = u.slave, u.slave, u.slave
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	p.start(t)
	u.out.waitFor(t, "ready")
	u.master.Close()
	waitSpawned(t, spawned, "the terminal closed")
	p.signal(t, syscall.SIGHUP)
	if ws := p.death(t); ws.Signaled() || ws.ExitStatus() != 0 {
		t.Errorf("shim ended with %#x; want it to outlive the second hang-up and finish recording", ws)
	}
}

// startStage starts the stage role on u's terminal, in a session of its own.
func startStage(t *testing.T, u *userTerm, stage string, argv ...string) *shimProc {
	t.Helper()
	p := newShimProc(t, argv)
	p.cmd.Env = append(p.cmd.Env, stageEnv+"="+stage)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = u.slave, u.slave, u.slave
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	p.start(t)
	return p
}

// death waits for the shim to end, and returns how it ended.
func (p *shimProc) death(t *testing.T) syscall.WaitStatus {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(testWait):
		p.cmd.Process.Kill()
		<-done
		t.Fatal("shim did not end")
	}
	return p.cmd.ProcessState.Sys().(syscall.WaitStatus)
}

// A signal that comes while no child runs has its default effect: the shim
// dies of it, its terminal restored, and a child not started yet never
// starts. Before the relay, the signals were caught for good and such a
// signal was swallowed (or, before the child, held for it).
func TestShimSignalWhileNoChildRuns(t *testing.T) {
	for _, tc := range []struct {
		stage string
		sig   syscall.Signal
	}{
		{"before", syscall.SIGTERM},
		{"before", syscall.SIGINT},
		{"starting", syscall.SIGTERM},
		{"starting", syscall.SIGQUIT},
		{"exited", syscall.SIGHUP},
		{"exited", syscall.SIGINT},
		{"after", syscall.SIGTERM},
		{"after", syscall.SIGINT},
	} {
		t.Run(tc.stage+"/"+tc.sig.String(), func(t *testing.T) {
			u := newUserTerm(t, 24, 80)
			before := u.termios(t)
			p := startStage(t, u, tc.stage, "/bin/sh", "-c", "echo child-ran")
			u.out.waitFor(t, "halted "+tc.stage)
			p.signal(t, tc.sig)
			ws := p.death(t)
			if !ws.Signaled() || ws.Signal() != tc.sig || ws.CoreDump() {
				t.Errorf("shim ended with %#x; want killed by %v without a core", ws, tc.sig)
			}
			if after := u.termios(t); after != before {
				t.Errorf("terminal mode not restored:\n%s", cmp.Diff(before, after))
			}
			ran := bytes.Contains(u.out.bytes(), []byte("child-ran"))
			if want := tc.stage == "exited" || tc.stage == "after"; ran != want {
				t.Errorf("child ran: %v, want %v; terminal shows %q", ran, want, u.out.bytes())
			}
		})
	}
}

// On the pipe path too, a signal after the child's exit ends the shim.
func TestShimPipePathSignalAfterChild(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := newShimProc(t, []string{"/bin/sh", "-c", "echo child-ran"})
	p.cmd.Env = append(p.cmd.Env, stageEnv+"=after")
	p.cmd.Stdout, p.cmd.Stderr = w, w
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	p.start(t)
	w.Close()
	got := make([]byte, 0, 64)
	for !bytes.Contains(got, []byte("halted after")) {
		b := make([]byte, 64)
		n, err := r.Read(b)
		if err != nil {
			t.Fatalf("shim said %q, then %v", got, err)
		}
		got = append(got, b[:n]...)
	}
	p.signal(t, syscall.SIGTERM)
	if ws := p.death(t); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("shim ended with %#x; want killed by SIGTERM", ws)
	}
}

// A signal ignored when the shim started stays ignored, in the shim and in
// its child (nohup).
func TestShimKeepsIgnoredSignal(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	u := newUserTerm(t, 24, 80)
	p := newShimProc(t, []string{"/bin/sh", "-c", "grep SigIgn /proc/self/status"})
	p.cmd.Env = append(p.cmd.Env, stageEnv+"=after")
	p.cmd.Args = []string{"/bin/sh", "-c", `trap "" HUP; exec "$0"`, p.cmd.Path}
	p.cmd.Path = "/bin/sh"
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = u.slave, u.slave, u.slave
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	p.start(t)
	u.out.waitFor(t, "halted after")
	m := regexp.MustCompile(`SigIgn:\s*([0-9a-f]+)`).FindSubmatch(u.out.bytes())
	if m == nil {
		t.Fatalf("child did not report; terminal shows %q", u.out.bytes())
	}
	if mask, _ := strconv.ParseUint(string(m[1]), 16, 64); mask&1 == 0 {
		t.Errorf("child's ignored signals %s lack SIGHUP", m[1])
	}
	p.signal(t, syscall.SIGHUP) // ignored: the TERM that follows ends the shim
	p.signal(t, syscall.SIGTERM)
	if ws := p.death(t); !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("shim ended with %#x; want killed by SIGTERM, SIGHUP ignored", ws)
	}
}

// The keyboard's ^C on the pipe path reaches the shim and the child at once;
// the child dies of it, and may be seen to before the relay has acted on the
// shim's copy (here the relay is slowed down to make sure of that). That copy
// came while the child ran: the shim must outlive it, to record the run and
// report the child's death.
func TestShimPipePathSignalRacingExit(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	p := startPipePath(t, u, stageEnv+"=slowrelay")
	u.typeIn(t, "\x03")
	if ws := p.death(t); ws.Signaled() || ws.ExitStatus() != 0 {
		t.Errorf("shim ended with %#x; want it to outlive the ^C that ended its child", ws)
	}
}
