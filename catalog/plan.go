package catalog

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
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

// byReference finds the one conversation a reference names.
func (c *Catalog) byReference(q Query) (Plan, error) {
	recs, err := c.st.Find(q.Ref)
	if err != nil {
		return Plan{}, err
	}
	var all []Entry
	for _, r := range recs {
		all = append(all, c.Refresh(r))
	}
	found, _ := c.discover(q.Dir, "", c.skipped(recs))
	for _, f := range found {
		all = append(all, foundEntry(f))
	}
	all = prefixed(all, q.Ref)
	if len(all) == 0 && agents.ValidIDOfAny(q.Ref) {
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
	if agents.ValidIDOfAny(q.Ref) {
		return Plan{}, notFound(hint, "no recorded session matches %s, and no tool's store holds it", q.Ref)
	}
	return Plan{}, notFound(hint, "no recorded session matches %s, nor does any conversation found for %s", q.Ref, q.Dir)
}

// newest is the default: of the directory's resumable records and the
// conversations found there, the one whose last message is the latest, as
// its agent's store dates it. The store is read only for this decision: a
// record's conversation may have gone on outside fleetcom since it was
// written. Found conversations are looked at newest file first, and no
// further than a file older than the best last message so far (a file is
// written at least as late as its last message). A tie goes to a record,
// then to the order records keep (store.NewestFirst).
func (c *Catalog) newest(q Query) (Plan, error) {
	entries, _ := c.Dir(q.Dir, q.Tool, false)
	var best Entry
	var bestAt time.Time
	var recs []store.Record
	have := false
	for _, e := range entries {
		recs = append(recs, e.Record)
		if !e.Resumable {
			continue
		}
		at := c.lastActive(e)
		if !have || at.After(bestAt) {
			best, bestAt, have = e, at, true
		}
	}
	recorded := have
	found, _ := c.discover(q.Dir, q.Tool, c.skipped(recs))
	for _, f := range found {
		if have && f.Modified.Before(bestAt) {
			break
		}
		e := foundEntry(f)
		if at := c.lastActive(e); !have || at.After(bestAt) {
			best, bestAt, have = e, at, true
		}
	}
	if have {
		return Plan{Entry: best, Fallback: best.Found, Recorded: recorded}, nil
	}
	what := "session"
	if q.Tool != "" {
		what = q.Tool + " session"
	}
	return Plan{}, notFound(fmt.Sprintf("start one through the shim (for example '%s'), or run 'fleetcom list --all'", agents.Names()[0]),
		"no resumable %s recorded or found for %s", what, q.Dir)
}

// lastActive is when an entry's conversation last had a message, by its
// agent's store; what the entry says when the store cannot tell.
func (c *Catalog) lastActive(e Entry) time.Time {
	if a, ok := agents.Named(e.Tool); ok {
		if at := harness.LastActive(a, c.entryHome(a, e), e.Cwd, e.ID); !at.IsZero() {
			return at
		}
	}
	return e.Activity()
}

// describe is one line naming an entry in a list of candidates.
func describe(e Entry) string {
	if e.Found {
		return fmt.Sprintf("  %s %s %s (found)", e.Tool, e.ID, e.Cwd)
	}
	return fmt.Sprintf("  %s %s %s", e.Tool, e.ID, e.Cwd)
}

// Check is the precondition of running a plan: the conversation is in the
// store of the home the agent will really use now, which is this
// environment's, not the one a record names (a record is data; a planted one
// must not point --exec at a transcript of someone else's making). A resume
// of a missing conversation would kill the CLI at start.
//
// The conversation must be where the record's directory says it is, by the
// agent's own rules (Finder.Adoptable), not anywhere in the store: the CLI
// resumes it from that directory.
func (c *Catalog) Check(p Plan) error {
	e := p.Entry
	home := c.Home(p.Agent)
	if err := p.Agent.Adoptable(home, e.Cwd, e.ID); err != nil {
		return notFound(fmt.Sprintf("run 'fleetcom forget %s' to drop the record", e.ID),
			"%s conversation %s is not in %s for %s (%v): nothing to resume", e.Tool, e.ID, home, e.Cwd, err)
	}
	return nil
}
