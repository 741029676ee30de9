package shim

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/termtest"
	"github.com/fleetcom/fleetcom/internal/testexec"
	"golang.org/x/sys/unix"
)

// The test binary doubles as the processes the tests need: a child with
// scripted behaviour (roleEnv), and a whole shim running Spawn on its own
// terminal (shimEnv), so that signals and resizes reach a process of their own
// rather than the test runner. A role returns from TestMain without running the
// tests, which exits 0; exit codes and deaths by signal come from /bin/sh.
const (
	roleEnv = "FLEETCOM_SHIMTEST_ROLE"
	shimEnv = "FLEETCOM_SHIMTEST_RESULT" // the shim role writes its result here
	argvEnv = "FLEETCOM_SHIMTEST_ARGV"   // JSON argv of the shim role's child
	// The shim role stops at this stage, says so and waits (stageRole).
	stageEnv = "FLEETCOM_SHIMTEST_STAGE"
)

func TestMain(m *testing.M) {
	if role := os.Getenv(roleEnv); role != "" {
		childRole(role, os.Args[1:])
		return
	}
	if os.Getenv(jobShellEnv) != "" {
		jobShellRole()
		return
	}
	if stage := os.Getenv(stageEnv); stage != "" {
		stageRole(stage)
		return
	}
	if res := os.Getenv(shimEnv); res != "" {
		shimRole(res)
		return
	}
	testexec.DefaultHangup()
	m.Run()
}

// selfCmd runs this test binary in a child role.
func selfCmd(t testing.TB, role string, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(selfEnv(), roleEnv+"="+role)
	return cmd
}

// selfEnv is the environment for a copy of the test binary. Under the race
// detector a process waits a second at exit by default; the copies need not.
func selfEnv() []string {
	return append(os.Environ(), "GORACE=atexit_sleep_ms=0 "+os.Getenv("GORACE"))
}

func shCmd(script string) *exec.Cmd { return exec.Command("/bin/sh", "-c", script) }

// userTerm is a PTY pair standing for the user's terminal: the test holds the
// master (the terminal emulator), Spawn gets the slave. The master closes at
// once, which the tests use to close the user's terminal under a running
// shim.
type userTerm struct {
	term          *termtest.Term
	master, slave *os.File
	out           termOut
}

func newUserTerm(t testing.TB, rows, cols uint16) *userTerm {
	t.Helper()
	term, err := termtest.NewTerm(int(rows), int(cols))
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	t.Cleanup(func() { term.Close() })
	return &userTerm{term: term, master: term.Master(), slave: term.Slave(), out: termOut{term}}
}

func (u *userTerm) termios(t testing.TB) unix.Termios {
	t.Helper()
	tio, err := u.term.Modes()
	if err != nil {
		t.Fatal(err)
	}
	return tio
}

func (u *userTerm) typeIn(t testing.TB, s string) {
	t.Helper()
	if _, err := u.term.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

// termOut is what the user's terminal has shown.
type termOut struct{ term *termtest.Term }

func (c termOut) bytes() []byte { return c.term.Output() }

// testWait bounds the tests' waits for an event (output, a process's end):
// generous, as the race detector beside a CPU hog can take many seconds to
// move megabytes through a PTY. It only ends a wait that failed.
const testWait = 2 * time.Minute

// waitUntil waits until ok holds for the output so far, for at most
// testWait.
func (c termOut) waitUntil(t testing.TB, what string, ok func([]byte) bool) {
	t.Helper()
	if err := c.term.WaitUntil(testWait, ok); err != nil {
		t.Fatalf("waiting for %s: %v; terminal shows %q", what, err, lastN(c.bytes(), 2000))
	}
}

func (c termOut) waitFor(t testing.TB, s string) {
	t.Helper()
	c.waitUntil(t, strconv.Quote(s), func(b []byte) bool { return bytes.Contains(b, []byte(s)) })
}

func lastN(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

// spawnAsync runs Spawn in the background.
func spawnAsync(cmd *exec.Cmd, o SpawnOptions) <-chan spawnDone {
	c := make(chan spawnDone, 1)
	go func() {
		st, err := Spawn(cmd, o)
		c <- spawnDone{st, err}
	}()
	return c
}

type spawnDone struct {
	st  Status
	err error
}

func waitSpawn(t testing.TB, c <-chan spawnDone, limit time.Duration) spawnDone {
	t.Helper()
	select {
	case d := <-c:
		return d
	case <-time.After(limit):
		t.Fatalf("Spawn did not return within %v", limit)
		return spawnDone{}
	}
}

func mustAgent(name string) harness.Agent {
	a, ok := agents.Named(name)
	if !ok {
		panic("no agent " + name)
	}
	return a
}
