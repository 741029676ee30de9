package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/shim"
)

func cmdResume(in input) error {
	var q catalog.Query
	pos := in.args
	if len(pos) > 0 {
		if _, ok := agents.Named(pos[0]); ok {
			q.Tool, pos = pos[0], pos[1:]
		}
	}
	switch len(pos) {
	case 0:
	case 1:
		q.Ref = pos[0]
	default:
		return usageError{msg: "resume takes at most a tool and one id or name",
			hint: "quote a name with spaces in it: fleetcom resume " + safe.Quote(strings.Join(pos, " "))}
	}
	if in.has("-i") {
		if len(in.args) > 0 || in.has("--json") {
			return usagef("resume -i takes no tool, id or --json: the picker chooses")
		}
		return pickAndResume(in)
	}
	if in.has("--all") {
		return usagef("--all goes with -i: without a picker, name the conversation by its ID")
	}
	dir, cat, err := catalogAt(in.get("-C"))
	if err != nil {
		return err
	}
	q.Dir = dir
	p, err := cat.Resolve(q)
	if err != nil {
		if q.Ref == "" {
			return withMovedHint(err, cat, dir)
		}
		return err
	}
	switch {
	case p.Fallback && p.Recorded:
		hintf("the newest conversation of %s is not recorded: resuming the %s conversation found on disk, %s", dir, p.Entry.Tool, p.Entry.ID)
	case p.Fallback:
		hintf("no resumable session recorded for %s: resuming the newest %s conversation found on disk, %s", dir, p.Entry.Tool, p.Entry.ID)
	}
	return finishPlan(cat, p, in)
}

// finishPlan adopts a plan's conversation when it was found rather than
// recorded, checks that it is still in its agent's store, then prints its
// line (with a cd prefix when it belongs elsewhere) or, with --exec, runs
// it.
func finishPlan(cat *catalog.Catalog, p catalog.Plan, in input) error {
	if p.Entry.Found {
		if err := checkFound(cat, p); err != nil {
			return err
		}
	}
	if err := cat.Settle(&p); err != nil {
		return err
	}
	if p.Unrecorded != nil {
		warnf("%s conversation %s is resumed without a record: %v", p.Entry.Tool, p.Entry.ID, p.Unrecorded)
	}
	if !in.has("--force") {
		if r, ok := fleet.Find(fleet.OpenDir(resolvePaths().LiveDir).Running(), p.Entry.Tool, p.Entry.ID); ok {
			return runningNow(r, in.has("--switch"))
		}
	}
	if in.has("--exec") {
		return execPlan(cat, p)
	}
	// A line for a conversation whose files are gone would only fail
	// inside the CLI, later: every line printed is checked first, as a
	// run is.
	if err := checkPlan(cat, p); err != nil {
		return err
	}
	here, err := physical(".")
	if err != nil {
		here = ""
	}
	canonical, line, err := resumeLines(cat, p, here)
	if err != nil {
		return err
	}
	if in.has("--json") {
		return writeJSON(struct {
			Line      string `json:"line"`
			Directory string `json:"directory"`
			Record    listed `json:"record"`
		}{line, p.Dir(), listed{Record: p.Entry.Record, Resume: canonical}})
	}
	if shown := printable(line); shown != line && isTerminal(stdout) {
		// The directory's name holds control characters: on a terminal the
		// line is shown escaped, never as the bytes that would drive it.
		// Piped (eval "$(fleetcom resume …)") it goes as it is, quoted for
		// every shell.
		fmt.Fprintln(stdout, shown)
		hintf("the directory's name holds control characters, shown escaped: run 'fleetcom resume --exec %s', or eval the line from a pipe", p.Entry.ID)
		return nil
	}
	fmt.Fprintln(stdout, line)
	return nil
}

// resumeLines are a plan's canonical line and the line resume prints for
// it in directory here: with a cd prefix when the conversation belongs
// elsewhere (always, when here is "").
func resumeLines(cat *catalog.Catalog, p catalog.Plan, here string) (canonical, line string, err error) {
	canonical, err = cat.Line(p.Entry)
	if err != nil {
		return "", "", err
	}
	line = canonical
	if here == "" || here != p.Dir() {
		line = harness.CdPrefix(p.Dir()) + line
	}
	return canonical, line, nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// execPlan runs a plan under the shim runtime, after checking its
// precondition.
func execPlan(cat *catalog.Catalog, p catalog.Plan) error {
	if err := checkPlan(cat, p); err != nil {
		return err
	}
	var opts []string
	if settings().Options {
		opts = p.Entry.Options
	}
	return runStatus(finish(shim.Resume(p.Agent, p.Entry.Program, p.Entry.ID, p.Dir(), opts, shimOptions())))
}

// physical resolves a directory the way records store it, refusing what is
// not a directory.
func physical(dir string) (string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		var pe *fs.PathError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", fmt.Errorf("no directory %s", dir)
		case errors.As(err, &pe):
			return "", fmt.Errorf("directory %s: %w", dir, pe.Err)
		}
		return "", fmt.Errorf("directory %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	return safe.Physical(dir)
}

// targetDir is the -C value, else the current directory, resolved.
func targetDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	p, err := physical(dir)
	if err != nil {
		return "", usageError{msg: err.Error()}
	}
	return p, nil
}

// catalogAt resolves the directory a command works in (see targetDir) and
// opens the catalog, the pair nearly every command starts with.
func catalogAt(dir string) (string, *catalog.Catalog, error) {
	dir, err := targetDir(dir)
	if err != nil {
		return "", nil, err
	}
	cat, err := openCatalog()
	return dir, cat, err
}

// mustCommand returns a command of the table.
func mustCommand(name string) *command {
	c, ok := lookup(name)
	if !ok {
		panic("no command " + name)
	}
	return c
}
