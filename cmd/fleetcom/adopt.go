package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/store"
)

// Conversations started outside the shims (before fleetcom was installed,
// from an IDE, with options the shim leaves opaque) are found in the tools'
// own stores: list and completion show them after the records, and resuming
// one adopts it, writing a record with source "adopted" once the guards
// passed. A refused adoption writes nothing: an honest error beats a resume
// line that would open an empty conversation in place of the user's.

// codexIndexDir is where the Codex rollout index lives: a cache beside the
// records, in the session store's directory.
func codexIndexDir() string {
	return filepath.Join(resolvePaths().StoreDir, "codex-index")
}

// toolHome is a tool's home in this environment.
func toolHome(h harness.Harness) string { return h.Home(os.Getenv) }

// key names a conversation across tools.
func key(tool, id string) string { return tool + "-" + id }

// findIn discovers the conversations of the physical directory dir (of one
// tool when tool is set), newest first, leaving out the ones known already.
// The tools' stores are read at once; errors only ever cost speed.
func findIn(dir, tool string, known map[string]bool) ([]harness.Found, []error) {
	var hs []harness.Harness
	for _, h := range harness.Tools() {
		if tool == "" || h.Name() == tool {
			hs = append(hs, h)
		}
	}
	results := make([][]harness.Found, len(hs))
	errs := make([]error, len(hs))
	var wg sync.WaitGroup
	for i, h := range hs {
		f, ok := harness.FinderFor(h.Name())
		if !ok {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = f.Discover(toolHome(h), dir, codexIndexDir())
		}()
	}
	wg.Wait()
	var out []harness.Found
	for _, list := range results {
		for _, f := range list {
			if !known[key(f.Tool, f.ID)] {
				out = append(out, f)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b harness.Found) int { return b.Modified.Compare(a.Modified) })
	return out, slices.DeleteFunc(errs, func(e error) bool { return e == nil })
}

// knownKeys indexes records by conversation.
func knownKeys(recs []store.Record) map[string]bool {
	out := make(map[string]bool, len(recs))
	for _, r := range recs {
		out[key(r.Tool, r.ID)] = true
	}
	return out
}

// foundRecord presents a found conversation with the fields of a record, as
// list shows it; it is not stored.
func foundRecord(f harness.Found) store.Record {
	r := store.Record{Tool: f.Tool, ID: f.ID, Cwd: f.Cwd, Program: f.Tool, Source: "fs",
		Started: f.Started, Resumable: true, Home: f.Home, Title: f.Title, Updated: f.Modified}
	if r.Started.IsZero() {
		r.Started = f.Modified
	}
	r.Resume, _ = resumeLine(r)
	return r
}

// adopt checks that a found conversation may be resumed from its directory
// and records it. Nothing is written unless every guard passed.
func adopt(st *store.Store, f harness.Found) (store.Record, error) {
	if err := harness.CheckID(f.ID); err != nil {
		return store.Record{}, usagef("%v", err)
	}
	finder, ok := harness.FinderFor(f.Tool)
	if !ok {
		return store.Record{}, usagef("unknown tool %q", f.Tool)
	}
	refused := func(hint, format string, args ...any) error {
		return notFound{msg: fmt.Sprintf("cannot adopt %s conversation %s: ", f.Tool, f.ID) + fmt.Sprintf(format, args...),
			hint: hint}
	}
	const listHint = "run 'fleetcom list' to see the conversations of this directory"
	if err := finder.Check(f.Home, f.Cwd, f.ID); err != nil {
		return store.Record{}, refused(listHint, "%v", err)
	}
	if fi, err := os.Stat(f.Cwd); err != nil || !fi.IsDir() {
		return store.Record{}, refused(listHint, "its directory %s no longer exists", f.Cwd)
	}
	for _, pid := range finder.Holders(f.Home, f.ID) {
		if pid != os.Getpid() && alive(pid) {
			return store.Record{}, refused(fmt.Sprintf("quit %s in process %d, then run 'fleetcom resume %s'", f.Tool, pid, f.ID),
				"it is open in process %d; leave it there first", pid)
		}
	}
	ended := f.Modified
	rec := store.Record{Tool: f.Tool, ID: f.ID, Cwd: f.Cwd, Program: f.Tool, Source: "adopted",
		Started: f.Started, Ended: &ended, Resumable: true, Home: f.Home, Title: f.Title}
	if rec.Started.IsZero() {
		rec.Started = f.Modified
	}
	return st.Put(rec)
}

// alive reports a running process, ours or another user's.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// lookupAnywhere finds a full ID in the tools' stores, whatever directory it
// belongs to. Under a tool filter, a refusal from that tool's store (a
// transcript without a message, a subagent's thread) is the answer; finds in
// other tools' stores are returned so the caller can name them.
func lookupAnywhere(tool, id string) ([]harness.Found, error) {
	var found []harness.Found
	var refusal error
	for _, h := range harness.Tools() {
		finder, ok := harness.FinderFor(h.Name())
		if !ok {
			continue
		}
		f, err := finder.Lookup(toolHome(h), id)
		switch {
		case err == nil:
			found = append(found, f)
		case !errors.Is(err, harness.ErrNoConversation) && (tool == "" || tool == h.Name()) && refusal == nil:
			refusal = notFound{msg: fmt.Sprintf("cannot adopt %s conversation %s: %v", h.Name(), id, err),
				hint: "run 'fleetcom list' to see the conversations of this directory"}
		}
	}
	if len(found) == 0 {
		return nil, refusal
	}
	return found, nil
}

// choice is what resume goes back to: a record, or a found conversation to
// adopt.
type choice struct {
	rec   store.Record
	found *harness.Found
}

func (c choice) tool() string {
	if c.found != nil {
		return c.found.Tool
	}
	return c.rec.Tool
}

func (c choice) describe() string {
	if c.found != nil {
		return fmt.Sprintf("  %s %s %s (found)", c.found.Tool, c.found.ID, c.found.Cwd)
	}
	return fmt.Sprintf("  %s %s %s", c.rec.Tool, c.rec.ID, c.rec.Cwd)
}

func (c choice) id() string {
	if c.found != nil {
		return c.found.ID
	}
	return c.rec.ID
}

// settle turns a choice into the record to resume: a found conversation that
// meanwhile has a record is that record; any other is adopted.
func settle(st *store.Store, c choice) (store.Record, error) {
	if c.found == nil {
		return c.rec, nil
	}
	if r, ok, err := st.Get(c.found.Tool, c.found.ID); err == nil && ok {
		return r, nil
	}
	return adopt(st, *c.found)
}

// foundWords turns found conversations into completion candidates.
func foundWords(found []harness.Found, now time.Time) []candidate {
	out := make([]candidate, 0, len(found))
	for _, f := range found {
		desc := f.Tool + ", " + age(now.Sub(f.Modified)) + ", found"
		if t := harness.CleanTitle(f.Title); t != "" {
			desc += ": " + t
		}
		out = append(out, candidate{f.ID, desc})
	}
	return out
}

// prefixed keeps the found conversations whose ID begins with ref.
func prefixed(found []harness.Found, ref string) []harness.Found {
	return slices.DeleteFunc(found, func(f harness.Found) bool { return !strings.HasPrefix(f.ID, ref) })
}
