package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
)

var restoreFlags = []flag{
	{name: "--tool", value: "T", help: "only the conversations of tool T"},
	{name: "-C", value: "DIR", dir: true, help: "only the conversations of directory DIR"},
	{name: "-i", help: "choose them in a picker (fzf when installed; Tab marks several)"},
	{name: "--since", value: "TIME", help: "only what was lost since TIME: a time (2026-12-01, '2026-12-01 09:30', RFC 3339) or a duration back from now (90m, 12h, 3d, 2w); default: since the last boot, or, naming conversations, any time"},
	{name: "--json", help: "print them as a JSON array: each a record with its line, why it was lost and when"},
	{name: "--exec", help: "reopen each in its own tmux window, one after the other, each start checked"},
	{name: "--tmux-session", value: "NAME", help: "with --exec: open the windows in tmux session NAME, made if need be (default: the current session inside tmux, else " + fleet.DefaultSession + ")"},
	{name: "--dry-run", help: "print the tmux commands --exec would run, and run nothing"},
}

const restoreHelp = `List the conversations whose last run did not end by you quitting the CLI:
its terminal was closed, the CLI was killed by a signal (a logout's or a
shutdown's SIGTERM, a kill), or its shim or the machine died. Newest first,
each with a comment line saying why it was lost and when (the time it was cut
short, or, when nobody saw it die, when it was last seen alive), and the line
'fleetcom resume ID' prints for it. A comment also names the remembered
launch options that widen what the agent may do without asking
(--dangerously-skip-permissions, --yolo and the like).

By default those lost since the last boot, the runs that boot cut short
included; --since goes further back. IDs, ID prefixes or names choose among
them (lost at any time, unless --since says otherwise), --tool and -C narrow
them down, -i picks them in a picker. A conversation running now is not
listed, nor one resumed since by any route (its own store has a message
from after its run was cut short: claude -c, an IDE), nor one whose tool
holds nothing to resume (a run lost before its first prompt).

Nothing starts unless you ask. --exec reopens each in a tmux window of its
own, in its directory, with the options it was started with: in the current
tmux session, or with --tmux-session NAME (outside tmux: ` + fleet.DefaultSession + `)
in that session, made if need be. When the agent quits, the window stays,
with your shell in the directory. One start at a time: each is checked to be
in its tool's store and not running right before it starts, and watched
until the agent is ready (its start-up screen done) or has stayed up a while;
the starts are 5 s apart, give or take 20 % (agents started together would
all refresh the login they share together, and fail; [restore] in the
config sets both). A start that fails is reported with the last lines of its
window, and after 3 failed starts in a row restore stops, naming the ones
it did not start.

  fleetcom restore
  fleetcom restore --since 12h --json
  fleetcom restore 0f8b 'fix the login bug'
  fleetcom restore -i --exec --tmux-session work
`

func cmdRestore(in input) error {
	execute, dry := in.has("--exec"), in.has("--dry-run")
	switch {
	case in.has("--json") && (execute || dry):
		return usagef("use either --json or --exec")
	case in.has("--json") && in.has("-i"):
		return usagef("use either --json or -i")
	case in.has("--tmux-session") && !execute && !dry:
		return usagef("--tmux-session goes with --exec")
	case in.has("--tmux-session") && !fleet.ValidSession(in.get("--tmux-session")):
		return usagef("%q is not a session name restore uses: letters, digits, '-' and '_'", in.get("--tmux-session"))
	}
	tool := in.get("--tool")
	if _, ok := agents.Named(tool); in.has("--tool") && !ok {
		return usagef("--tool %q: not one of %s", tool, toolList())
	}
	dir := ""
	if in.has("-C") {
		var err error
		if dir, err = targetDir(in.get("-C")); err != nil {
			return err
		}
	}
	since, err := parseSince(in.get("--since"), time.Now())
	if err != nil {
		return err
	}
	if since.IsZero() && len(in.args) > 0 {
		since = anyTime // a conversation named is looked for among every loss kept
	}
	if fleet.BootID() == "" {
		return notFoundError{msg: "restore cannot tell a run that is over from one still running on this system: it has no boot ID"}
	}
	cat, err := openCatalog()
	if err != nil {
		return err
	}
	var items []lostItem
	for _, it := range lostItems(cat, since) {
		if (tool == "" || it.Tool == tool) && (dir == "" || it.plan.Dir() == dir) {
			items = append(items, it)
		}
	}
	if len(in.args) > 0 {
		if items, err = chooseLost(items, in.args); err != nil {
			return err
		}
	}
	switch {
	case len(items) == 0 && in.has("--json"):
		return writeJSON([]restored{})
	case len(items) == 0:
		hintf("nothing to restore %s; 'fleetcom restore --since 1w' looks further back", sinceWhen(since))
		return nil
	}
	if in.has("-i") {
		if items, err = pickLost(items); err != nil {
			return err
		}
	}
	switch {
	case execute || dry:
		return reopen(cat, items, in.get("--tmux-session"), dry)
	case in.has("--json"):
		rows := make([]restored, len(items))
		for i, it := range items {
			rows[i] = it.json()
		}
		return writeJSON(rows)
	}
	printLost(items, time.Now())
	return nil
}

// anyTime is a --since that takes every loss the live folder keeps.
var anyTime = time.Unix(0, 1)

// restored is one object of restore --json: a record as list --json shows
// it (its "active" the conversation's last message, as its agent's store
// dates it now), the line resume prints for it, why its last run was lost,
// and when: "cut_short" where its shim saw that (else null), and
// "last_seen", when the run was last known alive (the same time when it
// was cut short); "lost" is the one of them that says most. "reboot" when
// the machine's going down ended it; "widens", the remembered options that
// widen what the agent may do without asking.
type restored struct {
	listed
	Line     string     `json:"line"`
	Why      string     `json:"why"`
	Lost     time.Time  `json:"lost"`
	CutShort *time.Time `json:"cut_short"`
	LastSeen time.Time  `json:"last_seen"`
	Reboot   bool       `json:"reboot,omitempty"`
	Widens   []string   `json:"widens,omitempty"`
}

// lostItem is one conversation to restore, with the plan that resumes it.
type lostItem struct {
	fleet.Lost
	plan            catalog.Plan
	canonical, line string
	active          time.Time // its last message, by its agent's store; zero: unknown
	widens          []string  // the options replayed that widen its permissions
	gone            []string  // its directory no longer exists: so, and what to do
}

func (it lostItem) json() restored {
	rec := it.plan.Entry.Record
	if !it.active.IsZero() {
		rec.Active = &it.active
	}
	r := restored{listed: listed{Record: rec, Resume: it.canonical, Name: it.plan.Entry.Name},
		Line: it.line, Why: it.Why, Lost: it.At, LastSeen: it.At, Reboot: it.Reboot, Widens: it.widens}
	if it.Cut {
		r.CutShort = &it.At
	}
	return r
}

// lostItems are the conversations fleet.Lost offers that can be resumed,
// newest first: known to the catalog, in their tool's store, and not
// resumed since by any route (a run of it ended after, or its agent's
// store holds a message from after its run was surely over).
func lostItems(cat *catalog.Catalog, since time.Time) []lostItem {
	st := cat.Store()
	here, err := physical(".")
	if err != nil {
		here = "" // every line then starts with its cd, as resume's do
	}
	var out []lostItem
	for _, l := range fleet.OpenDir(resolvePaths().LiveDir).Lost(since) {
		p, err := planOf(cat, l.Tool, l.ID, here)
		if err != nil || cat.Resumable(p) != nil {
			continue // nothing in its tool's store to resume
		}
		var ended time.Time
		if r, ok, err := st.Get(l.Tool, l.ID); err == nil && ok && r.Ended != nil {
			ended = *r.Ended
		}
		active := harness.LastActive(p.Agent, cat.Home(p.Agent), p.Entry.Cwd, p.Entry.ID)
		if l.ResumedSince(ended, active) {
			continue
		}
		canonical, line, err := resumeLines(cat, p, here)
		if err != nil {
			continue
		}
		it := lostItem{Lost: l, plan: p, canonical: canonical, line: line, active: active}
		if what, hints := dirGone(cat, p); what != "" {
			it.gone = append([]string{what}, hints...)
		}
		if settings().Options {
			it.widens = fleet.Widening(l.Tool, p.Entry.Options)
		}
		out = append(out, it)
	}
	return out
}

// planOf is the plan that resumes conversation id of tool: its record, as
// resume reads it, else whatever resume would find for the ID.
func planOf(cat *catalog.Catalog, tool, id, here string) (catalog.Plan, error) {
	if r, ok, err := cat.Store().Get(tool, id); err == nil && ok {
		a, _ := agents.Named(tool)
		return catalog.Plan{Entry: cat.Refresh(r), Agent: a}, nil
	}
	return cat.Resolve(catalog.Query{Tool: tool, Ref: id, Dir: here})
}

// why says for people how a run was lost and when.
func (it lostItem) why(now time.Time) string {
	when := it.At.Local().Format("2006-01-02 15:04") + ", " + age(now.Sub(it.At)) + " ago"
	switch {
	case it.Why == fleet.EndHangup:
		return "terminal closed at " + when
	case it.Why == fleet.EndSignal:
		return "killed by a signal at " + when
	case it.Reboot:
		return "cut short by a reboot; last seen " + when
	}
	return "its shim died unseen; last seen " + when
}

// printLost prints each conversation's comment lines and resume line.
// Each line is valid in every shell, comments too: the output can be run.
func printLost(items []lostItem, now time.Time) {
	term := isTerminal(stdout)
	escaped := false
	for _, it := range items {
		comment := "# " + it.Tool + ": " + it.why(now)
		if title := it.plan.Entry.Shown(); title != "" {
			comment += " · " + cutText(title, 60)
		}
		fmt.Fprintln(stdout, printable(comment))
		if len(it.widens) > 0 {
			fmt.Fprintln(stdout, printable("# comes back with "+strings.Join(it.widens, " ")+": it may act without asking"))
		}
		for _, g := range it.gone {
			fmt.Fprintln(stdout, printable("# "+g))
		}
		if shown := printable(it.line); shown != it.line && term {
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
}

// cutText shortens s to at most n characters.
func cutText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// chooseLost keeps the conversations refs name, in the order given: each
// ref an ID, a prefix of at least four characters of one, or a name or
// title (exact, else ignoring case). A ref that names none of them, or
// more than one, is an error; nothing is started then.
func chooseLost(items []lostItem, refs []string) ([]lostItem, error) {
	keep := map[int]bool{}
	var none []string
	for _, ref := range refs {
		hits := matchLost(items, ref)
		switch {
		case len(hits) == 0:
			none = append(none, strconv.Quote(ref))
		case len(hits) > 1:
			var b strings.Builder
			for _, i := range hits {
				fmt.Fprintf(&b, "\n  %s %s %s", items[i].Tool, items[i].ID, items[i].plan.Dir())
			}
			return nil, usageError{msg: fmt.Sprintf("%q names more than one lost conversation:%s", ref, printableLines(b.String())),
				hint: "give more of the ID"}
		default:
			keep[hits[0]] = true
		}
	}
	if len(none) > 0 {
		return nil, notFoundError{msg: fmt.Sprintf("no lost conversation matches %s", strings.Join(none, ", ")),
			hint: "'fleetcom restore --since 4w' lists what was lost; 'fleetcom resume ID' resumes any conversation"}
	}
	var out []lostItem
	for i, it := range items {
		if keep[i] {
			out = append(out, it)
		}
	}
	return out, nil
}

// matchLost is the items ref names, by the first rule that matches any.
func matchLost(items []lostItem, ref string) []int {
	rules := []func(lostItem) bool{
		func(it lostItem) bool { return it.ID == ref },
		func(it lostItem) bool { return len(ref) >= 4 && strings.HasPrefix(it.ID, ref) },
		func(it lostItem) bool { return it.plan.Entry.Name == ref || it.plan.Entry.Title == ref },
		func(it lostItem) bool {
			return strings.EqualFold(it.plan.Entry.Name, ref) || strings.EqualFold(it.plan.Entry.Title, ref)
		},
	}
	for _, rule := range rules {
		var hits []int
		for i, it := range items {
			if rule(it) {
				hits = append(hits, i)
			}
		}
		if len(hits) > 0 {
			return hits
		}
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
	switch {
	case since.Equal(anyTime):
		return "among those named"
	case !since.IsZero():
		return "since " + since.Local().Format("2006-01-02 15:04")
	}
	if b := fleet.BootTime(); !b.IsZero() {
		return "since the last boot (" + b.Local().Format("2006-01-02 15:04") + ")"
	}
	return "since the last boot"
}
