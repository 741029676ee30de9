package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/index"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/picker"
	"github.com/fleetcom/fleetcom/shim"
)

// pickFlags are the flags of `fleetcom pick`, which `resume -i` shares.
var pickFlags = []flag{
	{name: "-C", value: "DIR", dir: true, help: "pick among DIR's conversations instead of the current directory's"},
	{name: "--all", help: "pick among every directory's recorded conversations"},
	{name: "--exec", help: "run the chosen line instead of printing it"},
	{name: "--force", help: "print or run the line even when the conversation is running now"},
	{name: "--switch", help: "when the conversation is running now in tmux, go to its pane"},
}

func cmdPick(in input) error {
	if len(in.args) > 1 {
		return usageError{msg: "pick takes at most one name or filter",
			hint: "quote a name with spaces in it: fleetcom pick " + safe.Quote(strings.Join(in.args, " "))}
	}
	return pickAndResume(in)
}

// pickAndResume lets the user choose a conversation on the terminal, then
// prints or runs its line as resume does.
func pickAndResume(in input) error {
	if in.has("--all") && in.has("-C") {
		return usagef("use either -C or --all")
	}
	if err := picker.Usable(picker.Options{}); err != nil {
		return noTerminal(err)
	}
	dir, cat, err := catalogAt(in.get("-C"))
	if err != nil {
		return err
	}
	// The text is searched where the rows come from: dir, or with --all
	// every directory ("-" for fzf's process of its own). The index is
	// brought up to date here, before the listing starts beside the picker.
	var offer offering
	scope, textDir := dir, dir
	if in.has("--all") {
		scope, textDir = "", "-"
	}
	if x, err := cat.Index(scope); err == nil {
		offer.text, offer.textDir = textOf(x, scope), textDir
	}
	// Only what can be resumed is offered, read row by row from the index
	// into the picker's rows: at thousands of conversations, the entries
	// themselves are not kept, and the picker opens on the first screen of
	// them while the rest are read.
	live := liveNow(resolvePaths().LiveDir)
	now := time.Now()
	each := func(keep func(catalog.Entry) bool) error {
		if in.has("--all") {
			return cat.EachAll(catalog.WithFound, keep)
		}
		_ = cat.EachDir(dir, "", catalog.WithFound, keep)
		return nil
	}
	offered := func(e catalog.Entry) bool {
		s := stateIn(live, e)
		return s == "saved" || s == "found" || s == "running"
	}
	first, more, stop := offer.gather(each, offered, live, now)
	if len(first) == 0 {
		if err := stop(); err != nil {
			return err
		}
		if in.has("--all") {
			return notFoundError{msg: "no conversation to pick anywhere",
				hint: fmt.Sprintf("run %s through the shims first", agentList("or"))}
		}
		hint := movedHint(cat, dir)
		if hint == "" {
			hint = "run 'fleetcom pick --all' to pick among every directory's conversations"
		}
		return notFoundError{msg: "no conversation to pick for " + dir, hint: hint}
	}
	query := ""
	if len(in.args) == 1 {
		query = in.args[0]
	}
	return offer.pickFrom(cat, first, more, stop, query, in)
}

// firstScreen is how many rows the picker opens on while the rest are
// read: more than a terminal shows. nextRows is how many it is given at a
// time after that.
const (
	firstScreen = 200
	nextRows    = 1000
)

// gather reads what each lists into o in the background, keeping the
// entries ok says to offer. It returns once the first screen of rows is in
// (all of them, when there are fewer) with those rows, a channel that
// brings the rest in batches and is closed after the last, and stop, which
// ends the reading and waits for it: after stop, o.rows and o.refs hold
// every row read, and stop returns the listing's error.
func (o *offering) gather(each func(func(catalog.Entry) bool) error, ok func(catalog.Entry) bool, live map[string]bool, now time.Time) (first []picker.Row, more <-chan []picker.Row, stop func() error) {
	ready := make(chan []picker.Row, 1)
	batches := make(chan []picker.Row)
	quit, done := make(chan struct{}), make(chan struct{})
	var err error
	go func() {
		defer close(done)
		defer close(batches)
		sent := -1 // rows handed on; -1 until the first screen is
		send := func() bool {
			if sent < 0 {
				ready <- slices.Clone(o.rows)
				sent = len(o.rows)
				return true
			}
			select {
			case batches <- slices.Clone(o.rows[sent:]):
				sent = len(o.rows)
				return true
			case <-quit:
				return false
			}
		}
		err = each(func(e catalog.Entry) bool {
			if ok(e) {
				o.add(e, e.Shown(), live, now)
			}
			switch n := len(o.rows); {
			case sent < 0 && n >= firstScreen, sent >= 0 && n-sent >= nextRows:
				return send()
			}
			select {
			case <-quit:
				return false
			default:
				return true
			}
		})
		if sent < 0 || sent < len(o.rows) {
			send()
		}
	}()
	var stopped bool
	stop = func() error {
		if !stopped {
			stopped = true
			close(quit)
			<-done
		}
		return err
	}
	select {
	case first = <-ready:
	case <-done:
		first = o.rows
	}
	return first, batches, stop
}

// cmdPickText is what fzf runs as its query changes (picker.Options.
// TextCommand): __picktext DIR|- FILE QUERY prints the picker's lines in
// FILE again, those of the conversations of DIR (- for every directory)
// whose text holds QUERY marked, as textOf finds them. What it cannot
// search, it prints unmarked: the list never empties because of it.
func cmdPickText(in input) error {
	if len(in.args) != 3 {
		return usagef("__picktext takes a directory, a file and a query")
	}
	dir, file, query := in.args[0], in.args[1], in.args[2]
	if dir == "-" {
		dir = ""
	}
	var keys []string
	if strings.TrimSpace(query) != "" && (dir == "" || filepath.IsAbs(dir)) {
		if cat, err := openCatalog(); err == nil {
			if x, err := cat.Index(dir); err == nil {
				keys = textOf(x, dir)(query)
			}
		}
	}
	return picker.MarkText(stdout, file, keys, query)
}

// pickTextMax bounds the conversations one question about the text
// returns to the picker.
const pickTextMax = 2000

// textOf finds, as the user types in the picker, the conversations of dir
// (of every directory for "") whose prompts and replies hold the filter,
// as search does: every word, in any case, a "phrase" as it is, and the
// last word, once three characters long and not ended by a space, as the
// start of a word.
func textOf(x *index.Index, dir string) func(string) []string {
	return func(filter string) []string {
		terms, err := index.ParseQuery([]string{filter})
		if err != nil {
			return nil
		}
		last := terms[len(terms)-1]
		prefix := utf8.RuneCountInString(last) >= 3 && !strings.HasSuffix(filter, " ") && !strings.HasSuffix(filter, `"`)
		keys, _ := x.Holding(index.Query{Terms: terms, Prefix: prefix, Dir: dir, Limit: pickTextMax})
		return keys
	}
}

// offering is what the picker offers: a row per conversation, newest
// first, and what finds each one again once chosen.
type offering struct {
	rows []picker.Row
	refs []catalog.Query
	// text, when set, finds rows by what their conversations say, as the
	// user types (picker.Options.Text); textDir is the directory it
	// searches, "-" for all, for fzf's process (cmdPickText).
	text    func(string) []string
	textDir string
}

// add offers entry e, shown as title.
func (o *offering) add(e catalog.Entry, title string, live map[string]bool, now time.Time) {
	switch {
	case live[e.Tool+"-"+e.ID]:
		// Chosen, it is not started a second time: resume says where it
		// runs (or goes there with --switch).
		title = strings.TrimSpace("(running) " + title)
	case e.Found:
		title = strings.TrimSpace("(found) " + title)
	}
	o.rows = append(o.rows, picker.Row{Key: e.Tool + ":" + e.ID, Cols: []string{e.Tool, age(now.Sub(e.Activity())), title, tildePath(e.Cwd)}})
	o.refs = append(o.refs, catalog.Query{Tool: e.Tool, Ref: e.ID, Dir: e.Cwd})
}

// pickAmong opens the picker over entries, newest first, and resumes the
// one chosen as resume does. titles, when given, replace the entries'
// titles in the picker (search shows what matched).
func pickAmong(cat *catalog.Catalog, entries []catalog.Entry, titles []string, query string, in input) error {
	var offer offering
	live := liveNow(resolvePaths().LiveDir)
	now := time.Now()
	for i, e := range entries {
		title := e.Shown()
		if titles != nil {
			title = titles[i]
		}
		offer.add(e, title, live, now)
	}
	return offer.pick(cat, query, in)
}

// pick opens the picker, typed query in its filter, and resumes the
// conversation chosen as resume does.
func (o *offering) pick(cat *catalog.Catalog, query string, in input) error {
	return o.pickFrom(cat, o.rows, nil, func() error { return nil }, query, in)
}

// pickFrom is pick over first and the batches more brings (gather); stop
// ends the reading of the rest once the picker has returned.
func (o *offering) pickFrom(cat *catalog.Catalog, first []picker.Row, more <-chan []picker.Row, stop func() error, query string, in input) error {
	exe, err := selfPath()
	if err != nil {
		stop()
		return err
	}
	opts := picker.Options{
		Header:  []string{"TOOL", "AGE", "TITLE", "DIRECTORY"},
		Preview: []string{exe, "__preview"},
		// FLEETCOM_FZF names the fzf to use, or "-" for the built-in
		// picker even where fzf is installed.
		FZF:   os.Getenv("FLEETCOM_FZF"),
		Query: query,
		Text:  o.text,
	}
	if o.textDir != "" {
		opts.TextCommand = []string{exe, "__picktext", o.textDir}
	}
	opts.More = more
	i, err := picker.Pick(first, opts)
	if serr := stop(); err == nil && serr != nil {
		return serr
	}
	var sig *picker.SignalError
	switch {
	case errors.As(err, &sig):
		shim.Reraise(sig.Signal)
		return exitStatus(128 + int(sig.Signal))
	case errors.Is(err, picker.ErrNoTerminal):
		return noTerminal(err)
	case errors.Is(err, picker.ErrNoMatch):
		return notFoundError{msg: "nothing matched: no conversation chosen"}
	case errors.Is(err, picker.ErrCancelled):
		// Nothing chosen: nothing printed, nothing run, and the status
		// fzf and a shell give an interrupted choice.
		return exitStatus(exitCancelled)
	case err != nil:
		return err
	}
	p, err := cat.Resolve(o.refs[i])
	if err != nil {
		return err
	}
	return finishPlan(cat, p, in)
}

// noTerminal is the usage error of a picker without a terminal.
func noTerminal(err error) error {
	return usageError{msg: err.Error(), hint: "without a terminal, use 'fleetcom resume [TOOL] [ID|PREFIX]'"}
}

// cmdPreview prints what the picker shows beside a conversation: where it
// is, and its first and last messages.
func cmdPreview(in input) error {
	if len(in.args) != 1 {
		return usagef("__preview takes one key")
	}
	tool, id, _ := strings.Cut(in.args[0], ":")
	a, ok := agents.Named(tool)
	if !ok || !a.ID.Valid(id) {
		return usagef("%q is not a conversation key", in.args[0])
	}
	cat, err := openCatalog()
	if err != nil {
		return err
	}
	home, cwd := cat.Home(a), ""
	if r, ok, _ := cat.Store().Get(tool, id); ok {
		cwd = r.Cwd
		if r.Home != "" {
			home = r.Home
		}
	} else if f, err := a.Lookup(home, id); err == nil {
		cwd = f.Cwd
	}
	fmt.Fprintf(stdout, "%s %s\n%s\n\n", tool, id, picker.Printable(cwd))
	x := a.Excerpt(home, cwd, id, 3, 4)
	show := func(ms []harness.Message) {
		for _, m := range ms {
			who := "you"
			if m.Role != "user" {
				who = tool
			}
			fmt.Fprintf(stdout, "%s: %s\n\n", who, picker.Printable(m.Text))
		}
	}
	show(x.First)
	if skipped := x.Total - len(x.First) - len(x.Last); skipped > 0 {
		fmt.Fprintf(stdout, "… %d more …\n\n", skipped)
	}
	show(x.Last)
	if x.Total == 0 {
		fmt.Fprintln(stdout, "(no messages found)")
	}
	return nil
}

// tildePath shows a path under the home directory as ~/…, as the pickers
// and list --all show directories.
func tildePath(p string) string {
	home := homeDir()
	if rest, ok := strings.CutPrefix(p, home); ok && home != "" && home != "/" && (rest == "" || rest[0] == '/') {
		return "~" + rest
	}
	return p
}
