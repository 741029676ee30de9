package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/store"
)

// listed is one row of list --json: a record, or a conversation found in a
// tool's store (source "fs", marked discovered) that resume would adopt.
type listed struct {
	store.Record
	Resume     string `json:"resume"`
	Discovered bool   `json:"discovered,omitempty"`
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
	var entries []catalog.Entry
	if all {
		recs, err := cat.Store().All()
		if err != nil {
			return err
		}
		for _, r := range recs {
			entries = append(entries, catalog.Entry{Record: cat.Refresh(r)})
		}
	} else {
		dir, err := targetDir(in.get("-C"))
		if err != nil {
			return err
		}
		// The conversations of the directory that no record knows follow
		// the records. --all stays records only: finding every
		// directory's would mean reading every tool store in full.
		entries, _ = cat.Dir(dir, "", true)
	}
	rows := make([]listed, 0, len(entries))
	for _, e := range entries {
		line, _ := cat.Line(e)
		rows = append(rows, listed{Record: e.Record, Resume: line, Discovered: e.Found})
	}
	if in.has("--json") {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	printTable(rows, all)
	return nil
}

// printTable prints rows for people: tool, ID, age, title, and the
// directory with --all. A conversation that can no longer be resumed is
// marked, and so is one found rather than recorded.
func printTable(rows []listed, withDir bool) {
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	now := time.Now()
	for _, row := range rows {
		r := row.Record
		title := r.Title
		if !r.Resumable {
			title = strings.TrimSpace("(not resumable) " + title)
		}
		if row.Discovered {
			title = strings.TrimSpace("(found) " + title)
		}
		cols := []string{r.Tool, r.ID, age(now.Sub(r.Updated))}
		if withDir {
			cols = append(cols, r.Cwd)
		}
		cols = append(cols, title)
		for i := range cols {
			cols[i] = printable(cols[i], false)
		}
		fmt.Fprintln(w, strings.Join(cols, "\t"))
	}
	w.Flush()
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
		return mustCommand("forget").misuse("forget needs at least one session id")
	}
	st, err := openStore()
	if err != nil {
		return err
	}
	// Check every ID first, so an unknown one changes nothing.
	var drop []store.Record
	for _, id := range in.args {
		if !harness.AnyID(id) {
			return usagef("%q is not a session id", id)
		}
		recs, err := st.Find(id)
		if err != nil {
			return err
		}
		if len(recs) == 0 {
			return notFoundError{msg: fmt.Sprintf("no recorded session %s", id)}
		}
		drop = append(drop, recs...)
	}
	for _, r := range drop {
		if err := st.Forget(r.Tool, r.ID); err != nil {
			return err
		}
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
	gone, err := cat.Gone()
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
		fmt.Fprintf(stdout, "%s %s %s %s\n", verb, r.Tool, r.ID, r.Cwd)
	}
	return nil
}
