package fleet

import (
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
)

func TestPace(t *testing.T) {
	p := Pace{Gap: 5 * time.Second, Jitter: 0.2}
	for u, want := range map[float64]time.Duration{0: 4 * time.Second, 0.5: 5 * time.Second, 0.75: 5500 * time.Millisecond} {
		if got := p.Pause(u); got != want {
			t.Errorf("Pause(%v) = %v, want %v", u, got, want)
		}
	}
	if got := (Pace{Gap: 0, Jitter: 0.5}).Pause(0.9); got != 0 {
		t.Errorf("no gap: %v", got)
	}
	if got := (Pace{Gap: time.Second, Jitter: 3}).Pause(0); got != 0 {
		t.Errorf("jitter over 1: %v", got)
	}
}

func TestJudge(t *testing.T) {
	c := StartCheck{Opened: t0, Alive: 10 * time.Second}
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	for _, x := range []struct {
		s    Sight
		want Verdict
	}{
		{Sight{At: at(time.Second)}, Pending},
		{Sight{At: at(time.Second), State: harness.Starting}, Pending},
		{Sight{At: at(2 * time.Second), State: harness.Waiting}, Ready},
		{Sight{At: at(2 * time.Second), State: harness.NeedsYou}, Ready},
		{Sight{At: at(2 * time.Second), State: Stopped}, Pending},
		{Sight{At: at(10 * time.Second)}, Up},
		{Sight{At: at(10 * time.Second), State: harness.Starting}, Up},
		{Sight{At: at(time.Second), Exited: true}, Failed},
		{Sight{At: at(time.Second), Exited: true, State: harness.Waiting}, Failed},
		{Sight{At: at(30 * time.Second), Gone: true}, Failed},
	} {
		if got := c.Judge(x.s); got != x.want {
			t.Errorf("Judge(%+v) = %v, want %v", x.s, got, x.want)
		}
	}
}
