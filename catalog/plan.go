package catalog

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/index"
	"github.com/fleetcom/fleetcom/store"
)

// MinPrefix is the shortest ID prefix a resume accepts.
const MinPrefix = 4

// Plan is what a resume goes back to.
type Plan struct {
	Entry Entry
	Agent harness.Agent
	// Fallback: the plan is a conversation found in the agents' stores,
	// newer than any resumable record of the directory; Recorded says
	// whether there was one.
	Fallback, Recorded bool
	// Unrecorded: the conversation could not be adopted, only because the
	// store cannot hold it; it is resumed all the same.
	Unrecorded error
}

// Dir is the directory the conversation belongs to, where it must run.
func (p Plan) Dir() string { return p.Entry.Cwd }

// Query is what the user asked to resume.
type Query struct {
	Tool string // an agent's name, or "" for any
	Ref  string // an ID, a prefix of one or a name; "" for the newest
	Dir  string // the physical directory asked about
}

// Resolve decides which conversation q names. Without a reference: of the
// directory's resumable records and the conversations found there, the one
// whose last message is the latest (newest). With one: the single record or found conversation whose ID
// begins with it; a full ID is also looked up in every agent's store. A
// reference that is no ID prefix, or one that matches no ID, may be a
// conversation's name (byName). An ID only ever goes back to the agent
// that made it.
func (c *Catalog) Resolve(q Query) (Plan, error) {
	if q.Tool != "" {
		if _, ok := agents.Named(q.Tool); !ok {
			return Plan{}, invalid("unknown tool %q", q.Tool)
		}
	}
	var p Plan
	var err error
	switch {
	case q.Ref == "":
		p, err = c.newest(q)
	case !agents.ValidPrefixOfAny(q.Ref, MinPrefix):
		var ok bool
		if p, ok, err = c.byName(q); err == nil && !ok {
			err = invalid("%q is not a session id or a prefix of one (at least %d lowercase hex characters), nor the name of a conversation", q.Ref, MinPrefix)
		}
	default:
		p, err = c.byReference(q)
		var ce *Error
		if errors.As(err, &ce) && ce.Kind == NotFound {
			// A name can look like a prefix ("cafe").
			if np, ok, nerr := c.byName(q); ok || nerr != nil {
				p, err = np, nerr
			}
		}
	}
	if err != nil {
		return Plan{}, err
	}
	p.Agent, _ = agents.Named(p.Entry.Tool)
	return p, nil
}

// byReference finds the one conversation a reference names: of every
// conversation the index knows, recorded or found, in any directory, the
// one whose ID begins with it; a full ID the index does not know (yet) is
// also looked up in every agent's store.
func (c *Catalog) byReference(q Query) (Plan, error) {
	x, err := c.index(q.Dir)
	if err != nil {
		return Plan{}, err
	}
	list, err := x.Prefix(q.Ref)
	if err != nil {
		return Plan{}, err
	}
	full := agents.ValidIDOfAny(q.Ref)
	var all []Entry
	for _, v := range list {
		if e, ok := c.entry(v, full && v.ID == q.Ref); ok {
			all = append(all, e)
		}
	}
	all = prefixed(all, q.Ref)
	if len(all) == 0 && full {
		anywhere, err := c.lookupAnywhere(q.Tool, q.Ref)
		if err != nil {
			return Plan{}, err
		}
		for _, f := range anywhere {
			all = append(all, foundEntry(f))
		}
	}
	var match, others []Entry
	for _, e := range all {
		if q.Tool == "" || e.Tool == q.Tool {
			match = append(match, e)
		} else {
			others = append(others, e)
		}
	}
	switch {
	case len(match) == 1:
		return Plan{Entry: match[0]}, nil
	case len(match) > 1:
		var lines []string
		for _, e := range match {
			lines = append(lines, describe(e))
		}
		return Plan{}, invalid("%q matches %d sessions:\n%s", q.Ref, len(match), strings.Join(lines, "\n"))
	case len(others) > 0:
		return Plan{}, invalid("session %s belongs to %s, not %s", others[0].ID, others[0].Tool, q.Tool)
	}
	const hint = "run 'fleetcom list --all' to see the saved sessions"
	if full {
		return Plan{}, notFound(hint, "no recorded session matches %s, and no tool's store holds it", q.Ref)
	}
	return Plan{}, notFound(hint, "no recorded session matches %s, nor does any conversation found on disk", q.Ref)
}

// foundEntry presents a conversation found by a direct lookup in its
// agent's store with the fields of a record; it is not stored.
func foundEntry(f harness.Found) Entry {
	r := store.Record{Tool: f.Tool, ID: f.ID, Cwd: f.Cwd, Program: f.Tool, Source: "fs",
		Started: f.Started, Resumable: true, Home: f.Home, Title: f.Title, Updated: f.Modified}
	if r.Started.IsZero() {
		r.Started = f.Modified
	}
	e := Entry{Record: r, Found: true}
	if a, ok := agents.Named(f.Tool); ok {
		e.Name = a.ConversationName(f.Home, f.Cwd, f.ID)
	}
	return e
}

// newest is the default: of the directory's resumable conversations,
// recorded or found, the one whose last message is the latest, as its
// agent's store dates it (the index's order). A tie goes to a record, then
// to the order records keep (store.NewestFirst). An empty conversation (no
// turn) is never the newest.
func (c *Catalog) newest(q Query) (Plan, error) {
	x, err := c.index(q.Dir)
	if err != nil {
		return Plan{}, err
	}
	// The directory's conversations are walked newest first, only as far
	// as the first resumable one: with thousands in one directory, one
	// row is read, not all of them.
	var first Entry
	ok := false
	resumable := func(v index.Conv) (Entry, bool) {
		e, ok := c.entry(v, false)
		return e, ok && e.Resumable
	}
	if err := x.EachDir(q.Dir, q.Tool, func(v index.Conv) bool {
		first, ok = resumable(v)
		return !ok
	}); err != nil {
		return Plan{}, err
	}
	if !ok {
		what := "session"
		if q.Tool != "" {
			what = q.Tool + " session"
		}
		return Plan{}, notFound(fmt.Sprintf("start one through the shim (for example '%s'), or run 'fleetcom list --all'", agents.Names()[0]),
			"no resumable %s recorded or found for %s", what, q.Dir)
	}
	// A found one is a fallback: whether a resumable record is behind it
	// changes what the user is told.
	recorded := !first.Found
	if first.Found {
		if err := x.EachRecorded(q.Dir, q.Tool, func(v index.Conv) bool {
			e, ok := resumable(v)
			recorded = ok && !e.Found
			return !recorded
		}); err != nil {
			return Plan{}, err
		}
	}
	return Plan{Entry: first, Fallback: first.Found, Recorded: recorded}, nil
}

// describe is one line naming an entry in a list of candidates.
func describe(e Entry) string {
	if e.Found {
		return fmt.Sprintf("  %s %s %s (found)", e.Tool, e.ID, e.Cwd)
	}
	return fmt.Sprintf("  %s %s %s", e.Tool, e.ID, e.Cwd)
}

// Resumable is the precondition of running a plan, as an error: the
// conversation is in the store of the home the agent will really use now,
// which is this environment's, not the one a record names (a record is
// data; a planted one must not point --exec at a transcript of someone
// else's making). A resume of a missing conversation would kill the CLI at
// start.
//
// The conversation must be where the record's directory says it is, by the
// agent's own rules (Finder.Adoptable), not anywhere in the store: the CLI
// resumes it from that directory.
func (c *Catalog) Resumable(p Plan) error {
	e := p.Entry
	home := c.Home(p.Agent)
	if c.idx != nil && p.Agent.CanAdoptIndexed() {
		// The index's reading of files unchanged since it read them,
		// rather than the same reading again (a Gemini session is
		// replayed whole: 40 ms for 100 MB).
		if files, err := c.idx.ReadWhole(e.Tool, e.ID); err == nil && p.Agent.AdoptableIndexed(home, e.Cwd, e.ID, files) {
			return nil
		}
	}
	if err := p.Agent.Adoptable(home, e.Cwd, e.ID); err != nil {
		return notFound(fmt.Sprintf("run 'fleetcom forget %s' to drop the record", e.ID),
			"%s conversation %s is not in %s for %s (%v): nothing to resume", e.Tool, e.ID, home, e.Cwd, err)
	}
	return nil
}
