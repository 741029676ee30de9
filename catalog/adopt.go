package catalog

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/store"
)

// Conversations started outside the shims (before fleetcom was installed,
// from an IDE, with options the shim leaves opaque) are found in the agents'
// own stores; resuming one adopts it, writing a record with source
// "adopted" once the guards passed. A refused adoption writes nothing: an
// honest error beats a resume line that would open an empty conversation in
// place of the user's.

const listHint = "run 'fleetcom list' to see the conversations of this directory"

// Settle turns a plan's found conversation into a record: the record made
// meanwhile, or an adoption. A plan of a record is left as it is.
func (c *Catalog) Settle(p *Plan) error {
	if !p.Entry.Found {
		return nil
	}
	e := p.Entry
	if r, ok, err := c.st.Get(e.Tool, e.ID); err == nil && ok {
		p.Entry = Entry{Record: r}
		return nil
	}
	r, err := c.adopt(p.Agent, e)
	var refused *Error
	switch {
	case errors.As(err, &refused):
		return err
	case err != nil:
		// Every guard passed, but the store cannot hold it: a directory
		// whose name is not UTF-8, a full or read-only disk, a lock a
		// stuck process holds. The conversation is there, and this is
		// when the user needs its line: it is resumed without a record,
		// and the caller warns.
		p.Unrecorded = err
		return nil
	}
	// Asked for by name: no longer forgotten, if it was.
	c.st.Remember(e.Tool, e.ID)
	p.Entry = Entry{Record: r}
	return nil
}

// adopt checks that a found conversation may be resumed from its directory
// and records it. Nothing is written unless every guard passed. A guard's
// refusal is an *Error; any other error is the store's, failing to write.
func (c *Catalog) adopt(a harness.Agent, e Entry) (store.Record, error) {
	if err := a.ValidateID(e.ID); err != nil {
		return store.Record{}, invalid("%v", err)
	}
	refused := func(hint, format string, args ...any) error {
		return notFound(hint, "cannot adopt %s conversation %s: %s", e.Tool, e.ID, fmt.Sprintf(format, args...))
	}
	if err := a.Adoptable(e.Home, e.Cwd, e.ID); err != nil {
		return store.Record{}, refused(listHint, "%v", err)
	}
	if fi, err := os.Stat(e.Cwd); err != nil || !fi.IsDir() {
		return store.Record{}, refused(listHint, "its directory %s no longer exists", e.Cwd)
	}
	var files []string
	if m, ok := a.Behaviour.(harness.Mover); ok {
		if cr, err := m.Carry(e.Home, e.Cwd, e.Cwd, e.ID); err == nil {
			for _, p := range cr.Parts {
				files = append(files, p.From)
			}
		}
	}
	if held, _ := holders(a, e.Home, e.ID, e.Cwd, files); len(held) > 0 {
		return store.Record{}, refused(fmt.Sprintf("quit it (process %d), then run 'fleetcom resume %s'", held[0].PID, e.ID),
			"it is open in %s; leave it there first", held[0])
	}
	// Its last activity is its last message, not its file's time: a copy
	// or a restore makes an old conversation's file new.
	ended := e.Updated
	rec := store.Record{Tool: e.Tool, ID: e.ID, Cwd: e.Cwd, Program: e.Tool, Source: "adopted",
		Started: e.Started, Resumable: true, Home: e.Home, Title: e.Title}
	if at := harness.LastActive(a, e.Home, e.Cwd, e.ID); !at.IsZero() {
		ended = at
		rec.Active = &at
	}
	rec.Ended = &ended
	return c.st.Put(rec)
}

// alive reports a running process, ours or another user's.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// lookupAnywhere finds a full ID in the agents' stores, whatever directory
// it belongs to. Under a tool filter, a refusal from that agent's store (a
// transcript without a message, a subagent's thread) is the answer; finds in
// other agents' stores are returned so the caller can name them.
func (c *Catalog) lookupAnywhere(tool, id string) ([]harness.Found, error) {
	var found []harness.Found
	var refusal error
	for _, a := range agents.All() {
		if !a.ID.Valid(id) {
			continue
		}
		f, err := a.Lookup(c.Home(a), id)
		switch {
		case err == nil:
			found = append(found, f)
		case !errors.Is(err, harness.ErrNoConversation) && (tool == "" || tool == a.Name) && refusal == nil:
			refusal = notFound(listHint, "cannot adopt %s conversation %s: %v", a.Name, id, err)
		}
	}
	if len(found) == 0 {
		return nil, refusal
	}
	return found, nil
}

// openForever is how long a record can stay open before prune takes it
// for the record of a run whose shim was killed, where the caller cannot
// tell a run going on from one that is over.
const openForever = 24 * time.Hour

// Gone returns the records that hold nothing to resume, for prune: their
// conversation is not in its agent's store, and their run is over. An
// open record is a run going on unless running says it is not (its shim
// was killed, or the machine went down, before the conversation reached
// the agent's store); running is nil where that cannot be told, and then
// an open record counts as over once openForever has passed.
func (c *Catalog) Gone(running func(tool, id string) bool) ([]store.Record, error) {
	recs, err := c.st.All()
	if err != nil {
		return nil, err
	}
	var out []store.Record
	for _, r := range recs {
		e := c.Refresh(r)
		if e.Resumable {
			continue
		}
		over := !e.Open()
		switch {
		case over:
		case running != nil:
			over = !running(r.Tool, r.ID)
		default:
			over = time.Since(e.Updated) > openForever
		}
		if over {
			out = append(out, r)
		}
	}
	return out, nil
}
