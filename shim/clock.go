package shim

import "time"

// clock is where the tap and a run's live state take the time and their
// timers from: the system's in a run. What silence decides (a settle look,
// the end of a turn) is then tested on a clock the test moves on, without
// waiting for the silence, as fleet.Tracker is fed its times.
type clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) timer
}

// timer is what the tap and the watcher use of a *time.Timer.
type timer interface {
	Reset(d time.Duration) bool
	Stop() bool
}

// systemClock is the system's time: a value of no size, so a run pays
// nothing to carry it.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) AfterFunc(d time.Duration, f func()) timer { return time.AfterFunc(d, f) }
