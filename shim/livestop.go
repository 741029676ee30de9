package shim

import (
	"time"

	"github.com/fleetcom/fleetcom/fleet"
)

// suspended follows job control (SpawnOptions.Stopped): the run is
// fleet.Stopped from the moment its child stopped until it is continued,
// then back in the state it was in. It runs on the PTY loop, right before
// the shim stops itself and right after it was continued, and writes the
// live file at once, as a stopped shim writes nothing. Neither change is a
// notice: the user did both.
func (l *live) suspended(on bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.finished {
		return
	}
	step := l.tracker.Continue
	if on {
		step = l.tracker.Stop
	}
	if _, ok := step(l.clock.Now()); !ok {
		return
	}
	l.run.State, l.run.Since, l.run.Why = l.tracker.State, l.tracker.Since, l.tracker.Why
	if l.started {
		l.write()
	}
	if !on {
		// The watcher slept while silence could change nothing.
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
}

// beat dates the live file anew every fleet.Beat while the run goes on, so
// that a run whose shim dies unseen (kill -9, the machine going down) is
// known to have been alive until at most a beat before: when it was cut
// short, for restore. A touch, not a write: nothing in the file changes.
func (l *live) beat() {
	t := time.NewTicker(fleet.Beat)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			l.mu.Lock()
			if !l.finished {
				_ = l.dir.Touch(&l.run)
			}
			l.mu.Unlock()
		}
	}
}
