package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/index"
)

var indexFlags = []flag{
	{name: "--status", help: "say what the index holds, its size and when it was last brought up to date"},
	{name: "--rebuild", help: "start over: read every conversation again"},
	{name: "--purge", help: "remove the index (the next command that needs it builds it again)"},
}

const indexHelp = `Bring the index of every conversation up to date now: every tool's store
is read, in every directory, at the cost of what changed since the last time
(the first time, of everything). On a terminal it shows its progress
(conversations and bytes done, and what is left); elsewhere it prints one
line when done.

Every command that reads conversations (list, resume, pick, completion,
status, search) brings the index up to date itself first, at the cost of
what changed: fleetcom index is never needed, only handy after a large
import or to see what the index holds. The index is a cache, kept private
in the cache directory; deleting it loses nothing. It holds the text of the
conversations (prompts and replies, for search) unless [index] text = false
in the config.
`

func cmdIndex(in input) error {
	if len(in.args) > 0 {
		return usagef("index takes no arguments")
	}
	n := 0
	for _, f := range []string{"--status", "--rebuild", "--purge"} {
		if in.has(f) {
			n++
		}
	}
	if n > 1 {
		return usagef("use one of --status, --rebuild and --purge")
	}
	dir := indexPath()
	if in.has("--purge") {
		if err := index.Purge(dir); err != nil {
			return fmt.Errorf("purge index: %w", err)
		}
		fmt.Fprintf(stdout, "removed the index at %s; the next command that needs it builds it again\n", printable(tildePath(dir)))
		return nil
	}
	st, err := openStore()
	if err != nil {
		return err
	}
	x, err := catalog.OpenIndex(dir, st, catalog.IndexConfig{Getenv: os.Getenv, Text: !settings().TextOff, Warn: indexWarn})
	if err != nil {
		return err
	}
	defer x.Close()
	if in.has("--status") {
		s, err := x.Stats()
		if err != nil {
			return err
		}
		printIndexStats(s, time.Now())
		return nil
	}
	if in.has("--rebuild") {
		if err := x.Rebuild(); err != nil {
			return err
		}
	}
	start := time.Now()
	p := newProgress()
	p.always = true
	r, err := x.Refresh(index.Scope{Full: true, Hot: hotRuns(), Progress: p.report})
	if err != nil {
		return err
	}
	s, err := x.Stats()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "indexed %d conversations: %d files read (%s) in %s\n",
		s.Stored, r.Files, size(r.Bytes), time.Since(start).Round(time.Millisecond))
	return nil
}

// printIndexStats says what an index holds.
func printIndexStats(s index.Stats, now time.Time) {
	where := "in memory"
	if s.Dir != "" {
		where = printable(tildePath(s.Dir))
	}
	fmt.Fprintf(stdout, "index:          %s (%s)\n", where, size(s.Size))
	var tools []string
	for t := range s.PerTool {
		tools = append(tools, t)
	}
	sort.Strings(tools)
	var per []string
	for _, t := range tools {
		per = append(per, fmt.Sprintf("%s %d", t, s.PerTool[t]))
	}
	fmt.Fprintf(stdout, "conversations:  %d in the tools' stores", s.Stored)
	if len(per) > 0 {
		fmt.Fprintf(stdout, " (%s)", strings.Join(per, ", "))
	}
	fmt.Fprintf(stdout, ", %d recorded by fleetcom\n", s.Recorded)
	if s.TextOn {
		fmt.Fprintf(stdout, "text:           %s of prompts and replies, from %d files\n", size(s.Text), s.Files)
	} else {
		fmt.Fprintf(stdout, "text:           none ([index] text = false): titles, directories and times only\n")
	}
	when := func(t time.Time) string {
		if t.IsZero() {
			return "never"
		}
		return age(now.Sub(t)) + " ago"
	}
	fmt.Fprintf(stdout, "brought up to date: %s; last full sweep: %s\n", when(s.Refreshed), when(s.Swept))
}
