package catalog

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/store"
)

// Catalog reads one store and the agents' own stores of one environment.
type Catalog struct {
	st      *store.Store
	getenv  func(string) string
	index   string // where discovery may keep its caches, a folder per agent ("" for none)
	options bool   // resume lines replay remembered launch options
}

// New returns the catalog over st (nil: no records, only what the agents'
// stores hold). getenv resolves agent homes; indexDir
// is where discovery may keep caches; options makes resume lines replay
// the launch options remembered with a record.
func New(st *store.Store, getenv func(string) string, indexDir string, options bool) *Catalog {
	return &Catalog{st: st, getenv: getenv, index: indexDir, options: options}
}

// Store is the session store the catalog reads and writes.
func (c *Catalog) Store() *store.Store { return c.st }

// Entry is one conversation as list, completion and resume see it: a
// record, or a conversation found in its agent's store (Found) presented
// with a record's fields. Resumable says what the agent's store holds now:
// a recorded conversation whose files were moved away or deleted is Gone.
type Entry struct {
	store.Record
	Found bool
	Gone  bool // recorded as resumable once, not in the agent's store now
	// Name is the name the user (or the agent) gave the conversation, as
	// the agent's store says now; "" for none.
	Name string
}

// Shown is what people see as an entry's title: its name when it has one.
func (e Entry) Shown() string {
	if e.Name != "" {
		return e.Name
	}
	return e.Title
}

// Open reports a run that has not finished (or whose shim was killed): its
// conversation may still appear.
func (e Entry) Open() bool { return e.Ended == nil && !e.Found }

// Kind says what went wrong, which is what decides the exit status.
type Kind int

const (
	// NotFound: nothing matches, or a precondition failed.
	NotFound Kind = iota + 1
	// Invalid: bad input, an ambiguous prefix, an ID asked of the wrong
	// agent.
	Invalid
)

// Error is a refusal, with the command that moves the user on.
type Error struct {
	Kind Kind
	Msg  string
	Next string
}

func (e *Error) Error() string { return e.Msg }

// Hint names the next command to run; "" for none.
func (e *Error) Hint() string { return e.Next }

func notFound(next, format string, args ...any) error {
	return &Error{Kind: NotFound, Msg: fmt.Sprintf(format, args...), Next: next}
}

func invalid(format string, args ...any) error {
	return &Error{Kind: Invalid, Msg: fmt.Sprintf(format, args...)}
}

// Home is an agent's home in the catalog's environment.
func (c *Catalog) Home(a harness.Agent) string { return a.Home(c.getenv) }

// Line is the canonical resume line of an entry: with its remembered
// options when the catalog replays them.
func (c *Catalog) Line(e Entry) (string, error) {
	a, ok := agents.Named(e.Tool)
	if !ok {
		return "", fmt.Errorf("unknown tool %q", e.Tool)
	}
	var opts []string
	if c.options {
		opts = e.Options
	}
	return harness.ResumeLine(a, e.Program, e.ID, opts)
}

// Refresh holds a record to what the agent's store says now: whether the
// conversation is there (it may have appeared since an open run was
// recorded, or been moved away since), and its title when the record has
// none yet.
func (c *Catalog) Refresh(r store.Record) Entry {
	a, ok := agents.Named(r.Tool)
	if !ok {
		return Entry{Record: r}
	}
	home := r.Home
	if home == "" {
		home = c.Home(a)
	}
	was := r.Resumable
	r.Resumable = a.Exists(home, r.Cwd, r.ID)
	if r.Resumable && r.Title == "" {
		r.Title = a.Title(home, r.Cwd, r.ID)
	}
	e := Entry{Record: r, Gone: was && !r.Resumable}
	if r.Resumable {
		e.Name = a.ConversationName(home, r.Cwd, r.ID)
	}
	return e
}

// All returns every directory's records, refreshed, newest first. It does
// not look for conversations no record knows: that would mean reading every
// agent's store in full.
func (c *Catalog) All() ([]Entry, error) {
	recs, err := c.st.All()
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(recs))
	for _, r := range recs {
		out = append(out, c.Refresh(r))
	}
	return out, nil
}

// Dir returns the entries of the physical directory dir (of one tool when
// tool is set): its records, refreshed, newest first, then with found the
// conversations found in the agents' stores that no record knows. Errors
// from discovery only ever cost speed and are returned beside the entries.
func (c *Catalog) Dir(dir, tool string, found bool) ([]Entry, []error) {
	var recs []store.Record
	if c.st != nil {
		var err error
		if recs, err = c.st.Dir(dir); err != nil {
			return nil, []error{err}
		}
	}
	var out []Entry
	for _, r := range recs {
		if tool == "" || r.Tool == tool {
			out = append(out, c.Refresh(r))
		}
	}
	if !found {
		return out, nil
	}
	list, errs := c.discover(dir, tool, c.skipped(recs))
	for _, f := range list {
		out = append(out, foundEntry(f))
	}
	return out, errs
}

// discover finds the conversations of the physical directory dir (of one
// tool when tool is set), newest first, leaving out the ones known already.
// The agents' stores are read at once.
func (c *Catalog) discover(dir, tool string, known map[string]bool) ([]harness.Found, []error) {
	var asked []harness.Agent
	for _, a := range agents.All() {
		if tool == "" || a.Name == tool {
			asked = append(asked, a)
		}
	}
	results := make([][]harness.Found, len(asked))
	errs := make([]error, len(asked))
	var wg sync.WaitGroup
	for i, a := range asked {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = a.Discover(c.Home(a), dir, c.indexOf(a))
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

// indexOf is the folder an agent's discovery may keep its cache in.
func (c *Catalog) indexOf(a harness.Agent) string {
	if c.index == "" {
		return ""
	}
	return filepath.Join(c.index, a.Name+"-index")
}

// key names a conversation across agents.
func key(tool, id string) string { return tool + "-" + id }

// skipped are the conversations discovery leaves out: those recorded
// already, and those the user forgot.
func (c *Catalog) skipped(recs []store.Record) map[string]bool {
	out := knownKeys(recs)
	if c.st != nil {
		for k := range c.st.Forgotten() {
			out[k] = true
		}
	}
	return out
}

// knownKeys indexes records by conversation.
func knownKeys(recs []store.Record) map[string]bool {
	out := make(map[string]bool, len(recs))
	for _, r := range recs {
		out[key(r.Tool, r.ID)] = true
	}
	return out
}

// foundEntry presents a found conversation with the fields of a record; it
// is not stored.
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

// prefixed keeps the entries whose ID begins with ref.
func prefixed(entries []Entry, ref string) []Entry {
	return slices.DeleteFunc(entries, func(e Entry) bool { return !strings.HasPrefix(e.ID, ref) })
}
