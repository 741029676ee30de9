package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/internal/worktree"
)

// movedHint is the hint for a directory with no conversation when records
// belong to a directory of the same name, or beside it, that no longer
// exists: the project was probably renamed or moved, and `move` brings its
// conversations along; or it was a git worktree, and a second line says
// how to bring it back. "" when nothing suggests either.
func movedHint(cat *catalog.Catalog, dir string) string {
	gone := cat.Vanished(dir)
	if len(gone) == 0 {
		return ""
	}
	h := fmt.Sprintf("conversations are recorded for %s, which no longer exists; if the project moved here, run 'fleetcom move --from %s --to %s'",
		printable(gone[0]), printable(safe.Quote(gone[0])), printable(safe.Quote(dir)))
	if len(gone) > 1 {
		h += fmt.Sprintf(" (%d more such directories: 'fleetcom list --all')", len(gone)-1)
	}
	if w := worktreeHint(cat, gone[0], nil); w != "" {
		h += "\n" + w
	}
	return h
}

// withMovedHint gives a "nothing here" error of dir the moved hint, when
// there is one.
func withMovedHint(err error, cat *catalog.Catalog, dir string) error {
	var ce *catalog.Error
	if !errors.As(err, &ce) || ce.Kind != catalog.NotFound {
		return err
	}
	if h := movedHint(cat, dir); h != "" {
		return &catalog.Error{Kind: ce.Kind, Msg: ce.Msg, Next: h}
	}
	return err
}

// checkPlan is cat.Resumable, then the directory the conversation must run
// in: a line starting with a cd into a directory that is gone fails, and
// so does a run.
func checkPlan(cat *catalog.Catalog, p catalog.Plan) error {
	if err := cat.Resumable(p); err != nil {
		return err
	}
	if what, hints := dirGone(cat, p); what != "" {
		return notFoundError{msg: what, hint: strings.Join(hints, "\n")}
	}
	return nil
}

// checkFound refuses a conversation found in its agent's store whose
// directory is gone, as adoption would, with what to do.
func checkFound(cat *catalog.Catalog, p catalog.Plan) error {
	if what, hints := dirGone(cat, p); what != "" {
		return notFoundError{msg: fmt.Sprintf("cannot adopt %s conversation %s: its directory %s no longer exists", p.Entry.Tool, p.Entry.ID, printable(p.Dir())),
			hint: strings.Join(hints, "\n")}
	}
	return nil
}

// dirGone says, when the directory of p's conversation no longer exists,
// so, and what to do: bring it back when it was a git worktree, or follow
// the project if it moved. "" when the directory is there.
func dirGone(cat *catalog.Catalog, p catalog.Plan) (what string, hints []string) {
	dir := p.Dir()
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	what = fmt.Sprintf("%s conversation %s belongs to %s, which no longer exists", p.Entry.Tool, p.Entry.ID, printable(dir))
	// The move line is today's: to here, unless the directory was a
	// worktree, whose conversations rarely belong in the repository or
	// wherever the user stands now.
	from := printable(safe.Quote(dir))
	move := fmt.Sprintf("if the project moved, run 'fleetcom move --from %s --to NEW' with NEW the directory it is in now", from)
	w := worktreeHint(cat, dir, []catalog.Entry{p.Entry})
	if here, err := physical("."); err == nil && w == "" {
		move = fmt.Sprintf("if the project moved here, run 'fleetcom move --from %s --to %s'", from, printable(safe.Quote(here)))
	}
	if w != "" {
		hints = append(hints, w)
	}
	return what, append(hints, move)
}

// worktreeHint says, for dir, a directory that no longer exists, that it
// was a git worktree, of which repository and on which branch, and the line
// of git that brings it back; "" when git's files nearby do not say so.
// The branch is the one git's entry names, else the one the agents' stores
// recorded for the directory's conversations (entries; nil: every one the
// catalog has for it), the newest first.
func worktreeHint(cat *catalog.Catalog, dir string, entries []catalog.Entry) string {
	if entries == nil {
		entries, _ = cat.Dir(dir, "", catalog.WithFound)
	}
	branch, who := "", ""
	for _, e := range entries {
		a, ok := agents.Named(e.Tool)
		if !ok {
			continue
		}
		if b := a.Branch(cat.Home(a), e.Cwd, e.ID); safe.Branch(b) {
			branch, who = b, e.Tool
			break
		}
	}
	w, ok := worktree.Of(dir, branch)
	if !ok {
		return ""
	}
	what := "a git worktree of " + printable(w.Repo)
	switch {
	case w.Probable:
		what = fmt.Sprintf("probably a git worktree of %s, which has the branch %s that %s recorded there", printable(w.Repo), w.Branch, who)
	case w.Branch != "":
		what += ", on branch " + w.Branch
	case w.Commit != "":
		what += ", at commit " + w.Commit
	}
	h := printable(dir) + " was " + what
	if line := w.Line(); line != "" {
		h += fmt.Sprintf("; to bring it back, run '%s'", printable(line))
	}
	if w.Locked {
		h += " (git keeps it locked: if it is on a drive that is not mounted, mount that instead)"
	}
	return h
}
