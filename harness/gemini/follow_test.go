package gemini

import (
	"os"
	"testing"
	"time"
)

// After /clear, the turn that ended went to a new session file: the run
// follows it; while its own file takes the turns, it stays.
func TestFollowed(t *testing.T) {
	const third = "33333333-4444-4555-8666-777777777777"
	home, cwd := t.TempDir(), "/a/proj"
	spawn := time.Now().Add(-time.Minute)
	turn := time.Now().Add(-5 * time.Second)
	age := func(path string, at time.Time) {
		t.Helper()
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	cur := writeSession(t, home, cwd, uid, "first", spawn.Add(time.Second))
	// Another conversation of the project, begun before the run, that
	// took a turn meanwhile (another Gemini): never followed.
	writeSession(t, home, cwd, other, "elsewhere", spawn.Add(-time.Hour))
	if got := Agent.Behaviour.(gemini).Followed(home, cwd, uid, spawn, turn); got != "" {
		t.Errorf("followed %q while the turn went to the run's own file", got)
	}
	age(cur, turn.Add(-time.Second))
	if got := Agent.Behaviour.(gemini).Followed(home, cwd, uid, spawn, turn); got != "" {
		t.Errorf("followed %q with no file of the run's written", got)
	}
	// /clear, then a prompt: a new session file.
	empty := writeSession(t, home, cwd, third, "", time.Now())
	if got := Agent.Behaviour.(gemini).Followed(home, cwd, uid, spawn, turn); got != "" {
		t.Errorf("followed %q, a session with no prompt yet", got)
	}
	os.Remove(empty)
	writeSession(t, home, cwd, third, "after clear", time.Now())
	if got := Agent.Behaviour.(gemini).Followed(home, cwd, uid, spawn, turn); got != third {
		t.Errorf("Followed = %q, want %s", got, third)
	}
	// Its turn written to the run's file too: it stayed.
	age(cur, time.Now())
	if got := Agent.Behaviour.(gemini).Followed(home, cwd, uid, spawn, turn); got != "" {
		t.Errorf("followed %q while the run's own file took the turn", got)
	}
	// Two new conversations written during the turn: nothing is sure.
	age(cur, turn.Add(-time.Second))
	writeSession(t, home, cwd, "44444444-5555-4666-8777-888888888888", "another run", time.Now())
	if got := Agent.Behaviour.(gemini).Followed(home, cwd, uid, spawn, turn); got != "" {
		t.Errorf("followed %q among two", got)
	}
}
