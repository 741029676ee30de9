package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/picker"
	"github.com/fleetcom/fleetcom/shim"
)

// pickLost lets the user choose among the lost conversations, several at
// once.
func pickLost(items []lostItem) ([]lostItem, error) {
	if err := picker.Usable(picker.Options{}); err != nil {
		return nil, noTerminal(err)
	}
	exe, err := selfPath()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	rows := make([]picker.Row, len(items))
	for i, it := range items {
		why := map[string]string{fleet.EndHangup: "closed", fleet.EndSignal: "signal", fleet.EndKilled: "killed"}[it.Why]
		if it.Reboot && it.Why == fleet.EndKilled {
			why = "reboot"
		}
		rows[i] = picker.Row{Key: it.Tool + ":" + it.ID, Cols: []string{it.Tool, why, age(now.Sub(it.At)),
			it.plan.Entry.Shown(), tildePath(it.plan.Dir())}}
	}
	chosen, err := picker.PickMany(rows, picker.Options{
		Header:  []string{"TOOL", "LOST", "AGE", "TITLE", "DIRECTORY"},
		Preview: []string{exe, "__preview"},
		FZF:     os.Getenv("FLEETCOM_FZF"),
	})
	var sig *picker.SignalError
	switch {
	case errors.As(err, &sig):
		shim.Reraise(sig.Signal)
		return nil, exitStatus(128 + int(sig.Signal))
	case errors.Is(err, picker.ErrNoTerminal):
		return nil, noTerminal(err)
	case errors.Is(err, picker.ErrNoMatch):
		return nil, notFoundError{msg: "nothing matched: no conversation chosen"}
	case errors.Is(err, picker.ErrCancelled):
		return nil, exitStatus(exitCancelled)
	case err != nil:
		return nil, err
	}
	out := make([]lostItem, len(chosen))
	for i, c := range chosen {
		out[i] = items[c]
	}
	return out, nil
}

// Watching a start: how often restore looks, and how many lines of a
// failed start's window it shows.
const (
	startLook   = 250 * time.Millisecond
	failedLines = 8
)

// reopen opens each conversation in a tmux window of its own (restore
// --exec), one at a time, each start watched until it is judged, paced
// by [restore]; or prints the tmux commands that would (dry). After
// fleet.StopAfter failed starts in a row it stops.
func reopen(cat *catalog.Catalog, items []lostItem, session string, dry bool) error {
	current := session == "" && os.Getenv("TMUX") != ""
	if session == "" && !current {
		session = fleet.DefaultSession
	}
	if !dry {
		if _, err := exec.LookPath("tmux"); err != nil {
			return notFoundError{msg: "restore --exec opens each conversation in a tmux window, and tmux is not installed",
				hint: "run 'fleetcom restore' for the lines to run by hand"}
		}
	}
	self, err := selfPath()
	if err != nil {
		return err
	}
	rc := settings().Restore()
	pace := fleet.Pace{Gap: rc.Gap, Jitter: rc.Jitter}
	create := session != "" && !fleet.HasSession(session)
	made := create
	live := fleet.OpenDir(resolvePaths().LiveDir)
	opened, failed := 0, 0
	var row []lostItem // the failed starts since the last good one
	var last time.Time // when the last window opened
	for k, it := range items {
		if opened > 0 {
			// fleet.Pace says why the starts are apart.
			pause := pace.Pause(rand.Float64())
			if dry {
				fmt.Fprintf(stdout, "sleep %s\n", strings.TrimSuffix(fmt.Sprintf("%.1f", pause.Seconds()), ".0"))
			} else {
				time.Sleep(time.Until(last.Add(pause)))
			}
		}
		// Checked right before it starts, as resume --exec checks: the
		// window runs resume --exec, which checks again.
		if err := checkPlan(cat, it.plan); err != nil {
			warnf("%v", err)
			failed++
			continue
		}
		if r, ok := fleet.Find(live.Running(), it.Tool, it.ID); ok {
			warnf("%s conversation %s is running now (%s, process %d): it is not started a second time",
				r.Tool, r.ID, fleet.Where(r, ""), r.PID)
			failed++
			continue
		}
		command, err := fleet.ReopenCommand([]string{self, "__reopen"}, it.Tool, it.ID)
		if err != nil {
			warnf("%v", err)
			failed++
			continue
		}
		w := fleet.Window{Session: session, Create: create, Name: fleet.WindowName(it.Tool, it.ID),
			Dir: it.plan.Dir(), Command: command}
		if dry {
			fmt.Fprintln(stdout, printable(w.Line()))
			create = false
			opened++
			continue
		}
		if len(it.widens) > 0 {
			warnf("%s %s comes back with %s: it may act without asking", it.Tool, it.ID, strings.Join(it.widens, " "))
		}
		last = time.Now()
		pane, err := w.Open()
		opened++
		if err == nil {
			create = false
			err = watchStart(pane, it, rc.Alive)
		}
		if err != nil {
			warnf("%s conversation %s was not reopened: %v", it.Tool, it.ID, err)
			failed++
			if row = append(row, it); len(row) >= fleet.StopAfter {
				return stopped(row, items[k+1:])
			}
			continue
		}
		row = nil
		where := "this tmux session"
		if session != "" {
			where = "tmux session " + session
		}
		fmt.Fprintf(stdout, "reopened %s %s in window %s of %s: %s\n", it.Tool, it.ID, w.Name, where,
			printable(it.line))
	}
	if !dry && opened > failed && session != "" {
		switch {
		case os.Getenv("TMUX") != "":
			hintf("go there: tmux switch-client -t %s", session)
		case made:
			hintf("attach to it: tmux attach -t %s", session)
		}
	}
	if failed > 0 {
		return notFoundError{msg: fmt.Sprintf("%d of %d conversations were not reopened", failed, len(items))}
	}
	return nil
}

// stopped is restore's error once starts failed fleet.StopAfter times in
// a row: it names them, and the ones it did not start, with the command
// that starts those.
func stopped(failed, rest []lostItem) error {
	name := func(its []lostItem) string {
		var words []string
		for _, it := range its {
			words = append(words, it.Tool+" "+it.ID)
		}
		return strings.Join(words, ", ")
	}
	msg := fmt.Sprintf("restore stopped after %d failed starts in a row (%s)", len(failed), name(failed))
	if len(rest) == 0 {
		return notFoundError{msg: msg}
	}
	ids := make([]string, len(rest))
	for i, it := range rest {
		ids[i] = it.ID
	}
	return notFoundError{msg: msg + "; not started: " + name(rest),
		hint: "once the lines above say what to fix: fleetcom restore --exec " + strings.Join(ids, " ")}
}

// watchStart watches the start in pane until it is judged: nil once the
// agent is ready or stayed up alive long enough, else why it failed, with
// the last lines its window showed.
func watchStart(pane string, it lostItem, alive time.Duration) error {
	live := fleet.OpenDir(resolvePaths().LiveDir)
	check := fleet.StartCheck{Opened: time.Now(), Alive: alive}
	screen := ""
	for {
		gone, exited, code := fleet.LookAt(pane)
		s := fleet.Sight{At: time.Now(), Gone: gone, Exited: exited}
		if r, ok := fleet.Find(live.Running(), it.Tool, it.ID); ok {
			s.State = r.State
		}
		switch check.Judge(s) {
		case fleet.Ready, fleet.Up:
			return nil
		case fleet.Failed:
			if !gone {
				if now := fleet.Screen(pane, 200); strings.TrimSpace(now) != "" {
					screen = now
				}
			}
			what := fmt.Sprintf("it ended with status %d", code)
			if gone {
				what = "its window closed"
			} else if code < 0 {
				what = "it ended"
			}
			return startError{what: what, lines: lastLines(screen, failedLines)}
		}
		// What the agent shows while it runs (on the alternate screen,
		// gone once it quits).
		if now := fleet.Screen(pane, 0); strings.TrimSpace(now) != "" {
			screen = now
		}
		time.Sleep(startLook)
	}
}

// startError is a failed start, with the last lines of its window.
type startError struct {
	what  string
	lines []string
}

func (e startError) Error() string {
	if len(e.lines) == 0 {
		return e.what + " before it was ready, and its window showed nothing"
	}
	return e.what + " before it was ready; its window's last lines:\n    " + strings.Join(e.lines, "\n    ")
}

// lastLines is the last n lines of a screen that hold something.
func lastLines(screen string, n int) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if l = strings.TrimRight(l, " \t\r"); l != "" {
			out = append(out, printable(l))
		}
	}
	return out[max(0, len(out)-n):]
}
