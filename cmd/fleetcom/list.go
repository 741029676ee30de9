package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/store"
)

// listed is one row of list --json: a record, with resumable saying what
// the agent's store holds now, or a conversation found in an agent's store
// (source "fs", marked discovered) that resume would adopt.
type listed struct {
	store.Record
	Resume     string `json:"resume"`
	Discovered bool   `json:"discovered,omitempty"`
	Gone       bool   `json:"gone,omitempty"`
	Lost       bool   `json:"lost,omitempty"`
	Name       string `json:"name,omitempty"`
}

func cmdList(in input) error {
	if len(in.args) > 0 {
		return usagef("list takes no arguments")
	}
	all := in.has("--all")
	if all && in.has("-C") {
		return usagef("use either -C or --all")
	}
	cat, err := openCatalog()
	if err != nil {
		return err
	}
	dir := ""
	if !all {
		if dir, err = targetDir(in.get("-C")); err != nil {
			return err
		}
	}
	// The listing is read from the index row by row and written as it
	// comes: at thousands of conversations, holding it whole costs more
	// than reading it. Only the table on a terminal, which aligns its
	// columns, keeps it.
	each := func(fn func(catalog.Entry) bool) error {
		if all {
			return cat.EachAll(catalog.WithFound, fn)
		}
		_ = cat.EachDir(dir, "", catalog.WithFound, fn)
		return nil
	}
	live := liveNow(resolvePaths().LiveDir)
	if in.has("--json") {
		arr := newJSONArray(stdout)
		var failed error
		err := each(func(e catalog.Entry) bool {
			line, _ := cat.Line(e)
			failed = arr.add(listed{Record: e.Record, Resume: line, Discovered: e.Found, Gone: e.Gone, Lost: stateIn(live, e) == "lost", Name: e.Name})
			return failed == nil
		})
		if err = cmp.Or(failed, err); err != nil {
			return err
		}
		return arr.close()
	}
	// Runs quit before their first prompt hold nothing to resume: they are
	// noise until prune, shown only when asked for.
	hidden, shown := 0, 0
	withEmpty := in.has("--empty")
	width, table := terminalWidth()
	var rows []tableRow
	// 64 KB a write: 10,000 rows are some 2 MB, 500 writes at the default size.
	out := bufio.NewWriterSize(stdout, 64<<10)
	err = each(func(e catalog.Entry) bool {
		s := stateIn(live, e)
		if s == "empty" && !withEmpty {
			hidden++
			return true
		}
		shown++
		if table {
			rows = append(rows, newTableRow(e, s, all))
		} else {
			writeTSV(out, e, s)
		}
		return true
	})
	if err != nil {
		return err
	}
	if shown == 0 {
		switch {
		case hidden > 0:
			hintf("only %d empty run%s (quit before the first prompt): 'fleetcom list --empty' shows them, 'fleetcom prune' drops them", hidden, plural(hidden))
		case all:
			hintf("no conversation saved yet: run %s through the shims, then 'fleetcom list'", agentList("or"))
		default:
			if h := movedHint(cat, dir); h != "" {
				first, more, _ := strings.Cut(h, "\n")
				hintf("no conversation saved or found for %s; %s", dir, first)
				if more != "" {
					hintf("%s", more)
				}
			} else {
				hintf("no conversation saved or found for %s: run 'fleetcom list --all' to see every directory's conversations", dir)
			}
		}
		return nil
	}
	if table {
		printTable(out, rows, all, width, time.Now())
	}
	return out.Flush()
}

// plural is "s" for a count other than one.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// terminalWidth is stdout's width when it is a terminal.
func terminalWidth() (int, bool) {
	f, ok := stdout.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0, false
	}
	w, _, err := term.GetSize(int(f.Fd()))
	if err != nil || w <= 0 {
		w = 80
	}
	return w, true
}

// stateIn names what an entry is, for people and scripts alike, with the
// live files already read (liveNow): a listing reads them once, not once
// per row. An open record is a run going on, or one that ended unseen (its
// shim killed, the machine gone down): the live files tell them apart
// (running). A lost one whose conversation is in its agent's store is
// saved like any other.
func stateIn(live map[string]bool, e catalog.Entry) string {
	switch {
	case len(live) > 0 && live[e.Tool+"-"+e.ID]:
		return "running"
	case e.Found:
		return "found"
	case e.Resumable:
		return "saved"
	case e.Open() && live == nil:
		// Where processes cannot be told apart, every open record counts
		// as running, as nothing says otherwise (running).
		return "running"
	case e.Gone:
		return "gone"
	case e.Open():
		return "lost"
	}
	return "empty"
}

// running reports whether a conversation's run is going on now: the live
// file of a run whose process is alive (its PID, start time and boot)
// names it. Where processes cannot be told apart, every open record
// counts as running, as nothing says otherwise.
func running(tool, id string) bool {
	live := liveNow(resolvePaths().LiveDir)
	return live == nil || live[tool+"-"+id]
}

// liveRuns keeps what liveNow read, by live folder: a command reads its
// folder once, and only when an open record asks.
var liveRuns struct {
	sync.Mutex
	by map[string]map[string]bool
}

// liveNow maps the conversations running now under the shims whose live
// files are in dir, by "<tool>-<id>"; nil where processes cannot be told
// apart (no boot ID), and where no shim writes a live file either.
func liveNow(dir string) map[string]bool {
	if fleet.BootID() == "" {
		return nil
	}
	liveRuns.Lock()
	defer liveRuns.Unlock()
	if live, ok := liveRuns.by[dir]; ok {
		return live
	}
	runs, _ := fleet.OpenDir(dir).Read()
	live := map[string]bool{}
	for _, r := range runs {
		if r.ID != "" && fleet.Live(r) {
			live[r.Tool+"-"+r.ID] = true
		}
	}
	if liveRuns.by == nil {
		liveRuns.by = map[string]map[string]bool{}
	}
	liveRuns.by[dir] = live
	return live
}

// writeTSV writes the stable form for scripts: one line per conversation,
// tab-separated, the same columns with or without --all: tool, ID, state
// (saved, found, running, gone, lost, empty), last activity (RFC 3339, UTC),
// directory, title.
func writeTSV(w *bufio.Writer, e catalog.Entry, state string) {
	for i, col := range [...]string{e.Tool, e.ID, state, e.Activity().UTC().Format(time.RFC3339), e.Cwd, e.Shown()} {
		if i > 0 {
			w.WriteByte('\t')
		}
		col = printable(col)
		if strings.IndexByte(col, '\t') >= 0 {
			col = strings.ReplaceAll(col, "\t", " ")
		}
		w.WriteString(col)
	}
	w.WriteByte('\n')
}

// tableRow is what the table shows of a conversation: a listing of
// thousands keeps these, not the entries, until it knows its columns'
// widths.
type tableRow struct {
	tool, id, dir, title string
	activity             time.Time
}

// newTableRow is entry e's row, in state s: its title marked when it is
// not a saved, resumable one, and its directory as ~/… when withDir.
func newTableRow(e catalog.Entry, s string, withDir bool) tableRow {
	r := tableRow{tool: e.Tool, id: e.ID, title: printable(e.Shown()), activity: e.Activity()}
	if s != "saved" {
		r.title = strings.TrimSpace("(" + s + ") " + r.title)
	}
	if withDir {
		r.dir = printable(tildePath(e.Cwd))
	}
	return r
}

// printTable prints rows for people: a header, IDs shortened to the
// shortest prefix that is still unique among them (at least 8
// characters), the age, the directory with --all, and the title, cut to
// the width. The columns are aligned as text/tabwriter aligns them, two
// spaces after the widest cell (in characters), written a line at a time
// rather than gathered whole.
func printTable(out io.Writer, rows []tableRow, withDir bool, width int, now time.Time) {
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.id
	}
	short := uniquePrefixes(ids, 8)
	ages := make([]string, len(rows))
	head := []string{"TOOL", "ID", "AGE"}
	if withDir {
		head = append(head, "DIRECTORY")
	}
	cols := make([]int, len(head))
	for i, h := range head {
		cols[i] = utf8.RuneCountInString(h)
	}
	for i, r := range rows {
		ages[i] = age(now.Sub(r.activity))
		cols[0] = max(cols[0], utf8.RuneCountInString(r.tool))
		cols[1] = max(cols[1], utf8.RuneCountInString(short[i]))
		cols[2] = max(cols[2], utf8.RuneCountInString(ages[i]))
		if withDir {
			cols[3] = max(cols[3], utf8.RuneCountInString(r.dir))
		}
	}
	var line []byte
	write := func(cells []string, last string) {
		line = line[:0]
		for i, c := range cells {
			line = append(line, c...)
			for n := cols[i] + 2 - utf8.RuneCountInString(c); n > 0; n-- {
				line = append(line, ' ')
			}
		}
		line = cutBytes(append(line, last...), width)
		out.Write(append(line, '\n'))
	}
	write(head, "TITLE")
	cells := make([]string, len(head))
	for i, r := range rows {
		cells[0], cells[1], cells[2] = r.tool, short[i], ages[i]
		if withDir {
			cells[3] = r.dir
		}
		write(cells, r.title)
	}
}

// cutBytes is cut for a line without its newline, in place.
func cutBytes(line []byte, width int) []byte {
	if width < 2 || utf8.RuneCount(line) <= width {
		return line
	}
	i := 0
	for n := 0; n < width-1; n++ {
		_, size := utf8.DecodeRune(line[i:])
		i += size
	}
	return append(line[:i], "…"...)
}

// cut shortens a line to width characters, with an ellipsis.
func cut(line string, width int) string {
	body := strings.TrimSuffix(line, "\n")
	if utf8.RuneCountInString(body) <= width || width < 2 {
		return line
	}
	return string(cutBytes([]byte(body), width)) + line[len(body):]
}

// uniquePrefixes shortens each ID to the shortest prefix that no other of
// the IDs shares, and never to fewer than least characters. In sorted
// order, the ID that shares the longest prefix with another is one of its
// neighbours: two comparisons per ID, not one per pair.
func uniquePrefixes(ids []string, least int) []string {
	order := make([]int, len(ids))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(ids[a], ids[b]) })
	out := make([]string, len(ids))
	for k, i := range order {
		id, n := ids[i], least
		// An equal ID (another tool's conversation) does not make the
		// prefix longer: the nearest different one on each side does.
		for _, step := range [...]int{-1, 1} {
			j := k + step
			for j >= 0 && j < len(order) && ids[order[j]] == id {
				j += step
			}
			if j >= 0 && j < len(order) {
				n = max(n, commonPrefix(id, ids[order[j]])+1)
			}
		}
		out[i] = id[:min(n, len(id))]
	}
	return out
}

// commonPrefix is the length of the longest prefix a and b share.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// age formats a duration the way people say it: 45s, 12m, 3h, 5d.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

func cmdForget(in input) error {
	if len(in.args) == 0 {
		return mustCommand("forget").misuse("forget needs at least one session id or prefix")
	}
	dir, cat, err := catalogAt("")
	if err != nil {
		return err
	}
	// Every reference is resolved first, so one that matches nothing, or
	// more than one conversation, changes nothing at all.
	var drop []catalog.Entry
	for _, ref := range in.args {
		p, err := cat.Resolve(catalog.Query{Ref: ref, Dir: dir})
		if err != nil {
			return err
		}
		drop = append(drop, p.Entry)
	}
	for _, e := range drop {
		if e.Found {
			if err := cat.Store().Tombstone(e.Tool, e.ID); err != nil {
				return err
			}
		} else if err := cat.Store().Forget(e.Tool, e.ID); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		fmt.Fprintf(stdout, "forgot %s %s %s\n", e.Tool, e.ID, printable(e.Cwd))
	}
	return nil
}

func cmdPrune(in input) error {
	if len(in.args) > 0 {
		return usagef("prune takes no arguments")
	}
	dry := in.has("--dry-run")
	cat, err := openCatalog()
	if err != nil {
		return err
	}
	// A run going on now keeps its record, whatever its agent's store
	// holds yet; where that cannot be told, the catalog goes by age.
	var alive func(tool, id string) bool
	if liveNow(resolvePaths().LiveDir) != nil {
		alive = running
	}
	gone, err := cat.Gone(alive)
	if err != nil {
		return err
	}
	verb := "pruned"
	if dry {
		verb = "would prune"
	}
	for _, r := range gone {
		if !dry {
			if err := cat.Store().Forget(r.Tool, r.ID); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		fmt.Fprintf(stdout, "%s %s %s %s\n", verb, r.Tool, r.ID, printable(r.Cwd))
	}
	if len(gone) == 0 {
		hintf("nothing to prune: every recorded conversation is still in its agent's store, or running")
	}
	return nil
}
