package fleet

import (
	"testing"
	"time"
)

// TestLossBounds: when a run was cut short, as far as its file tells, and
// what counts as a resume since: a later end, or a message its agent's
// store dates after the run was surely over.
func TestLossBounds(t *testing.T) {
	const boot = "boot-now"
	booted := t0.Add(3 * time.Hour)
	base := Run{Tool: tool, ID: uid, Cwd: "/p", Started: t0, Since: t0.Add(time.Minute), Proc: Proc{PID: 2, Boot: boot}}
	seen := t0.Add(time.Hour)

	hup := base
	hup.End, hup.EndAt = EndHangup, t0.Add(50*time.Minute)
	l := lossOf(hup, boot, booted)
	if !l.Cut || !l.At.Equal(hup.EndAt) || !l.By.Equal(hup.EndAt) || l.Reboot {
		t.Errorf("hang-up: %+v", l)
	}

	killed := base
	killed.Seen, killed.Beat = seen, 60
	l = lossOf(killed, boot, booted)
	if l.Cut || l.Why != EndKilled || !l.At.Equal(seen) || !l.By.Equal(seen.Add(time.Minute+beatSlack)) {
		t.Errorf("killed, beating: %+v", l)
	}
	// A message during its last beat may be its own; one after is not.
	if l.ResumedSince(time.Time{}, seen.Add(30*time.Second)) || !l.ResumedSince(time.Time{}, seen.Add(2*time.Minute)) {
		t.Error("killed, beating: wrong resume")
	}

	// A shim that did not beat: nothing bounds when it died, so no message
	// counts; a later end still does.
	old := base
	old.Seen = seen
	l = lossOf(old, boot, booted)
	if !l.By.IsZero() || l.ResumedSince(time.Time{}, seen.Add(24*time.Hour)) || !l.ResumedSince(seen.Add(time.Second), time.Time{}) {
		t.Errorf("killed, no beat: %+v", l)
	}
	// Of an earlier boot, it died before this one began.
	old.Boot = "boot-prev"
	l = lossOf(old, boot, booted)
	if !l.Reboot || !l.By.Equal(booted) || !l.ResumedSince(time.Time{}, booted.Add(time.Second)) {
		t.Errorf("reboot, no beat: %+v", l)
	}
	// The beat bounds it closer than the boot does.
	old.Beat = 60
	if l = lossOf(old, boot, booted); !l.By.Equal(seen.Add(time.Minute + beatSlack)) {
		t.Errorf("reboot, beating: %+v", l)
	}

	// Lost gives one loss per conversation, its latest.
	runs := []Run{hup, killed}
	runs[1].Proc.PID = 3
	got := lost(runs, func(Run) bool { return false }, boot, booted, time.Time{})
	if len(got) != 1 || !got[0].At.Equal(seen) {
		t.Errorf("lost %+v", got)
	}
}
