package fleet

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// How a run ended, as `restore` tells them apart (the "why" of its JSON).
const (
	// EndQuit: the user quit the CLI, or it ended by itself. Nothing to
	// restore: its live file goes.
	EndQuit = "quit"
	// EndHangup: its terminal closed under it.
	EndHangup = "hangup"
	// EndSignal: the CLI was ended by a signal (a SIGTERM at a logout or a
	// shutdown, a kill).
	EndSignal = "signal"
	// EndKilled: the shim died with its run (kill -9, the OOM killer) or
	// the machine went down: the live file stayed as it was.
	EndKilled = "killed"
)

// Ending decides how a finished run ended, from what its shim saw: the
// CLI's exit code, the signal it died of (0: none), and the first signal
// that ends a program which the shim passed on to it (0: none; SIGHUP too
// when the shim's own terminal hung up).
//
//   - A hang-up passed on or died of is EndHangup; so is exit status 129
//     (128+SIGHUP), which a CLI that catches SIGHUP reports.
//   - Any other signal passed on is EndSignal, whatever the CLI made of it
//     (measured: Claude Code and Codex exit 143 on SIGTERM, Grok 0).
//   - Death by SIGINT is the keyboard's Ctrl-C, the user quitting. Death by
//     any other signal is EndSignal, and so is exit status 143
//     (128+SIGTERM): a CLI's report of a SIGTERM sent to it and not to its
//     shim.
//   - Anything else is EndQuit.
func Ending(code int, died, sent syscall.Signal) string {
	switch {
	case sent == syscall.SIGHUP:
		return EndHangup
	case sent != 0:
		return EndSignal
	case died == syscall.SIGHUP, died == 0 && code == 128+int(syscall.SIGHUP):
		return EndHangup
	case died == syscall.SIGINT:
		return EndQuit
	case died != 0, code == 128+int(syscall.SIGTERM):
		return EndSignal
	}
	return EndQuit
}

// Lost is a conversation whose last run did not end by the user quitting
// the CLI: that run as its live file says, how it ended, and when, as far
// as that can be told.
type Lost struct {
	Run
	Why string // EndHangup, EndSignal or EndKilled
	// At is when the run was cut short, for an end its shim saw (Cut); for
	// a run that died unseen, its last sign of life.
	At time.Time
	// Cut says At is when the run was cut short; otherwise it is when the
	// run was last seen alive.
	Cut bool
	// Reboot: the run is of an earlier boot, which ended it if nothing did
	// before.
	Reboot bool
	// By is the latest the run can have been cut short: At when Cut; a
	// beat after its last sign for a shim that dated its file as it ran
	// (Beat); the start of this boot for a run of an earlier one; zero when
	// nothing bounds it.
	By time.Time
}

// Beat is how often a running shim dates its live file anew. A run whose
// shim died unseen was alive until at most a Beat after its file's date.
const Beat = time.Minute

// beatSlack is what a beat may come late by on a loaded machine.
const beatSlack = 10 * time.Second

// ResumedSince reports whether the conversation ran again after its run was
// cut short, by any route: its agent's own store dates a message after the
// run was surely over (active after By; up to then a message may be the
// lost run's own). A run through a shim that got past its start removes
// the loss itself (Tidy); one that failed as it started is no resume. Only
// where nothing bounds the loss (a file of a shim that did not beat) does a
// later end of the record's (ended) count instead.
func (l Lost) ResumedSince(ended, active time.Time) bool {
	if l.By.IsZero() {
		return ended.After(l.At)
	}
	return active.After(l.By)
}

// Lost returns the conversations to restore, newest first: those whose
// last run's file is there and is over (a run whose CLI is alive is
// running, and so is its conversation), lost at or after since. A zero
// since is since the last boot: the runs of this boot, and those the last
// reboot cut short, that is, of the other boots whose runs the folder
// holds, the one with the latest. One loss per conversation, its latest:
// the caller asks of it whether it was resumed since (ResumedSince), as
// the files of the resumes that went through a shim are gone already
// (Tidy), and others leave no file. On a system that cannot tell one boot
// from another (BootID is ""), nothing is lost: no run could be told apart
// from a running one.
func (d Dir) Lost(since time.Time) []Lost {
	boot := BootID()
	if boot == "" {
		return nil
	}
	runs, _ := d.Read()
	return lost(runs, Live, boot, BootTime(), since)
}

// lost is Lost over runs read already, with the liveness test, the boot
// and its start given.
func lost(runs []Run, alive func(Run) bool, boot string, booted, since time.Time) []Lost {
	running := map[string]bool{}
	var dead []Lost
	for _, r := range runs {
		if alive(r) {
			running[convKey(r)] = true
			continue
		}
		dead = append(dead, lossOf(r, boot, booted))
	}
	prev := previousBoot(dead, boot)
	at := map[string]int{} // conversation -> index in out
	var out []Lost
	for _, l := range dead {
		k := convKey(l.Run)
		switch {
		case l.ID == "" || running[k]:
			continue
		case since.IsZero() && l.Boot != boot && l.Boot != prev:
			continue
		case !since.IsZero() && l.At.Before(since):
			continue
		}
		if i, ok := at[k]; ok {
			if l.At.After(out[i].At) {
				out[i] = l
			}
			continue
		}
		at[k] = len(out)
		out = append(out, l)
	}
	slices.SortStableFunc(out, func(a, b Lost) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		if c := b.Started.Compare(a.Started); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.Tool, b.Tool), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// lossOf is what run r's file says of its end, r being over: the end its
// shim saw, else its last sign of life; booted is when the boot named boot
// began (zero: unknown).
func lossOf(r Run, boot string, booted time.Time) Lost {
	l := Lost{Run: r, Why: r.End, At: r.EndAt, Cut: true, Reboot: r.Boot != boot}
	if l.Why != "" {
		l.By = l.At
		return l
	}
	l.Why, l.At, l.Cut = EndKilled, lastSign(r), false
	if r.Beat > 0 {
		l.By = l.At.Add(time.Duration(r.Beat)*time.Second + beatSlack)
	}
	if l.Reboot && !booted.IsZero() && (l.By.IsZero() || booted.Before(l.By)) {
		l.By = booted
	}
	return l
}

// previousBoot is the boot the last reboot ended, as far as the folder
// shows: of the runs of other boots than boot, the boot of the one last
// seen alive; "" when there is none.
func previousBoot(dead []Lost, boot string) string {
	prev, last := "", time.Time{}
	for _, l := range dead {
		if l.Boot != boot && l.Boot != "" && l.At.After(last) {
			prev, last = l.Boot, l.At
		}
	}
	return prev
}

// convKey names a run's conversation.
func convKey(r Run) string { return r.Tool + "\x00" + r.ID }

// lastSign is the last time a run's file shows it alive: its end, its last
// change of state, the file's last write.
func lastSign(r Run) time.Time {
	t := r.Started
	for _, u := range []time.Time{r.Since, r.Seen, r.EndAt} {
		if u.After(t) {
			t = u
		}
	}
	return t
}

// keepLost is how long the file of a lost run stays when no later run of
// its conversation comes: past it, a restore is not what anyone expects.
const keepLost = 30 * 24 * time.Hour

// Touch dates the run's live file now, nothing in it changed: its shim's
// sign of life, every Beat.
func (d Dir) Touch(r *Run) error {
	now := time.Now()
	return os.Chtimes(filepath.Join(d.path, r.name()), now, now)
}

// Tidy removes the files that run r makes obsolete, of runs that are over:
// the earlier runs of r's conversation (r resumes it, so restore does not
// offer it again), runs that never knew their conversation (nothing to
// restore), and runs lost more than keepLost ago. r's own shim calls it
// once r's conversation is known, off the child's way.
func (d Dir) Tidy(r *Run) {
	runs, _ := d.Read()
	mine, now := r.name(), time.Now()
	for _, o := range runs {
		if o.name() == mine || Live(o) {
			continue
		}
		same := r.ID != "" && o.Tool == r.Tool && o.ID == r.ID
		if same || o.ID == "" || now.Sub(lastSign(o)) > keepLost {
			_ = os.Remove(filepath.Join(d.path, o.name()))
		}
	}
}
