package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
)

var statusFlags = []flag{
	{name: "--json", help: "print the running conversations as a JSON array"},
	{name: "--watch", help: "redraw as they change, until q or Ctrl-C"},
	{name: "--host", value: "H", many: true, help: "also ask host H, over ssh, for its own (repeatable; hosts in [status] of the config too)"},
}

const statusHelp = `Show every conversation running now under the shims on this machine, in any
terminal and any directory: the ones that need you first, then the newest
activity. For each: the tool; its state and for how long (starting;
working: a turn runs; waiting: for your next prompt; needs-you: a
permission, approval or question blocks it); its directory; its title; a
short ID; and where it is: the terminal, and for tmux the
session:window.pane, with the command that goes there below the table. A
run whose process is gone is never shown.

The state comes from the agent's own hooks where fleetcom can give them
for one run ('fleetcom doctor' says which agents take them, and which wait
for you to trust them), else from the activity on its terminal.

--watch redraws in place until q or Ctrl-C. --host asks other machines,
over your own ssh (BatchMode), for theirs: one table with a host column; a
host that does not answer is one line, not a failure.

  fleetcom status
  fleetcom ps --json
  fleetcom status --host box1 --host box2
`

func cmdStatus(in input) error {
	if len(in.args) > 0 {
		return usagef("status takes no arguments")
	}
	hosts := slices.Clone(settings().Hosts)
	for _, h := range in.all("--host") {
		if !config.ValidHost(h) {
			return usagef("%q is not a host name ssh can be given", h)
		}
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	if in.has("--watch") {
		if in.has("--json") {
			return usagef("use either --json or --watch")
		}
		return watchStatus(hosts)
	}
	v := gather(hosts)
	if in.has("--json") {
		for _, f := range v.failed {
			warnf("%s: %s", f.host, f.err)
		}
		return writeJSON(v.all)
	}
	if len(v.all) == 0 && len(v.failed) == 0 {
		hintf("no conversation is running under the shims; start one with '%s'", agents.Names()[0])
		return nil
	}
	width, _ := terminalWidth()
	printStatus(stdout, v, width, time.Now())
	return nil
}

// view is what status shows: the running conversations, and the hosts
// that did not answer.
type view struct {
	all    []fleet.Status
	failed []hostError
	hosts  bool   // other hosts were asked: show the host column
	local  string // this machine's name in the host column ("" without)
}

type hostError struct{ host, err string }

// gather reads this machine's live runs and asks each host for its own, at
// once.
func gather(hosts []string) view {
	runs := fleet.OpenDir(resolvePaths().LiveDir).Running()
	v := view{all: fleet.Statuses(runs, fleet.ListPanes), hosts: len(hosts) > 0}
	if !v.hosts {
		return v
	}
	v.local, _ = os.Hostname()
	if i := strings.IndexByte(v.local, '.'); i > 0 {
		v.local = v.local[:i]
	}
	if v.local == "" {
		v.local = "localhost"
	}
	for i := range v.all {
		v.all[i].Host = v.local
	}
	results := make([][]fleet.Status, len(hosts))
	errs := make([]error, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = fleet.Remote(context.Background(), h)
		}()
	}
	wg.Wait()
	for i, h := range hosts {
		if errs[i] != nil {
			v.failed = append(v.failed, hostError{h, errs[i].Error()})
			continue
		}
		v.all = append(v.all, results[i]...)
	}
	// One order across the machines, as on one.
	slices.SortStableFunc(v.all, func(a, b fleet.Status) int {
		an, bn := a.State == harness.NeedsYou, b.State == harness.NeedsYou
		switch {
		case an && !bn:
			return -1
		case bn && !an:
			return 1
		}
		return b.Since.Compare(a.Since)
	})
	return v
}

// printStatus prints the table: a header, one row per run (per failed
// host), titles cut to fit width (0: not cut), then the commands that go to
// the runs in tmux.
func printStatus(out io.Writer, v view, width int, now time.Time) {
	ids := make([]string, len(v.all))
	for i, s := range v.all {
		ids[i] = s.ID
	}
	short := uniquePrefixes(ids, 8)
	home := homeDir()
	var rows [][]string
	head := []string{"TOOL", "STATE", "FOR", "DIRECTORY", "ID", "WHERE", "TITLE"}
	if v.hosts {
		head = append([]string{"HOST"}, head...)
	}
	rows = append(rows, head)
	var goes []string
	for i, s := range v.all {
		id := short[i]
		if id == "" {
			id = "-"
		}
		row := []string{s.Tool, string(s.State), age(now.Sub(s.Since)), fleet.Tilde(s.Cwd, home), id, where(s), s.Title}
		if v.hosts {
			row = append([]string{s.Host}, row...)
		}
		rows = append(rows, row)
		if s.Tmux != nil && s.Host == v.local {
			goes = append(goes, fmt.Sprintf("  %s  %s", id, fleet.SwitchLine(s.Tmux)))
		}
	}
	for _, f := range v.failed {
		rows = append(rows, []string{f.host, "(no answer: " + f.err + ")"})
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		for i := range r {
			r[i] = strings.ReplaceAll(printable(r[i], false), "\t", " ")
		}
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	w.Flush()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if width > 0 {
			line = cut(line, width)
		}
		fmt.Fprint(out, line)
	}
	if len(goes) > 0 {
		fmt.Fprintln(out, "\nto go there:")
		for _, g := range goes {
			fmt.Fprintln(out, printable(g, false))
		}
	}
}

// where is a run's place for the table: its tmux pane, else its terminal.
func where(s fleet.Status) string {
	if s.Tmux != nil {
		if s.Tmux.Target != "" {
			return s.Tmux.Target
		}
		return "tmux " + s.Tmux.Pane
	}
	if s.TTY != "" {
		return strings.TrimPrefix(s.TTY, "/dev/")
	}
	return "-"
}
