package shim

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// onTerm runs cmd through Spawn on a fresh user terminal and checks that the
// terminal's mode is what it was before.
func onTerm(t *testing.T, u *userTerm, cmd *exec.Cmd, o SpawnOptions) spawnDone {
	t.Helper()
	before := u.termios(t)
	o.Stdin, o.Stdout = u.slave, u.slave
	if o.Stderr == nil {
		o.Stderr = u.slave
	}
	d := waitSpawn(t, spawnAsync(cmd, o), testWait)
	if after := u.termios(t); after != before {
		t.Errorf("terminal mode not restored:\n%s", cmp.Diff(before, after))
	}
	return d
}

func TestPTYOutputReachesUserExactly(t *testing.T) {
	const n, keep = 3<<20 + 12345, 64 << 10
	u := newUserTerm(t, 24, 80)
	tail := NewTail(keep)
	d := onTerm(t, u, selfCmd(t, "bulk", strconv.Itoa(n), strconv.Itoa(64<<10)), SpawnOptions{Tail: tail})
	if d.err != nil || d.st != (Status{}) {
		t.Fatalf("Spawn = %+v, %v; want a clean exit", d.st, d.err)
	}
	want := pattern(n)
	u.out.waitUntil(t, "all output", func(b []byte) bool { return len(b) >= n })
	if got := u.out.bytes(); !bytes.Equal(got, want) {
		t.Fatalf("terminal got %d bytes, want %d; first difference at %d", len(got), n, firstDiff(got, want))
	}
	if got := tail.Bytes(); !bytes.Equal(got, want[n-keep:]) {
		t.Errorf("tail holds %d bytes, not the last %d of the output", len(got), keep)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestPTYInputReachesChild(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	before := u.termios(t)
	c := spawnAsync(selfCmd(t, "echo"), SpawnOptions{Stdin: u.slave, Stdout: u.slave, Stderr: u.slave})
	u.typeIn(t, "hello\n")
	u.out.waitFor(t, "got:hello")
	// Our terminal is raw while the child runs: no echo of its own, no
	// line discipline of its own.
	if during := u.termios(t); during.Lflag&(syscall.ECHO|syscall.ICANON) != 0 {
		t.Errorf("terminal not raw while the child runs: lflag %#x", during.Lflag)
	}
	u.typeIn(t, "quit\n")
	d := waitSpawn(t, c, testWait)
	if d.err != nil || d.st.Code != 0 {
		t.Fatalf("Spawn = %+v, %v", d.st, d.err)
	}
	if after := u.termios(t); after != before {
		t.Errorf("terminal mode not restored:\n%s", cmp.Diff(before, after))
	}
}

func TestPTYChildSeesTerminals(t *testing.T) {
	t.Run("stderr terminal", func(t *testing.T) {
		u := newUserTerm(t, 37, 101)
		d := onTerm(t, u, selfCmd(t, "tty"), SpawnOptions{})
		if d.err != nil || d.st.Code != 0 {
			t.Fatalf("Spawn = %+v, %v", d.st, d.err)
		}
		u.out.waitFor(t, "tty 0=true 1=true 2=true size=37x101")
		u.out.waitFor(t, "stderr-line")
	})
	t.Run("stderr pipe", func(t *testing.T) {
		u := newUserTerm(t, 30, 90)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		d := onTerm(t, u, selfCmd(t, "tty"), SpawnOptions{Stderr: w})
		w.Close()
		if d.err != nil || d.st.Code != 0 {
			t.Fatalf("Spawn = %+v, %v", d.st, d.err)
		}
		u.out.waitFor(t, "tty 0=true 1=true 2=false size=30x90")
		var buf bytes.Buffer
		buf.ReadFrom(r)
		if buf.String() != "stderr-line\n" {
			t.Errorf("stderr pipe got %q", buf.String())
		}
	})
}

func TestPTYExitStatus(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   Status
	}{
		{"exit 0", Status{}},
		{"exit 1", Status{Code: 1}},
		{"exit 42", Status{Code: 42}},
		{"kill -TERM $$", Status{Code: 143, Signal: syscall.SIGTERM}},
		{"kill -KILL $$", Status{Code: 137, Signal: syscall.SIGKILL}},
	} {
		t.Run(tc.script, func(t *testing.T) {
			u := newUserTerm(t, 24, 80)
			d := onTerm(t, u, shCmd(tc.script), SpawnOptions{})
			if d.err != nil || d.st != tc.want {
				t.Errorf("Spawn = %+v, %v; want %+v", d.st, d.err, tc.want)
			}
		})
	}
}

func TestPTYStartFailure(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	cmd := shCmd("true")
	cmd.Path = "/nonexistent/agent"
	d := onTerm(t, u, cmd, SpawnOptions{})
	if !errors.Is(d.err, ErrStart) || d.st.Code != 127 {
		t.Errorf("Spawn = %+v, %v; want code 127 and ErrStart", d.st, d.err)
	}
	cmd = shCmd("true")
	cmd.Path = "/nonexistent/agent"
	st, err := Spawn(cmd, SpawnOptions{}) // the pipe path
	if !errors.Is(err, ErrStart) || st.Code != 127 {
		t.Errorf("pipe path: Spawn = %+v, %v; want code 127 and ErrStart", st, err)
	}
	dir := t.TempDir() // found, not runnable
	st, err = Spawn(exec.Command(dir), SpawnOptions{})
	if !errors.Is(err, ErrStart) || st.Code != 126 {
		t.Errorf("directory: Spawn = %+v, %v; want code 126 and ErrStart", st, err)
	}
}

func TestPTYStartedGetsPid(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	var got int
	cmd := shCmd("echo pid=$$")
	d := onTerm(t, u, cmd, SpawnOptions{Started: func(pid int) { got = pid }})
	if d.err != nil || got == 0 {
		t.Fatalf("Spawn = %+v, %v; Started saw pid %d", d.st, d.err, got)
	}
	u.out.waitFor(t, "pid="+strconv.Itoa(got))
}

// A grandchild that keeps the terminal open must not hold Spawn: it returns
// once the child has exited, with the child's output, while the grandchild
// still runs. (The grandchild outlives onTerm's bound, so a Spawn that
// waited for it fails there; no clock decides.)
func TestPTYGrandchildHoldingTerminal(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	tail := NewTail(1024)
	cmd := shCmd(`trap "" HUP; sleep 600 & echo gc=$!; echo bye; exit 3`)
	d := onTerm(t, u, cmd, SpawnOptions{Tail: tail})
	m := regexp.MustCompile(`gc=(\d+)`).FindSubmatch(tail.Bytes())
	if m == nil {
		t.Fatalf("tail %q lacks the grandchild's pid", tail.Bytes())
	}
	pid, _ := strconv.Atoi(string(m[1]))
	alive := syscall.Kill(pid, 0) == nil
	syscall.Kill(pid, syscall.SIGKILL)
	if d.err != nil || d.st.Code != 3 {
		t.Errorf("Spawn = %+v, %v; want code 3", d.st, d.err)
	}
	if !strings.Contains(string(tail.Bytes()), "bye") {
		t.Errorf("tail %q lacks the child's last line", tail.Bytes())
	}
	if !alive {
		t.Errorf("the grandchild %d was gone when Spawn returned: Spawn waited for it, or it did not hold the terminal", pid)
	}
}

// panicWriter stands for a bug in the copy path.
type panicWriter struct{}

func (panicWriter) Write([]byte) (int, error) { panic("tail broke") }

func TestPTYCopyPanicRestoresAndHangsUp(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	d := onTerm(t, u, shCmd("echo x; exec sleep 20"), SpawnOptions{Tail: panicWriter{}})
	if d.err == nil || !strings.Contains(d.err.Error(), "tail broke") {
		t.Errorf("Spawn error = %v; want the copy panic", d.err)
	}
	if d.st.Signal != syscall.SIGHUP {
		t.Errorf("Spawn = %+v; want the child hung up", d.st)
	}
}

func TestPipePathPassesDescriptors(t *testing.T) {
	in, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tail := NewTail(1024)
	cmd := selfCmd(t, "tty")
	st, err := Spawn(cmd, SpawnOptions{Stdin: in, Stdout: w, Stderr: w, Tail: tail})
	w.Close()
	if err != nil || st.Code != 0 {
		t.Fatalf("Spawn = %+v, %v", st, err)
	}
	var buf bytes.Buffer
	buf.ReadFrom(r)
	if !strings.Contains(buf.String(), "tty 0=false 1=false 2=false") || !strings.Contains(buf.String(), "stderr-line") {
		t.Errorf("child wrote %q", buf.String())
	}
	if len(tail.Bytes()) != 0 {
		t.Errorf("tail got %q on the pipe path", tail.Bytes())
	}
	for _, tc := range []struct {
		script string
		want   Status
	}{
		{"exit 42", Status{Code: 42}},
		{"kill -TERM $$", Status{Code: 143, Signal: syscall.SIGTERM}},
	} {
		st, err := Spawn(shCmd(tc.script), SpawnOptions{Stdin: in, Stdout: w, Stderr: nil})
		if err != nil || st != tc.want {
			t.Errorf("%s: Spawn = %+v, %v; want %+v", tc.script, st, err, tc.want)
		}
	}
}

// With stdout a terminal but stdin not, the child runs without a PTY and sees
// exactly what the shim was given.
func TestPipePathStdoutTerminal(t *testing.T) {
	u := newUserTerm(t, 24, 80)
	in, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	st, err := Spawn(selfCmd(t, "tty"), SpawnOptions{Stdin: in, Stdout: u.slave, Stderr: u.slave})
	if err != nil || st.Code != 0 {
		t.Fatalf("Spawn = %+v, %v", st, err)
	}
	u.out.waitFor(t, "tty 0=false 1=true 2=true size=24x80")
}

// Spawn starts the child itself rather than through os/exec, and keeps its
// rules: the last value of a variable wins, and a missing descriptor is the
// null device.
func TestSpawnEnvAndNullDescriptors(t *testing.T) {
	out, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command("/bin/sh", "-c", `tr '\0' '\n' </proc/$$/environ; read line; echo "read: $? [$line]"; echo oops >&2`)
	cmd.Env = []string{"FLEETCOM_T=first", "PATH=/usr/bin:/bin", "FLEETCOM_T=last"}
	st, err := Spawn(cmd, SpawnOptions{Stdout: out})
	if err != nil || st.Code != 0 {
		t.Fatalf("Spawn = %+v, %v", st, err)
	}
	b, _ := os.ReadFile(out.Name())
	got := string(b)
	if n := strings.Count(got, "FLEETCOM_T="); n != 1 || !strings.Contains(got, "FLEETCOM_T=last\n") {
		t.Errorf("the child saw FLEETCOM_T %d times, want once, as last:\n%s", n, got)
	}
	if !strings.Contains(got, "read: 1 []") || strings.Contains(got, "oops") {
		t.Errorf("stdin and stderr were not the null device:\n%s", got)
	}
}
