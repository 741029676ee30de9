package shim

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

const liveID = "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"

// liveState waits until the run's live file says want, and returns it.
func liveState(t *testing.T, d fleet.Dir, want harness.State) fleet.Run {
	t.Helper()
	return liveStateAfter(t, d, want, func() {})
}

// quietUntil lets the terminal stay silent, QuietGap at a time on the
// test's clock, until the run's live file says want. The watcher sets its
// timer on a goroutine of its own: a step may come before it is set, and
// the next one fires it.
func quietUntil(t *testing.T, clk *fakeClock, d fleet.Dir, want harness.State) fleet.Run {
	t.Helper()
	return liveStateAfter(t, d, want, func() { clk.advance(fleet.QuietGap) })
}

// liveStateAfter takes step and reads the live file until it says want.
func liveStateAfter(t *testing.T, d fleet.Dir, want harness.State, step func()) fleet.Run {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		step()
		runs, _ := d.Read()
		if len(runs) == 1 && runs[0].State == want {
			return runs[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("live file never said %s: %+v", want, runs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// newTestLive is a run's live state on the test's clock: its time moves
// only when the test moves it.
func newTestLive(t *testing.T, stater harness.Stater, n *notifier) (*live, fleet.Dir, *fakeClock) {
	t.Helper()
	if _, ok := fleet.Identify(os.Getpid()); !ok {
		t.Skip("process identity is not read on this system")
	}
	d := fleet.OpenDir(filepath.Join(t.TempDir(), "live"))
	clk := newFakeClock()
	base := fleet.Run{Tool: "claude", Cwd: "/p", Started: clk.Now()}
	l := newLive(d, base, stater, n, func(err error) { t.Error(err) })
	l.clock = clk
	t.Cleanup(func() { l.finish(fleet.EndQuit) })
	return l, d, clk
}

// TestLiveTerminal: without hooks, a typed Enter starts a turn and silence
// ends it; the run starts as starting and is waiting once quiet. Until the
// test's clock moves, no silence has passed: each state holds until then.
func TestLiveTerminal(t *testing.T) {
	l, d, clk := newTestLive(t, nil, nil)
	l.start(os.Getpid(), liveID)
	r := liveState(t, d, harness.Starting)
	if r.ID != liveID || r.PID != os.Getpid() || r.Hooked || r.Shim != os.Getpid() {
		t.Errorf("live file %+v", r)
	}
	quietUntil(t, clk, d, harness.Waiting)
	l.output(clk.Now())
	l.typed([]byte("hello\r"))
	liveState(t, d, harness.Working)
	quietUntil(t, clk, d, harness.Waiting) // nothing more was drawn
	l.setID("11111111-2222-4333-8444-555555555555")
	if r := liveState(t, d, harness.Waiting); r.ID != "11111111-2222-4333-8444-555555555555" {
		t.Errorf("id not followed: %+v", r)
	}
	l.finish(fleet.EndQuit)
	if runs, _ := d.Read(); len(runs) != 0 {
		t.Errorf("live file left after finish: %+v", runs)
	}
}

// TestLiveStartDrawn: on a PTY, a run that has drawn nothing is still
// starting however long its terminal stays silent (a CLI slow to load on a
// loaded machine, or one that fails before it draws: restore --exec must
// not take it as ready, nor may it replace the loss it resumes); once it
// has drawn, QuietGap of silence ends its start.
func TestLiveStartDrawn(t *testing.T) {
	l, d, clk := newTestLive(t, nil, nil)
	l.drawn = true
	l.start(os.Getpid(), liveID)
	for range 3 {
		clk.advance(fleet.QuietGap)
		if wait, ok := l.quietIn(); !ok || wait != fleet.QuietGap {
			t.Fatalf("nothing drawn, silent for a while: quiet in %v (%v), want a look again in %v", wait, ok, fleet.QuietGap)
		}
	}
	liveState(t, d, harness.Starting)
	l.output(clk.Now())
	if wait, ok := l.quietIn(); !ok || wait != fleet.QuietGap {
		t.Errorf("just drawn: quiet in %v (%v), want %v", wait, ok, fleet.QuietGap)
	}
	quietUntil(t, clk, d, harness.Waiting)
}

// TestLiveHooks: a hooked run follows its agent's events, the terminal does
// not start turns, and each change to needs-you is told once.
func TestLiveHooks(t *testing.T) {
	n, log := noticeLog(t)
	stater := mustAgent("claude").Behaviour.(harness.Stater)
	l, d, _ := newTestLive(t, stater, n)
	l.start(os.Getpid(), liveID)
	capture := `{"hook_event_name":"SessionStart","session_id":"` + liveID + `"}` + "\n"
	l.captured([]byte(capture))
	liveState(t, d, harness.Waiting)
	l.typed([]byte("\r"))
	capture += `{"hook_event_name":"UserPromptSubmit"}` + "\n"
	l.captured([]byte(capture))
	liveState(t, d, harness.Working)
	capture += `{"hook_event_name":"PermissionRequest"}` + "\n" +
		`{"hook_event_name":"Notification","notification_type":"permission_prompt"}` + "\n"
	l.captured([]byte(capture))
	if r := liveState(t, d, harness.NeedsYou); r.Why != "permission request" || !r.Hooked {
		t.Errorf("live file %+v", r)
	}
	capture += `{"hook_event_name":"PostToolUse"}` + "\n" + `{"hook_event_name":"Stop"}` + "\n"
	l.captured([]byte(capture))
	liveState(t, d, harness.Waiting)
	// The same lines again (a look at an unchanged file) change nothing.
	l.captured([]byte(capture))
	b := waitLines(t, log, 1)
	if lines := strings.Count(string(b), "\n"); lines != 1 || !strings.Contains(string(b), `"state":"needs-you"`) ||
		!strings.Contains(string(b), `"why":"permission request"`) {
		t.Errorf("notices: %q", b)
	}
}

// TestLiveNoticeBeforeStart: an agent that asks for permission before the
// run's live file is written (a loaded machine delays that write) is told
// of once the file is, with what the run knows by then.
func TestLiveNoticeBeforeStart(t *testing.T) {
	n, log := noticeLog(t)
	l, d, _ := newTestLive(t, mustAgent("claude").Behaviour.(harness.Stater), n)
	l.captured([]byte(`{"hook_event_name":"SessionStart","session_id":"` + liveID + `"}` + "\n" +
		`{"hook_event_name":"UserPromptSubmit"}` + "\n" + `{"hook_event_name":"PermissionRequest"}` + "\n"))
	if runs, _ := d.Read(); len(runs) != 0 {
		t.Fatalf("a live file before start: %+v", runs)
	}
	l.start(os.Getpid(), liveID)
	liveState(t, d, harness.NeedsYou)
	b := waitLines(t, log, 1)
	if !strings.Contains(string(b), `"state":"needs-you"`) || !strings.Contains(string(b), `"pid":`+strconv.Itoa(os.Getpid())) {
		t.Errorf("notices: %q", b)
	}
}

// noticeLog is a notifier whose command appends each notice's JSON to the
// file log: every needs-you, and no turn long enough to tell.
func noticeLog(t *testing.T) (n *notifier, log string) {
	dir := t.TempDir()
	log = filepath.Join(dir, "notices")
	prog := filepath.Join(dir, "notify")
	testexec.WriteFile(prog, []byte("#!/bin/sh\ncat >> '"+log+"'\n"), 0o755)
	return newNotifier(config.Notify{Command: []string{prog}, After: time.Hour, Every: 0}, nil, func(err error) { t.Error(err) }), log
}

// waitLines waits until the file holds at least n lines, and returns it.
func waitLines(t *testing.T, path string, n int) []byte {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var b []byte
	for time.Now().Before(deadline) {
		if b, _ = os.ReadFile(path); strings.Count(string(b), "\n") >= n {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return b
}
