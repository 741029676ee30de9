package harness

import "time"

// The index (package index) keeps every conversation of every agent, with
// its text, and reads each agent's store incrementally: a file only from
// where it stopped last time, a database only from the last change it saw.
// An agent whose store the index can read implements Indexer (a store of
// files) or DBIndexer (a database); what both give back is a Delta.

// Tree is a folder hierarchy under an agent's home that holds its
// conversation files.
type Tree struct {
	// Root is the tree's top folder.
	Root string
	// Levels are filepath.Match patterns, one per level below Root: the
	// folders to go down through, then the files; a level may hold
	// several patterns joined by "|" ("chat.jsonl|summary.json"). A name
	// that does not match is not looked at.
	Levels []string
	// Owns says that each file of the tree is (part of) one conversation,
	// which is gone from the agent's store when no file owns it any more.
	// A tree that does not own adds to conversations that files of other
	// trees own (a name file, a summary).
	Owns bool
}

// Cursor is where a read of a file stopped: the reader goes on from Offset
// with the State it left (its own bytes, opaque to the index, at most
// MaxState). A zero Cursor reads the file from its start.
type Cursor struct {
	Offset int64
	State  []byte
}

// MaxState is the most a reader may keep in a Cursor's State.
const MaxState = 4096

// Limits bound what a read hands the index.
type Limits struct {
	// Text says whether to return the conversation's text at all.
	Text bool
	// Message is the most bytes of one message's text to return; the rest
	// of a longer one is left out.
	Message int
	// Line is the longest record (line) a reader decodes; a longer one is
	// skipped, at the cost of reading past it.
	Line int
}

// Learned is what one read learned of one conversation. Every field is
// what the read added: the index merges it into what it knew.
type Learned struct {
	// ID passed the agent's grammar.
	ID string
	// Cwd is the directory the conversation belongs to, as the agent
	// recorded it; "" when this read did not say.
	Cwd string
	// Title is what the conversation is called: the first prompt the user
	// typed (cleaned, one line), set once by the read that finds it; or,
	// with Retitle, the agent's own title, which replaces an earlier one
	// (an agent that titles its conversations and revises the title).
	Title   string
	Retitle bool
	// Summary is the agent's own title for the conversation; it replaces an
	// earlier one.
	Summary string
	// Name is the name the user gave the conversation, when Named (an
	// empty Name with Named clears it).
	Name  string
	Named bool
	// Started is when the conversation began, Active when its newest
	// message was written; zero when this read did not say.
	Started, Active time.Time
	// Turns are the prompts the user typed, Messages every prompt and reply
	// this read found.
	Turns, Messages int
	// Side marks a thread the agent started for itself (a sub-agent's, a
	// title generator's): never offered to a user.
	Side bool
	// Texts are the prompts and replies this read found, in order, each cut
	// to Limits.Message.
	Texts []string
	// Gone says that the store deleted the conversation.
	Gone bool
}

// Delta is what one read learned, conversation by conversation.
type Delta []Learned

// Indexer is implemented by agents whose conversations are files.
type Indexer interface {
	// Trees are the hierarchies of home that hold conversation files.
	Trees(home string) []Tree
	// Near are the folders that hold cwd's conversations, which the index
	// looks at whenever a command asks about cwd.
	Near(home, cwd string) []string
	// Read reads the file at path on from c: every whole record written
	// since, and returns what it learned and where it stopped (never past
	// the last whole record). A read is bounded: it never blocks on a
	// file, and a record longer than l.Line costs only the reading.
	Read(path string, c Cursor, l Limits) (Delta, Cursor, error)
}

// Querier runs a read-only query on a database and hands each row to
// scan, as the column values in order (nil, int64, float64, string or
// []byte).
type Querier interface {
	Query(query string, args []any, scan func(row []any) error) error
}

// DBIndexer is implemented by agents that keep their conversations in a
// database.
type DBIndexer interface {
	// Database is the database file of home; "" for none.
	Database(home string) string
	// ReadDB reads what changed in the database after mark (a value the
	// agent gave back before; 0 for everything), handing each conversation
	// to emit as soon as it is read, and returns the new mark. An error
	// from emit ends the read, and ReadDB returns it.
	ReadDB(q Querier, mark int64, l Limits, emit func(Learned) error) (int64, error)
	// ListDB returns the IDs of every conversation in the database, for
	// the index to forget the ones that were deleted.
	ListDB(q Querier) ([]string, error)
}
