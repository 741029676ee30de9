package shim

import (
	"time"

	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
)

// A run whose CLI changes conversation without telling (harness.Follower:
// Gemini CLI's /clear) is followed at the end of each turn, so its live
// file names the conversation it has open: status shows it, and resume and
// pick see it running. The store is read once per turn, on the watcher,
// a moment after the turn ended, when the CLI has written it.

// followDelay is how long after a turn ends its conversation's file is
// looked at.
const followDelay = 500 * time.Millisecond

// follows makes the run follow its CLI's conversation; f is nil for an
// agent whose capture channel already says.
func (l *live) follows(f harness.Follower) {
	if f == nil {
		return
	}
	l.follower = f
	l.followc = make(chan struct{}, 1)
}

// turnEnded notes a change of state that may end a turn; the caller holds
// l.mu.
func (l *live) turnEnded(c fleet.Change) {
	if l.follower == nil || c.To != harness.Waiting || c.From != harness.Working {
		return
	}
	time.AfterFunc(followDelay, func() {
		select {
		case l.followc <- struct{}{}:
		default:
		}
	})
}

// follow looks for the conversation the turn that ended went to, on the
// watcher.
func (l *live) follow() {
	l.mu.Lock()
	run, enter := l.run, l.lastEnter.Load()
	l.mu.Unlock()
	if run.ID == "" || enter == 0 {
		return
	}
	if id := l.follower.Followed(run.Home, run.Cwd, run.ID, run.Started, time.Unix(0, enter)); id != "" {
		l.setID(id)
	}
}
