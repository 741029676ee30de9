package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
)

var restoreFlags = []flag{
	{name: "--since", value: "TIME", help: "only what was lost since TIME: a time (2026-12-01, '2026-12-01 09:30', RFC 3339) or a duration back from now (90m, 12h, 3d, 2w); default: since the last boot"},
	{name: "--json", help: "print them as a JSON array: each a record with its line and why it was lost"},
	{name: "--exec", help: "reopen each in its own tmux window, checked first, one after the other"},
	{name: "--tmux-session", value: "NAME", help: "with --exec: open the windows in tmux session NAME, made if need be (default: the current session inside tmux, else " + fleet.DefaultSession + ")"},
	{name: "--dry-run", help: "print the tmux commands --exec would run, and run nothing"},
}

const restoreHelp = `List the conversations whose last run did not end by you quitting the CLI:
its terminal was closed, its shim or the machine died, or the CLI was killed
by a signal (a logout's or a shutdown's SIGTERM, a kill). Newest first, one
line each: the line 'fleetcom resume ID' prints for it. By default those
lost since the last boot, the runs that boot cut short included; --since
goes further back. A conversation resumed since, or running now, is not
listed, nor is one whose tool holds nothing to resume (a run lost before its
first prompt).

Nothing starts unless you ask. --exec reopens each in a tmux window of its
own, in its directory, with the options it was started with, as 'fleetcom
resume --exec' does: in the current tmux session, or with --tmux-session
NAME (outside tmux: ` + fleet.DefaultSession + `) in that session, made if need be. Each
is checked to be in its tool's store, and not running, right before it
starts, and the starts are two seconds apart: agents started at once would
all refresh the login they share at once, and fail.

  fleetcom restore
  fleetcom restore --since 12h --json
  fleetcom restore --exec --tmux-session work
`

func cmdRestore(in input) error {
	if len(in.args) > 0 {
		return usagef("restore takes no arguments")
	}
	execute, dry := in.has("--exec"), in.has("--dry-run")
	switch {
	case in.has("--json") && (execute || dry):
		return usagef("use either --json or --exec")
	case in.has("--tmux-session") && !execute && !dry:
		return usagef("--tmux-session goes with --exec")
	case in.has("--tmux-session") && !fleet.ValidSession(in.get("--tmux-session")):
		return usagef("%q is not a session name restore uses: letters, digits, '-' and '_'", in.get("--tmux-session"))
	}
	since, err := parseSince(in.get("--since"), time.Now())
	if err != nil {
		return err
	}
	if fleet.BootID() == "" {
		return notFoundError{msg: "restore cannot tell a run that is over from one still running on this system: it has no boot ID"}
	}
	cat, err := openCatalog()
	if err != nil {
		return err
	}
	items := lostItems(cat, since)
	switch {
	case len(items) == 0 && in.has("--json"):
		return writeJSON([]restored{})
	case len(items) == 0:
		hintf("nothing to restore %s; 'fleetcom restore --since 1w' looks further back", sinceWhen(since))
		return nil
	case execute || dry:
		return reopen(cat, items, in.get("--tmux-session"), dry)
	case in.has("--json"):
		rows := make([]restored, len(items))
		for i, it := range items {
			rows[i] = restored{listed: listed{Record: it.plan.Entry.Record, Resume: it.canonical, Name: it.plan.Entry.Name},
				Line: it.line, Why: it.Why, Lost: it.At}
		}
		return writeJSON(rows)
	}
	term := isTerminal(stdout)
	escaped := false
	for _, it := range items {
		if shown := printable(it.line, false); shown != it.line && term {
			fmt.Fprintln(stdout, shown)
			escaped = true
			continue
		}
		fmt.Fprintln(stdout, it.line)
	}
	if escaped {
		hintf("a directory's name holds control characters, shown escaped: run 'fleetcom restore --exec', or eval the lines from a pipe")
	}
	if term {
		hintf("'fleetcom restore --exec' reopens them in tmux")
	}
	return nil
}

// restored is one object of restore --json: a record as list --json shows
// it, the line resume prints for it, why its last run was lost and when.
type restored struct {
	listed
	Line string    `json:"line"`
	Why  string    `json:"why"`
	Lost time.Time `json:"lost"`
}

// lostItem is one conversation to restore, with the plan that resumes it.
type lostItem struct {
	fleet.Lost
	plan            catalog.Plan
	canonical, line string
}

// lostItems are the conversations fleet.Lost offers that can be resumed:
// known to the catalog, in their tool's store, and not resumed since by
// any route (a run of it ended after, or its agent's store holds a message
// from after its run was surely over).
func lostItems(cat *catalog.Catalog, since time.Time) []lostItem {
	st := cat.Store()
	here, err := physical(".")
	if err != nil {
		here = "" // every line then starts with its cd, as resume's do
	}
	var out []lostItem
	for _, l := range fleet.OpenDir(resolvePaths().LiveDir).Lost(since) {
		p, err := planOf(cat, l.Tool, l.ID, here)
		if err != nil || cat.Check(p) != nil {
			continue // nothing in its tool's store to resume
		}
		var ended time.Time
		if r, ok, err := st.Get(l.Tool, l.ID); err == nil && ok && r.Ended != nil {
			ended = *r.Ended
		}
		if l.ResumedSince(ended, harness.LastActive(p.Agent, cat.Home(p.Agent), p.Entry.Cwd, p.Entry.ID)) {
			continue
		}
		canonical, line, err := resumeLines(cat, p, here)
		if err != nil {
			continue
		}
		out = append(out, lostItem{Lost: l, plan: p, canonical: canonical, line: line})
	}
	return out
}

// planOf is the plan that resumes conversation id of tool: its record, as
// resume reads it, else whatever resume would find for the ID.
func planOf(cat *catalog.Catalog, tool, id, here string) (catalog.Plan, error) {
	if r, ok, err := cat.Store().Get(tool, id); err == nil && ok {
		a, _ := harness.Lookup(tool)
		return catalog.Plan{Entry: cat.Refresh(r), Agent: a}, nil
	}
	return cat.Resolve(catalog.Query{Tool: tool, Ref: id, Dir: here})
}

// reopen opens each conversation in a tmux window of its own (restore
// --exec), or prints the tmux commands that would (dry).
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
	create := session != "" && !fleet.HasSession(session)
	made := create
	live := fleet.OpenDir(resolvePaths().LiveDir)
	opened, failed := 0, 0
	for _, it := range items {
		if opened > 0 {
			// fleet.Stagger says why the starts are apart.
			if dry {
				fmt.Fprintf(stdout, "sleep %d\n", int(fleet.Stagger/time.Second))
			} else {
				time.Sleep(fleet.Stagger)
			}
		}
		// Checked right before it starts, as resume --exec checks: the
		// window runs resume --exec, which checks again.
		if err := cat.Check(it.plan); err != nil {
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
		command, err := fleet.ReopenCommand([]string{self, "resume", "--exec"}, it.Tool, it.ID)
		if err != nil {
			warnf("%v", err)
			failed++
			continue
		}
		w := fleet.Window{Session: session, Create: create, Name: fleet.WindowName(it.Tool, it.ID),
			Dir: it.plan.Dir(), Command: command}
		if dry {
			fmt.Fprintln(stdout, printable(w.Line(), false))
		} else if err := w.Open(); err != nil {
			warnf("%s conversation %s was not reopened: %v", it.Tool, it.ID, err)
			failed++
			continue
		} else {
			where := "this tmux session"
			if session != "" {
				where = "tmux session " + session
			}
			fmt.Fprintf(stdout, "reopened %s %s in window %s of %s: %s\n", it.Tool, it.ID, w.Name, where,
				printable(it.line, false))
		}
		create = false
		opened++
	}
	if !dry && opened > 0 && session != "" {
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

// parseSince reads --since: a time, or a duration back from now; "" is
// the zero time, since the last boot.
func parseSince(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05",
		"2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	d, err := time.ParseDuration(s)
	if n, unit := strings.TrimRight(s, "dw"), strings.TrimLeft(s, "0123456789"); err != nil && (unit == "d" || unit == "w") {
		if k, perr := strconv.Atoi(n); perr == nil {
			d, err = time.Duration(k)*24*time.Hour, nil
			if unit == "w" {
				d *= 7
			}
		}
	}
	if err != nil || d <= 0 {
		return time.Time{}, usagef("--since %q: give a time (2026-12-01, '2026-12-01 09:30', RFC 3339) or a duration back from now (90m, 12h, 3d, 2w)", s)
	}
	return now.Add(-d), nil
}

// sinceWhen says which losses restore looked at, for a hint.
func sinceWhen(since time.Time) string {
	if !since.IsZero() {
		return "since " + since.Local().Format("2006-01-02 15:04")
	}
	if b := fleet.BootTime(); !b.IsZero() {
		return "since the last boot (" + b.Local().Format("2006-01-02 15:04") + ")"
	}
	return "since the last boot"
}
