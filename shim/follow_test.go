package shim

import (
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

// followTo is a Follower that says the run went to its ID once asked after
// a turn, and records what it was asked.
type followTo struct {
	id    string
	asked atomic.Int32
	cur   atomic.Value
}

func (f *followTo) Followed(home, cwd, cur string, spawn, turn time.Time) string {
	f.asked.Add(1)
	f.cur.Store(cur)
	if turn.Before(spawn) {
		return ""
	}
	return f.id
}

// TestLiveFollow: at the end of a turn the live file follows the
// conversation the CLI went on with (Gemini's /clear), asked once.
func TestLiveFollow(t *testing.T) {
	const next = "11111111-2222-4333-8444-555555555555"
	f := &followTo{id: next}
	l, d := newTestLive(t, nil, nil)
	l.follows(f)
	l.start(os.Getpid(), liveID)
	liveState(t, d, harness.Waiting)
	if f.asked.Load() != 0 {
		t.Error("asked before any turn")
	}
	l.output(time.Now())
	l.typed([]byte("/clear\r"))
	liveState(t, d, harness.Working)
	deadline := time.Now().Add(20 * time.Second)
	for {
		runs, _ := d.Read()
		if len(runs) == 1 && runs[0].ID == next {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("live file never followed to %s: %+v", next, runs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n, cur := f.asked.Load(), f.cur.Load(); n != 1 || cur != liveID {
		t.Errorf("asked %d times, of %v", n, cur)
	}
}
