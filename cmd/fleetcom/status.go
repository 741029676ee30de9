package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/index"
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
permission, approval or question blocks it; stopped: suspended with Ctrl-Z,
until fg); its directory; its title; a
short ID; and where it is: the terminal, and for tmux the
session:window.pane, with the command that goes there below the table. A
run whose process is gone is never shown.

The state comes from the agent's own hooks where fleetcom can give them
for one run, else from what the agent writes of its state on its terminal
(Codex, Gemini CLI, Grok), and from the activity there: 'fleetcom doctor'
says, per agent, what tells needs-you.

--watch redraws in place until q or Ctrl-C. --host asks other machines,
over your own ssh (BatchMode), for theirs: one table with a host column; a
host that does not answer within 15 s is one line, not a failure. A host
is letters, digits, '.', '_' and '-', with an optional user@ (a port or an
option belongs in ~/.ssh/config). --watch keeps one ssh connection to each
host while it runs.

  fleetcom status
  fleetcom ps --json
  fleetcom status --host box1 --host box2
`

func cmdStatus(in input) error {
	if len(in.args) > 0 {
		return usagef("status takes no arguments")
	}
	// A host in the config that ssh must not be given stops status, as
	// one on the command line does; any other fault of the config is a
	// warning (settings).
	if _, err := config.Load(resolvePaths().ConfigFile); errors.Is(err, config.ErrHost) {
		return usageError{msg: err.Error(), hint: "fix [status] hosts of the config"}
	}
	hosts := slices.Clone(settings().Hosts)
	for _, h := range in.all("--host") {
		if !config.ValidHost(h) {
			return usageError{msg: "--host: " + config.HostError(h).Error()}
		}
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	if in.has("--watch") && in.has("--json") {
		return usagef("use either --json or --watch")
	}
	// A live folder others could write to is refused, as the store is by
	// every other command: a file planted there could name any process
	// and any tmux server.
	live := fleet.OpenDir(resolvePaths().LiveDir)
	if err := live.Private(); err != nil {
		return err
	}
	if in.has("--watch") {
		return watchStatus(live, hosts)
	}
	ctx, signalled := interruptible()
	v := gather(ctx, live, hosts)
	if code := signalled(); code != 0 {
		return exitStatus(code)
	}
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

// interruptible is a context that ends when a signal that would end
// fleetcom comes (Ctrl-C, SIGTERM, SIGHUP), so that what status asks (tmux,
// ssh, each in a process group of its own, which the terminal's Ctrl-C
// does not reach) is killed first; signalled is then the exit status the
// signal stands for, 0 while none came.
func interruptible() (ctx context.Context, signalled func() int) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	var got atomic.Int32
	go func() {
		if s, ok := <-sigs; ok {
			got.Store(int32(s.(syscall.Signal)))
			cancel()
		}
	}()
	return ctx, func() int {
		signal.Stop(sigs)
		if n := got.Load(); n != 0 {
			return 128 + int(n)
		}
		return 0
	}
}

// view is what status shows: the running conversations, and the hosts
// that did not answer.
type view struct {
	all    []fleet.Status
	failed []hostError
	hosts  bool   // other hosts were asked: show the host column
	local  string // this machine's name in the host column ("" without)
}

// hostError is a host without an answer to show: err says why, "" while
// it is being asked (--watch).
type hostError struct{ host, err string }

// localRuns reads this machine's live runs, their tmux panes asked within
// ctx.
func localRuns(ctx context.Context, live fleet.Dir) []fleet.Status {
	panes := func(socket string) (map[string]string, error) { return fleet.ListPanes(ctx, socket) }
	runs := live.Running()
	return fleet.Statuses(runs, panes, runTitles(runs))
}

// statusIndex is the index status reads titles from, opened once: --watch
// asks it again at every redraw.
var statusIndex = sync.OnceValue(func() *index.Index {
	st, err := openStore()
	if err != nil {
		return nil
	}
	return openIndex(st)
})

// runTitles is what the running conversations are called, from the index,
// brought up to date for their files first: each costs what was appended
// since, never a reading of the transcript from its start. A name the user
// gave wins.
func runTitles(runs []fleet.Run) func(fleet.Run) string {
	x := statusIndex()
	if x == nil {
		return nil
	}
	sc := index.Scope{HotOnly: true}
	for _, r := range runs {
		if r.ID == "" {
			continue
		}
		sc.Hot = append(sc.Hot, index.Key{Tool: r.Tool, ID: r.ID})
		// A conversation whose file the index has not read yet (begun in
		// this run) is found by looking at its directory's folders.
		if v, ok, err := x.Get(r.Tool, r.ID); err != nil || !ok || !v.Stored {
			sc.HotOnly = false
			sc.Dirs = append(sc.Dirs, r.Cwd)
		}
	}
	if len(sc.Hot) == 0 {
		return nil
	}
	if _, err := x.Refresh(sc); err != nil {
		indexWarn("index: " + err.Error())
	}
	return func(r fleet.Run) string {
		v, ok, err := x.Get(r.Tool, r.ID)
		if err != nil || !ok {
			return ""
		}
		if v.Name != "" {
			return v.Name
		}
		return catalog.TitleOf(v)
	}
}

// gather reads this machine's live runs and asks each host for its own, at
// once.
func gather(ctx context.Context, live fleet.Dir, hosts []string) view {
	if len(hosts) == 0 {
		return view{all: localRuns(ctx, live)}
	}
	answers := make([]answer, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs, err := fleet.Remote(ctx, h)
			answers[i] = answer{runs: runs, err: err, done: true}
		}()
	}
	local := localRuns(ctx, live)
	wg.Wait()
	return merge(local, hosts, answers)
}

// answer is what one host said last: its runs, or why it did not answer;
// done is false while it has not said anything yet.
type answer struct {
	runs []fleet.Status
	err  error
	done bool
}

// merge makes one view of this machine's runs and the hosts' answers, in
// one order across the machines, as on one.
func merge(local []fleet.Status, hosts []string, answers []answer) view {
	v := view{all: local, hosts: len(hosts) > 0}
	if !v.hosts {
		return v
	}
	v.local = localName()
	for i := range v.all {
		v.all[i].Host = v.local
	}
	for i, h := range hosts {
		switch a := answers[i]; {
		case !a.done:
			v.failed = append(v.failed, hostError{h, ""})
		case a.err != nil:
			v.failed = append(v.failed, hostError{h, a.err.Error()})
		default:
			v.all = append(v.all, a.runs...)
		}
	}
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

// localName is this machine's name in the host column: its host name up
// to the first dot.
func localName() string {
	name, _ := os.Hostname()
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	if name == "" {
		name = "localhost"
	}
	return name
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
		if f.err == "" {
			rows = append(rows, []string{f.host, "(asking)"})
			continue
		}
		rows = append(rows, []string{f.host, "(no answer: " + f.err + ")"})
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		for i := range r {
			r[i] = strings.ReplaceAll(printable(r[i]), "\t", " ")
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
			fmt.Fprintln(out, printable(g))
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
