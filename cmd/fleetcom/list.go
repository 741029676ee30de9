package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/store"
)

func cmdList(args []string) (int, error) {
	flags, pos, err := parseFlags(args, flagSpec{"-C": true, "--all": false, "--json": false})
	if err != nil {
		return 2, err
	}
	if len(pos) > 0 {
		return 2, usagef("list takes no arguments")
	}
	all := flags["--all"] != ""
	if all && flags["-C"] != "" {
		return 2, usagef("use either -C or --all")
	}
	st, err := openStore()
	if err != nil {
		return 1, err
	}
	var recs []store.Record
	var dir string
	if all {
		recs, err = st.All()
	} else {
		if dir, err = targetDir(flags); err != nil {
			return 2, err
		}
		recs, err = st.Dir(dir)
	}
	if err != nil {
		return 1, err
	}
	rows := make([]listed, 0, len(recs))
	for _, r := range recs {
		rows = append(rows, listed{Record: refresh(r)})
	}
	// The conversations of the directory that no record knows follow the
	// records. --all stays records only: finding every directory's would
	// mean reading every tool store in full.
	if !all {
		found, _ := findIn(dir, "", knownKeys(recs))
		for _, f := range found {
			rows = append(rows, listed{Record: foundRecord(f), Discovered: true})
		}
	}
	if flags["--json"] != "" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return 0, enc.Encode(rows)
	}
	printTable(rows, all)
	return 0, nil
}

// listed is one row of list: a record, or a conversation found in a tool's
// store (source "fs", marked discovered) that resume would adopt.
type listed struct {
	store.Record
	Discovered bool `json:"discovered,omitempty"`
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

func cmdForget(args []string) (int, error) {
	_, ids, err := parseFlags(args, flagSpec{})
	if err != nil {
		return 2, err
	}
	if len(ids) == 0 {
		return 2, usagef("forget needs at least one session id")
	}
	st, err := openStore()
	if err != nil {
		return 1, err
	}
	// Check every ID first, so an unknown one changes nothing.
	var drop []store.Record
	for _, id := range ids {
		if !harness.ValidID(id) {
			return 2, usagef("%q is not a session id", id)
		}
		recs, err := st.Find(id)
		if err != nil {
			return 1, err
		}
		if len(recs) == 0 {
			return 1, notFound{msg: fmt.Sprintf("no recorded session %s", id)}
		}
		drop = append(drop, recs...)
	}
	for _, r := range drop {
		if err := st.Forget(r.Tool, r.ID); err != nil {
			return 1, err
		}
	}
	return 0, nil
}

func cmdPrune(args []string) (int, error) {
	flags, pos, err := parseFlags(args, flagSpec{"--dry-run": false})
	if err != nil {
		return 2, err
	}
	if len(pos) > 0 {
		return 2, usagef("prune takes no arguments")
	}
	dry := flags["--dry-run"] != ""
	st, err := openStore()
	if err != nil {
		return 1, err
	}
	recs, err := st.All()
	if err != nil {
		return 1, err
	}
	verb := "pruned"
	if dry {
		verb = "would prune"
	}
	for _, r := range recs {
		h, ok := harness.ByName(r.Tool)
		if !ok || h.Exists(r.Home, r.Cwd, r.ID) {
			continue
		}
		if !dry {
			if err := st.Forget(r.Tool, r.ID); err != nil {
				return 1, err
			}
		}
		fmt.Fprintf(stdout, "%s %s %s %s\n", verb, r.Tool, r.ID, r.Cwd)
	}
	return 0, nil
}
