package shim

import (
	"time"
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
	if _, ok := step(time.Now()); !ok {
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
