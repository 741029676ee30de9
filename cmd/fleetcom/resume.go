package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/shim"
	"github.com/fleetcom/fleetcom/store"
)

// minPrefix is the shortest ID prefix resume accepts.
const minPrefix = 4

func cmdResume(args []string) (int, error) {
	flags, pos, err := parseFlags(args, flagSpec{"-C": true, "--exec": false})
	if err != nil {
		return 2, err
	}
	var tool, ref string
	if len(pos) > 0 {
		if _, ok := harness.ByName(pos[0]); ok {
			tool, pos = pos[0], pos[1:]
		}
	}
	switch len(pos) {
	case 0:
	case 1:
		ref = pos[0]
		if !harness.ValidPrefix(ref, minPrefix) {
			return 2, usagef("%q is not a session id or a prefix of one (at least %d lowercase hex characters)", ref, minPrefix)
		}
	default:
		return 2, usagef("resume takes at most a tool and one id")
	}
	dir, err := targetDir(flags)
	if err != nil {
		return 2, err
	}
	st, err := openStore()
	if err != nil {
		return 1, err
	}
	var rec store.Record
	if ref != "" {
		rec, err = byReference(st, tool, ref)
	} else {
		rec, err = newestResumable(st, tool, dir)
	}
	if err != nil {
		return 1, err
	}
	h, _ := harness.ByName(rec.Tool)
	if flags["--exec"] != "" {
		return execResume(h, rec)
	}
	here, err := physical(".")
	line := rec.Resume
	if err != nil || here != rec.Cwd {
		line = harness.CdPrefix(rec.Cwd) + line
	}
	fmt.Fprintln(stdout, line)
	return 0, nil
}

// byReference finds the one record an ID or prefix names, in any directory.
// An ID only ever goes back to the tool that made it.
func byReference(st *store.Store, tool, ref string) (store.Record, error) {
	recs, err := st.Find(ref)
	if err != nil {
		return store.Record{}, err
	}
	var match, others []store.Record
	for _, r := range recs {
		if tool == "" || r.Tool == tool {
			match = append(match, r)
		} else {
			others = append(others, r)
		}
	}
	switch {
	case len(match) == 1:
		return match[0], nil
	case len(match) > 1:
		var lines []string
		for _, r := range match {
			lines = append(lines, fmt.Sprintf("  %s %s %s", r.Tool, r.ID, r.Cwd))
		}
		return store.Record{}, usagef("%q matches %d sessions:\n%s", ref, len(match), strings.Join(lines, "\n"))
	case len(others) > 0:
		return store.Record{}, usagef("session %s belongs to %s, not %s", others[0].ID, others[0].Tool, tool)
	}
	return store.Record{}, notFound{msg: fmt.Sprintf("no recorded session matches %s", ref),
		hint: "run 'fleetcom list --all' to see the saved sessions"}
}

// newestResumable is the default: the newest resumable record of dir.
func newestResumable(st *store.Store, tool, dir string) (store.Record, error) {
	recs, err := st.Dir(dir)
	if err != nil {
		return store.Record{}, err
	}
	for i := range recs {
		recs[i] = refresh(recs[i])
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Updated.After(recs[j].Updated) })
	for _, r := range recs {
		if r.Resumable && (tool == "" || r.Tool == tool) {
			return r, nil
		}
	}
	what := "session"
	if tool != "" {
		what = tool + " session"
	}
	return store.Record{}, notFound{msg: fmt.Sprintf("no resumable %s recorded for %s", what, dir),
		hint: "start one through the shim (for example 'claude'), or run 'fleetcom list --all'"}
}

// execResume runs the record's resume line under the shim runtime, after
// checking the conversation is still on disk: a resume of a missing one
// would kill the CLI at start.
func execResume(h harness.Harness, rec store.Record) (int, error) {
	if !h.Exists(rec.Home, rec.Cwd, rec.ID) {
		return 1, notFound{
			msg:  fmt.Sprintf("%s conversation %s is no longer in %s: nothing to resume", rec.Tool, rec.ID, rec.Home),
			hint: fmt.Sprintf("run 'fleetcom forget %s' to drop the record", rec.ID),
		}
	}
	var opts []string
	if withOptions() {
		opts = rec.Options
	}
	return finish(shim.Resume(h, rec.Program, rec.ID, rec.Cwd, opts, shimOptions())), nil
}
