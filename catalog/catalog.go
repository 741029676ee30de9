package catalog

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/index"
	"github.com/fleetcom/fleetcom/store"
)

// Catalog reads one store and the agents' own stores of one environment,
// through the index of every conversation.
type Catalog struct {
	st      *store.Store
	getenv  func(string) string
	replay  bool
	idx     *index.Index
	hot     func() []index.Key
	prog    func(index.Progress)
	warn    func(string)
	fresh   map[string]bool // directories the index was refreshed for
	written bool            // the catalog wrote a record since its last refresh
}

// Config says how a catalog reads.
type Config struct {
	// Getenv resolves agent homes.
	Getenv func(string) string
	// Index is the index of every conversation (OpenIndex); nil: the
	// catalog builds one in memory on first use.
	Index *index.Index
	// Replay makes resume lines replay the launch options remembered with a
	// record.
	Replay bool
	// Hot names the conversations running now: a refresh reads their files
	// however long unwritten.
	Hot func() []index.Key
	// Progress hears how a refresh comes along (a first build is long).
	Progress func(index.Progress)
	// Warn reports what costs only speed or freshness.
	Warn func(string)
}

// New returns the catalog over st (nil: no records, only what the agents'
// stores hold).
func New(st *store.Store, cfg Config) *Catalog {
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	if cfg.Warn == nil {
		cfg.Warn = func(string) {}
	}
	return &Catalog{st: st, getenv: cfg.Getenv, replay: cfg.Replay, idx: cfg.Index, hot: cfg.Hot,
		prog: cfg.Progress, warn: cfg.Warn, fresh: map[string]bool{}}
}

// IndexConfig says how OpenIndex opens an index.
type IndexConfig struct {
	// Getenv resolves agent homes.
	Getenv func(string) string
	// Text indexes what was said, for search.
	Text bool
	// Warn reports what costs only speed or freshness.
	Warn func(string)
}

// OpenIndex opens the index kept in dir ("" for one in memory) of every
// agent's conversations in the environment cfg.Getenv gives, and of the
// records of st.
func OpenIndex(dir string, st *store.Store, cfg IndexConfig) (*index.Index, error) {
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	o := index.Options{
		Agents: agents.All(),
		Homes:  func(a harness.Agent) []string { return []string{a.Home(getenv)} },
		Text:   cfg.Text,
		Warn:   cfg.Warn,
	}
	if st != nil {
		o.Records = st
	}
	return index.Open(dir, o)
}

// Store is the session store the catalog reads and writes.
func (c *Catalog) Store() *store.Store { return c.st }

// Close closes the catalog's index.
func (c *Catalog) Close() {
	if c.idx != nil {
		c.idx.Close()
		c.idx = nil
	}
}

// Opened is the catalog's index when a read has opened and refreshed it,
// nil otherwise.
func (c *Catalog) Opened() *index.Index {
	if len(c.fresh) == 0 {
		return nil
	}
	return c.idx
}

// index is the index, brought up to date for dir ("" for none in
// particular) once per catalog, and again after the catalog wrote a
// record. A refresh that fails, or finds the index busy with another
// refresh for too long, costs freshness: what the index holds is read.
func (c *Catalog) index(dir string) (*index.Index, error) {
	if c.idx == nil {
		x, err := OpenIndex("", c.st, IndexConfig{Getenv: c.getenv, Text: true, Warn: c.warn})
		if err != nil {
			return nil, err
		}
		c.idx = x
	}
	if c.fresh[dir] && !c.written {
		return c.idx, nil
	}
	sc := index.Scope{Progress: c.prog}
	if dir != "" {
		sc.Dirs = []string{dir}
	}
	if c.hot != nil {
		sc.Hot = c.hot()
	}
	if _, err := c.idx.Refresh(sc); err != nil {
		c.warn("index: " + err.Error())
	}
	c.fresh[dir], c.written = true, false
	return c.idx, nil
}

// Index is the catalog's index, brought up to date for dir.
func (c *Catalog) Index(dir string) (*index.Index, error) { return c.index(dir) }

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
	if c.replay {
		opts = e.Options
	}
	return harness.ResumeLine(a, e.Program, e.ID, opts)
}

// Refresh holds a record to what the agent's store says now, as the index
// knows it: whether the conversation is there (it may have appeared since
// an open run was recorded, or been moved away since), its title when the
// record has none yet, and its name.
func (c *Catalog) Refresh(r store.Record) Entry {
	if x, err := c.index(r.Cwd); err == nil {
		if v, ok, err := x.Get(r.Tool, r.ID); err == nil && ok {
			return c.recorded(r, v)
		}
	}
	was := r.Resumable
	r.Resumable = false
	return Entry{Record: r, Gone: was}
}

// recorded is the entry of record r, with what the index says of its
// conversation v.
func (c *Catalog) recorded(r store.Record, v index.Conv) Entry {
	was := r.Resumable
	r.Resumable = resumable(v)
	if r.Resumable && !v.Active.IsZero() {
		at := v.Active.UTC()
		r.Active = &at
	}
	// The store's title is the newer word: an agent may title a
	// conversation after its run ended.
	if t := TitleOf(v); t != "" {
		r.Title = t
	}
	// Gone is a conversation its store no longer holds; one it holds with
	// no message (a run quit before its first prompt, which Codex still
	// keeps) is empty, never resumed and never the newest.
	e := Entry{Record: r, Gone: was && !v.Stored}
	if r.Resumable {
		e.Name = v.Name
	}
	return e
}

// resumable reports a conversation its agent's store holds, with at least
// one message.
func resumable(v index.Conv) bool { return v.Stored && v.Messages > 0 }

// TitleOf is what a conversation is called when it has no name: its first
// prompt (or the title its agent gives it), else its agent's summary.
func TitleOf(v index.Conv) string {
	if v.Title != "" {
		return v.Title
	}
	return v.Summary
}

// entry is the entry of a conversation of the index: its record's, or a
// found one's. ok is false for one that is neither recorded nor a
// conversation a user would resume (empty, an agent's own thread, or
// forgotten unless forgotten is true).
func (c *Catalog) entry(v index.Conv, forgotten bool) (Entry, bool) {
	if r, ok := v.Record(); ok {
		if !c.valid(r.Tool, r.ID) {
			return Entry{}, false
		}
		return c.recorded(r, v), true
	}
	if !resumable(v) || v.Side || v.Forgotten && !forgotten || !c.valid(v.Tool, v.ID) || !filepath.IsAbs(v.Cwd) {
		return Entry{}, false
	}
	started := v.Started
	if started.IsZero() {
		started = v.Active
	}
	r := store.Record{Tool: v.Tool, ID: v.ID, Cwd: v.Cwd, Program: v.Tool, Source: "fs",
		Started: started.UTC(), Resumable: true, Home: v.Home, Title: TitleOf(v), Updated: v.Active.UTC()}
	return Entry{Record: r, Found: true, Name: v.Name}, true
}

// Entry is the entry of a conversation the index returned (a search's
// hit): ok is false for one the catalog would not offer.
func (c *Catalog) Entry(v index.Conv) (Entry, bool) { return c.entry(v, false) }

// valid holds what the index says to the agent's ID grammar: the index is
// a cache, and its values reach command lines.
func (c *Catalog) valid(tool, id string) bool {
	a, ok := agents.Named(tool)
	return ok && a.ID.Valid(id)
}

// Listing says which conversations a listing holds.
type Listing int

const (
	// RecordsOnly lists the conversations that have a record.
	RecordsOnly Listing = iota
	// WithFound lists also those the agents' stores hold that no record
	// knows.
	WithFound
)

// entries turns the conversations of the index into entries, as which
// says.
func (c *Catalog) entries(list []index.Conv, which Listing) []Entry {
	out := make([]Entry, 0, len(list))
	for _, v := range list {
		if which != WithFound && !v.Recorded() {
			continue
		}
		if e, ok := c.entry(v, false); ok {
			out = append(out, e)
		}
	}
	return out
}

// All returns the conversations of every directory that which lists,
// newest first.
func (c *Catalog) All(which Listing) ([]Entry, error) {
	x, err := c.index("")
	if err != nil {
		return nil, err
	}
	list, err := x.All("")
	if err != nil {
		return nil, err
	}
	return c.entries(list, which), nil
}

// Dir returns the entries of the physical directory dir (of one tool when
// tool is set) that which lists, newest first.
func (c *Catalog) Dir(dir, tool string, which Listing) ([]Entry, []error) {
	x, err := c.index(dir)
	if err != nil {
		return nil, []error{err}
	}
	list, err := x.Dir(dir, tool)
	if err != nil {
		return nil, []error{err}
	}
	return c.entries(list, which), nil
}

// EachDir calls fn with the entries Dir returns, one at a time, newest
// first, until fn returns false: a caller that wants the newest few reads
// only those of a directory that holds thousands.
func (c *Catalog) EachDir(dir, tool string, which Listing, fn func(Entry) bool) error {
	x, err := c.index(dir)
	if err != nil {
		return err
	}
	return x.EachDir(dir, tool, c.each(which, fn))
}

// EachAll calls fn with the entries All returns, one at a time, newest
// first, until fn returns false: a listing of every directory is written
// as it is read, never held whole.
func (c *Catalog) EachAll(which Listing, fn func(Entry) bool) error {
	x, err := c.index("")
	if err != nil {
		return err
	}
	return x.EachAll(c.each(which, fn))
}

// each turns fn over entries into a function over the index's
// conversations, as which lists them.
func (c *Catalog) each(which Listing, fn func(Entry) bool) func(index.Conv) bool {
	return func(v index.Conv) bool {
		if which != WithFound && !v.Recorded() {
			return true
		}
		if e, ok := c.entry(v, false); ok {
			return fn(e)
		}
		return true
	}
}

// prefixed keeps the entries whose ID begins with ref.
func prefixed(entries []Entry, ref string) []Entry {
	return slices.DeleteFunc(entries, func(e Entry) bool { return !strings.HasPrefix(e.ID, ref) })
}
