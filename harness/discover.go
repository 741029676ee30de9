package harness

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// Discovery finds conversations in a tool's own store that fleetcom has no
// record of: started before fleetcom was installed, from an IDE, or with
// options that left the shim out. Everything it returns passed its agent's ID grammar and
// has its conversation on disk; what is not a session (history files,
// indexes, names that are not IDs, a first line still being written) is never
// a candidate.

// Found is one conversation found in a tool's store.
type Found struct {
	Tool     string
	ID       string
	Cwd      string    // the directory the conversation belongs to, as its tool recorded it
	Home     string    // the tool home it was found in
	Title    string    // from its first user prompt; "" when there is none yet
	Started  time.Time // when it began, when the store says; else zero
	Modified time.Time // last modification of its files
}

// Finder discovers and looks up conversations in one tool's store. It is
// optional: an agent without one is never found, looked up or adopted.
type Finder interface {
	// Discover lists the conversations of the physical directory cwd, newest
	// first by last modification. index is a directory the finder may keep a
	// cache in ("" for none); a cache that cannot be used costs speed, never
	// results, and is reported in the error next to complete results.
	Discover(home, cwd, index string) ([]Found, error)
	// Lookup finds conversation id wherever it is in the store and returns it
	// with its own directory. The error wraps ErrNoConversation,
	// ErrEmptyConversation, ErrElsewhere or ErrNotUsers.
	Lookup(home, id string) (Found, error)
	// Adoptable is the precondition of adopting id for the physical directory
	// dir: the conversation is on disk, holds at least one message where the
	// tool keeps them, and belongs to dir. Same errors as Lookup.
	Adoptable(home, dir, id string) error
}

// Reasons a conversation cannot be adopted.
var (
	// ErrNoConversation: the store holds nothing for the ID.
	ErrNoConversation = errors.New("no conversation on disk")
	// ErrEmptyConversation: the store holds the ID but not a single message,
	// as when the CLI was quit before the first prompt.
	ErrEmptyConversation = errors.New("no message in the conversation")
	// ErrElsewhere: the conversation belongs to another directory than the
	// one asked for, or its files disagree about which one.
	ErrElsewhere = errors.New("conversation of another directory")
	// ErrNotUsers: a thread an agent started for itself, not one a user
	// would resume.
	ErrNotUsers = errors.New("not a user's conversation")
)

// refusal is a reason a conversation cannot be adopted: its text is the
// detail, and errors.Is matches its kind.
type refusal struct {
	kind error
	msg  string
}

func (r *refusal) Error() string        { return r.msg }
func (r *refusal) Is(target error) bool { return target == r.kind }

// Refuse returns a reason a conversation cannot be adopted: kind (one of
// the Err values above) for errors.Is, the formatted text for people.
func Refuse(kind error, format string, args ...any) error {
	return &refusal{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// SortNewest orders found conversations by last modification, newest
// first, then by ID so the order is total: the order Finder.Discover
// returns.
func SortNewest(list []Found) {
	slices.SortFunc(list, func(a, b Found) int {
		if c := b.Modified.Compare(a.Modified); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// ModTime is a path's modification time, zero when it cannot be read.
func ModTime(path string) time.Time {
	fi, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// NearLookup is a Finder whose Lookup searches the whole store for an ID,
// and which can look in a directory's own folders first.
type NearLookup interface {
	LookupIn(home, dir, id string) (Found, error)
}

// LookupIn is a's Lookup of id, in dir's own folders first when a can.
func LookupIn(a Agent, home, dir, id string) (Found, error) {
	if n, ok := a.Behaviour.(NearLookup); ok {
		return n.LookupIn(home, dir, id)
	}
	return a.Lookup(home, id)
}
