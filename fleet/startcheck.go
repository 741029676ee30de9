package fleet

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/bounded"
)

// Checking each start of `restore --exec`: the window runs resume, which
// marks its window with its exit status when it ends (ExitOption), and
// the run it starts writes its live file as any run does. Restore looks at
// both until the start is judged (Judge), and reads the window's screen to
// report a start that failed.

// ExitOption is the tmux window option a reopened window's resume sets to
// its exit status when it ends.
const ExitOption = "@fleetcom-exit"

// StopAfter is how many failed starts in a row stop restore: the ones
// after would most likely fail for the same reason (a login gone stale, an
// agent that no longer starts), each one more agent left half started.
const StopAfter = 3

// Verdict is what restore makes of a start so far.
type Verdict int

const (
	// Pending: not judged yet.
	Pending Verdict = iota
	// Ready: its agent's start-up is over, as its run's state tells (its
	// hook said so, or its screen went quiet after it drew its start).
	Ready
	// Up: not seen ready, but up for as long as asked.
	Up
	// Failed: its resume ended, or its window went, before either.
	Failed
)

// StartCheck is one start restore watches: when its window opened, and
// how long it must stay up when it is not seen ready before.
type StartCheck struct {
	Opened time.Time
	Alive  time.Duration
}

// Sight is one look at a start.
type Sight struct {
	At     time.Time
	Gone   bool // the window is gone
	Exited bool // the resume in it ended (ExitOption is set)
	// State is its conversation's running state, "" while no run of it is
	// seen.
	State harness.State
}

// Judge decides what a look at the start says: an end first, then a run
// past its start-up, then the time it stayed up.
func (c StartCheck) Judge(s Sight) Verdict {
	switch {
	case s.Gone || s.Exited:
		return Failed
	case s.State != "" && s.State != harness.Starting && s.State != Stopped:
		return Ready
	case s.At.Sub(c.Opened) >= c.Alive:
		return Up
	}
	return Pending
}

// maxScreen bounds what capture-pane may print: a screen and its history,
// which restore asks no more of.
const maxScreen = 1 << 20

// LookAt asks tmux about the window of pane: whether it is gone, and the
// exit status its resume left, if it ended (code is -1 then when the status
// cannot be read).
func LookAt(pane string) (gone, exited bool, code int) {
	ctx, cancel := context.WithTimeout(context.Background(), tmuxWait)
	defer cancel()
	out, err := bounded.Output(exec.CommandContext(ctx, "tmux", "display-message", "-p", "-t", pane,
		"#{pane_id} #{"+ExitOption+"}"), 4<<10)
	if err != nil {
		// A pane tmux cannot find is gone; a server that does not answer
		// now may later.
		return paneMissing(err), false, 0
	}
	id, v, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if id != pane {
		return true, false, 0
	}
	if v == "" {
		return false, false, 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return false, true, -1
	}
	return false, true, n
}

// paneMissing reports tmux's answer for a pane or a server that is not
// there.
func paneMissing(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	msg := string(ee.Stderr)
	return strings.Contains(msg, "can't find") || strings.Contains(msg, "no server running") ||
		strings.Contains(msg, "error connecting")
}

// Screen is what pane shows, and the lines above it that scrolled off, up
// to lines of them; "" when tmux cannot say.
func Screen(pane string, lines int) string {
	ctx, cancel := context.WithTimeout(context.Background(), tmuxWait)
	defer cancel()
	out, err := bounded.Output(exec.CommandContext(ctx, "tmux", "capture-pane", "-p", "-J", "-t", pane,
		"-S", "-"+strconv.Itoa(lines)), maxScreen)
	if err != nil {
		return ""
	}
	return string(out)
}

// MarkExit sets ExitOption of the window of pane to code: what a
// reopened window's resume does when it ends. It waits at most tmuxWait.
func MarkExit(pane string, code int) error {
	ctx, cancel := context.WithTimeout(context.Background(), tmuxWait)
	defer cancel()
	return bounded.Run(exec.CommandContext(ctx, "tmux", "set-option", "-w", "-t", pane, ExitOption, strconv.Itoa(code)))
}
