package harness

import "time"

// The capabilities an agent may have beyond Behaviour. An agent implements
// those its CLI allows; callers reach them through the methods of Agent
// below, which answer "nothing" for an agent without the capability, or,
// where its absence changes what they do (Mover, Diagnoser), by a type
// assertion of their own.

// Capturer is implemented by agents with a capture channel: a capture file
// their instrumentation has the CLI write, or a Live file the CLI keeps.
type Capturer interface {
	// ParseCapture picks the conversation ID from what the run's capture
	// channel holds (its capture file's payloads, one per line in arrival
	// order, or the agent's Live file); "" when none qualifies.
	ParseCapture(data []byte, c Capture) string
}

// Correlator is implemented by agents whose store can tell which
// conversation a run created.
type Correlator interface {
	// Correlate finds the single conversation in the agent's store that a
	// run started at spawn in cwd created; "" unless exactly one matches.
	Correlate(home, cwd string, spawn time.Time) string
}

// Titler is implemented by agents whose store gives a conversation a title.
type Titler interface {
	// Title returns a short, printable title of conversation id; "" when
	// unknown.
	Title(home, cwd, id string) string
}

// Excerpter is implemented by agents whose store can be read for a preview.
type Excerpter interface {
	// Excerpt returns the first n and last m messages of conversation id.
	Excerpt(home, cwd, id string, n, m int) Excerpt
}

// Brancher is implemented by agents whose store records the git branch a
// conversation's directory had checked out.
type Brancher interface {
	// Branch returns the branch the store last recorded for conversation
	// id of cwd, as written there (evidence, not validated: safe.Branch
	// is the caller's); "" when none.
	Branch(home, cwd, id string) string
}

// Holder is implemented by agents that keep a record of which of their
// processes run which conversation.
type Holder interface {
	// Holders returns the process IDs that the tool's own bookkeeping names
	// as running conversation id; whether they are alive is the caller's
	// question.
	Holders(home, id string) []int
}

// DirHolder is implemented by agents whose processes cannot be seen
// holding a conversation: the CLI appends to its file and closes it, keeps
// no record of which process runs which conversation, and names the ID on
// its command line only when fleetcom pinned it (Gemini CLI). Any process
// of the agent's Programs running in the conversation's directory may hold
// it, and so may one out of sight (another machine, a container) when the
// conversation was written within Recent.
type DirHolder interface {
	HeldInDir() (programs []string, recent time.Duration)
}

// Follower is implemented by agents whose CLI changes conversation without
// telling fleetcom while it runs (Gemini CLI's /clear: no hook, no record
// of which process runs which session, and the exit hint comes only at the
// end). Followed is the conversation a run in cwd, started at spawn, that
// had cur open, went on with in the turn that began at turn: "" when it
// stayed with cur or the store cannot tell for sure.
type Follower interface {
	Followed(home, cwd, cur string, spawn, turn time.Time) string
}

// Warmer is implemented by agents whose look at a conversation reads its
// whole file however little changed (Gemini's replay, which keeps where it
// stopped for the process's next look). Warm reads it ahead, while a run
// of the CLI resumes the conversation, so that the look at the run's end
// reads only what the run added.
type Warmer interface {
	Warm(home, cwd, id string)
}

// IndexAdopter is implemented by agents whose Adoptable reads the
// conversation's files from their start with the agent's own index reader
// (Indexer.Read): the index's reading of a file it read to its end, and
// that is unchanged since, is what that look would make of it again.
// AdoptableIndexed reports that such files (ReadWhole's) show conversation
// id adoptable in dir exactly as Adoptable would; false when they do not
// settle it, and the caller then asks Adoptable.
type IndexAdopter interface {
	AdoptableIndexed(home, dir, id string, files []IndexedFile) bool
}

// IndexedFile is a file of a conversation as the index last read it: its
// size then, and the reader's cursor after it.
type IndexedFile struct {
	Path   string
	Size   int64
	Cursor Cursor
}

// ParseCapture is the agent's Capturer, or "".
func (a Agent) ParseCapture(data []byte, c Capture) string {
	if x, ok := a.Behaviour.(Capturer); ok {
		return x.ParseCapture(data, c)
	}
	return ""
}

// Correlate is the agent's Correlator, or "".
func (a Agent) Correlate(home, cwd string, spawn time.Time) string {
	if x, ok := a.Behaviour.(Correlator); ok {
		return x.Correlate(home, cwd, spawn)
	}
	return ""
}

// Title is the agent's Titler, or "".
func (a Agent) Title(home, cwd, id string) string {
	if x, ok := a.Behaviour.(Titler); ok {
		return x.Title(home, cwd, id)
	}
	return ""
}

// Excerpt is the agent's Excerpter, or an empty excerpt.
func (a Agent) Excerpt(home, cwd, id string, n, m int) Excerpt {
	if x, ok := a.Behaviour.(Excerpter); ok {
		return x.Excerpt(home, cwd, id, n, m)
	}
	return Excerpt{}
}

// Branch is the agent's Brancher, or "".
func (a Agent) Branch(home, cwd, id string) string {
	if x, ok := a.Behaviour.(Brancher); ok {
		return x.Branch(home, cwd, id)
	}
	return ""
}

// Holders is the agent's Holder, or none.
func (a Agent) Holders(home, id string) []int {
	if x, ok := a.Behaviour.(Holder); ok {
		return x.Holders(home, id)
	}
	return nil
}

// Discover is the agent's Finder, or nothing found.
func (a Agent) Discover(home, cwd, index string) ([]Found, error) {
	if x, ok := a.Behaviour.(Finder); ok {
		return x.Discover(home, cwd, index)
	}
	return nil, nil
}

// Lookup is the agent's Finder; without one, no conversation is there.
func (a Agent) Lookup(home, id string) (Found, error) {
	if x, ok := a.Behaviour.(Finder); ok {
		return x.Lookup(home, id)
	}
	return Found{}, Refuse(ErrNoConversation, "fleetcom cannot look %s conversations up in its store", a.Name)
}

// Adoptable is the agent's Finder; without one, nothing can be adopted.
func (a Agent) Adoptable(home, dir, id string) error {
	if x, ok := a.Behaviour.(Finder); ok {
		return x.Adoptable(home, dir, id)
	}
	return Refuse(ErrNoConversation, "fleetcom cannot look %s conversations up in its store", a.Name)
}

// CanAdoptIndexed reports an agent with an IndexAdopter.
func (a Agent) CanAdoptIndexed() bool {
	_, ok := a.Behaviour.(IndexAdopter)
	return ok
}

// AdoptableIndexed is the agent's IndexAdopter, or false.
func (a Agent) AdoptableIndexed(home, dir, id string, files []IndexedFile) bool {
	if x, ok := a.Behaviour.(IndexAdopter); ok {
		return x.AdoptableIndexed(home, dir, id, files)
	}
	return false
}

// Warm is the agent's Warmer, or nothing.
func (a Agent) Warm(home, cwd, id string) {
	if x, ok := a.Behaviour.(Warmer); ok {
		x.Warm(home, cwd, id)
	}
}
