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
	var c choice
	if ref != "" {
		c, err = byReference(st, tool, ref, dir)
	} else {
		c, err = newestResumable(st, tool, dir)
	}
	if err != nil {
		return 1, err
	}
	rec, err := settle(st, c)
	if err != nil {
		return 1, err
	}
	if c.found != nil && ref == "" {
		hintf("no resumable session recorded for %s: resuming the newest %s conversation found on disk, %s", dir, rec.Tool, rec.ID)
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

// byReference finds the one conversation an ID or prefix names: a record in
// any directory, or a conversation found in dir's tool stores; a full ID is
// also looked up in the tools' stores wherever it belongs. An ID only ever
// goes back to the tool that made it.
func byReference(st *store.Store, tool, ref, dir string) (choice, error) {
	recs, err := st.Find(ref)
	if err != nil {
		return choice{}, err
	}
	var all []choice
	for _, r := range recs {
		all = append(all, choice{rec: r})
	}
	found, _ := findIn(dir, "", knownKeys(recs))
	for _, f := range prefixed(found, ref) {
		all = append(all, choice{found: &f})
	}
	if len(all) == 0 && harness.ValidID(ref) {
		anywhere, err := lookupAnywhere(tool, ref)
		if err != nil {
			return choice{}, err
		}
		for _, f := range anywhere {
			all = append(all, choice{found: &f})
		}
	}
	var match, others []choice
	for _, c := range all {
		if tool == "" || c.tool() == tool {
			match = append(match, c)
		} else {
			others = append(others, c)
		}
	}
	switch {
	case len(match) == 1:
		return match[0], nil
	case len(match) > 1:
		var lines []string
		for _, c := range match {
			lines = append(lines, c.describe())
		}
		return choice{}, usagef("%q matches %d sessions:\n%s", ref, len(match), strings.Join(lines, "\n"))
	case len(others) > 0:
		return choice{}, usagef("session %s belongs to %s, not %s", others[0].id(), others[0].tool(), tool)
	}
	msg := fmt.Sprintf("no recorded session matches %s, nor does any conversation found for %s", ref, dir)
	if harness.ValidID(ref) {
		msg = fmt.Sprintf("no recorded session matches %s, and no tool's store holds it", ref)
	}
	return choice{}, notFound{msg: msg, hint: "run 'fleetcom list --all' to see the saved sessions"}
}

// newestResumable is the default: the newest resumable record of dir, else
// the newest conversation found in dir's tool stores.
func newestResumable(st *store.Store, tool, dir string) (choice, error) {
	recs, err := st.Dir(dir)
	if err != nil {
		return choice{}, err
	}
	for i := range recs {
		recs[i] = refresh(recs[i])
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Updated.After(recs[j].Updated) })
	for _, r := range recs {
		if r.Resumable && (tool == "" || r.Tool == tool) {
			return choice{rec: r}, nil
		}
	}
	if found, _ := findIn(dir, tool, knownKeys(recs)); len(found) > 0 {
		return choice{found: &found[0]}, nil
	}
	what := "session"
	if tool != "" {
		what = tool + " session"
	}
	return choice{}, notFound{msg: fmt.Sprintf("no resumable %s recorded or found for %s", what, dir),
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
