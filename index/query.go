package index

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/store"
)

// Conv is one conversation as the index knows it: from its agent's store,
// from fleetcom's record of it, or both. What it says is a cache: every ID
// and directory is checked again by whoever builds a command line from it.
type Conv struct {
	Tool, ID string
	// Cwd is the physical directory the conversation belongs to: its
	// record's, else the one its agent recorded, resolved.
	Cwd string
	// StoreCwd is the directory as its agent recorded it.
	StoreCwd string
	// Home is the agent home its store is in.
	Home string
	// Title is its first prompt; Summary the agent's own title for it; Name
	// the name the user gave it.
	Title, Summary, Name string
	// Started and Active are when it began and when its newest message was
	// written, as its agent's store dates them.
	Started, Active time.Time
	// Turns are the prompts the user typed, Messages every prompt and
	// reply.
	Turns, Messages int
	// Side: a thread the agent started for itself. Stored: its agent's
	// store holds it now. Forgotten: the user forgot it.
	Side, Stored, Forgotten bool

	rec       string // the record as JSON, "" for none
	recActive time.Time
}

// Recorded reports that fleetcom has a record of the conversation.
func (c Conv) Recorded() bool { return c.rec != "" }

// Record is fleetcom's record of the conversation, as the index copied it
// at its last refresh.
func (c Conv) Record() (store.Record, bool) {
	if c.rec == "" {
		return store.Record{}, false
	}
	if r, ok := decodeRecord(c.rec); ok {
		return r, true
	}
	var r store.Record
	if json.Unmarshal([]byte(c.rec), &r) != nil {
		return store.Record{}, false
	}
	return r, true
}

// Activity is when the conversation was last active: its newest message
// when its agent's store dates it, else what its record says.
func (c Conv) Activity() time.Time {
	if c.Stored && !c.Active.IsZero() {
		return c.Active
	}
	return c.recActive
}

// convCols are the columns scanConv reads, in its order.
const convCols = `tool, id, cwd, scwd, home, title, summary, name, started, active, turns, msgs, side, stored, forgotten,
	coalesce(rec, ''), ractive`

// activity orders conversations newest first, as Activity dates them. The
// indexes conv_cwd_activity and conv_cwd_recorded hold a directory's
// conversations in this order, so that a walk of the newest (EachDir)
// reads only as far as it goes.
const activity = `(CASE WHEN stored AND active > 0 THEN active ELSE ractive END) DESC, (rec IS NULL), rended DESC, rupdated DESC, started DESC, id`

// newest is the first key of activity: when a conversation was last active.
const newest = `(CASE WHEN stored AND active > 0 THEN active ELSE ractive END)`

// rowStrings makes the strings of the columns that most rows of a query
// repeat (a directory's thousands of conversations name one cwd, store cwd
// and home, and a few tools): a value equal to the last row's is that
// row's string again, not a new copy. Scanning 10,000 rows of a directory
// then allocates their IDs and titles only.
type rowStrings struct{ last [4]string }

// text returns column col's text, sharing slot's last string when equal.
func (r *rowStrings) text(s *sqlite3.Stmt, col, slot int) string {
	b := s.ColumnRawText(col)
	if string(b) != r.last[slot] {
		r.last[slot] = string(b)
	}
	return r.last[slot]
}

// ms is a time from Unix milliseconds; zero for 0.
func ms(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}

// convs runs a query of conversations.
func (x *Index) convs(where string, args ...any) ([]Conv, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []Conv
	var rs rowStrings
	err := x.db.query(`SELECT `+convCols+` FROM conv `+where, args, func(s *sqlite3.Stmt) error {
		out = append(out, scanConvAt(s, 0, &rs))
		return nil
	})
	return out, err
}

// Dir returns the conversations of the physical directory dir (of one
// tool, unless tool is ""), newest first: forgotten, empty and side ones
// included, for the caller to decide.
func (x *Index) Dir(dir, tool string) ([]Conv, error) {
	if tool != "" {
		return x.convs(`WHERE cwd = ? AND tool = ? ORDER BY `+activity, dir, tool)
	}
	return x.convs(`WHERE cwd = ? ORDER BY `+activity, dir)
}

// EachDir calls fn with the conversations of the physical directory dir
// (of one tool, unless tool is ""), newest first, as Dir returns them,
// until fn returns false: a caller that wants the newest reads one row,
// not the directory's thousands.
func (x *Index) EachDir(dir, tool string, fn func(Conv) bool) error {
	if tool == "" {
		// Without a LIKE to test on each row.
		return x.each(`WHERE cwd = ? ORDER BY `+activity, fn, dir)
	}
	return x.each(`WHERE cwd = ? AND tool LIKE ? ORDER BY `+activity, fn, dir, tool)
}

// EachRecorded is EachDir over the conversations fleetcom has a record of.
func (x *Index) EachRecorded(dir, tool string, fn func(Conv) bool) error {
	return x.each(`WHERE cwd = ? AND rec IS NOT NULL AND tool LIKE ? ORDER BY `+activity, fn, dir, anyTool(tool))
}

// anyTool is a LIKE pattern for one tool, or any for "". Tool names are
// lowercase letters (harness/agents), which LIKE takes literally.
func anyTool(tool string) string {
	if tool == "" {
		return "%"
	}
	return tool
}

// each runs a query of conversations, one row at a time, until fn returns
// false.
func (x *Index) each(where string, fn func(Conv) bool, args ...any) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	var rs rowStrings
	err := x.db.query(`SELECT `+convCols+` FROM conv `+where, args, func(s *sqlite3.Stmt) error {
		if !fn(scanConvAt(s, 0, &rs)) {
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	return err
}

// All returns every conversation of every directory, newest first.
func (x *Index) All(tool string) ([]Conv, error) {
	if tool != "" {
		return x.convs(`WHERE tool = ? ORDER BY `+activity, tool)
	}
	return x.convs(`ORDER BY ` + activity)
}

// EachAll calls fn with every conversation of every directory, newest
// first, as All returns them, until fn returns false.
func (x *Index) EachAll(fn func(Conv) bool) error {
	return x.each(`ORDER BY `+activity, fn)
}

// Prefix returns the conversations whose ID begins with prefix, newest
// first.
func (x *Index) Prefix(prefix string) ([]Conv, error) {
	if prefix == "" {
		return nil, nil
	}
	return x.convs(`WHERE id >= ? AND id < ? ORDER BY `+activity, prefix, prefix+"\U0010FFFF")
}

// Get returns one conversation.
func (x *Index) Get(tool, id string) (Conv, bool, error) {
	list, err := x.convs(`WHERE tool = ? AND id = ?`, tool, id)
	if err != nil || len(list) == 0 {
		return Conv{}, false, err
	}
	return list[0], true, nil
}

// Named returns the conversations named name: exactly, else ignoring case.
func (x *Index) Named(name string) ([]Conv, error) {
	if name == "" {
		return nil, nil
	}
	list, err := x.convs(`WHERE name <> '' AND name = ? COLLATE NOCASE ORDER BY `+activity, name)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 && !ascii(name) {
		// SQLite folds ASCII only.
		all, err := x.convs(`WHERE name <> '' ORDER BY ` + activity)
		if err != nil {
			return nil, err
		}
		for _, c := range all {
			if strings.EqualFold(c.Name, name) {
				list = append(list, c)
			}
		}
	}
	var exact []Conv
	for _, c := range list {
		if c.Name == name {
			exact = append(exact, c)
		}
	}
	if len(exact) > 0 {
		return exact, nil
	}
	return list, nil
}

// ascii reports a string of ASCII only.
func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// RecordDirs returns the directories fleetcom's records belong to, each
// once, the one of the newest recorded conversation first. Each directory
// is a seek in conv_cwd_recorded from the one before, and its newest
// conversation the first entry there: a GROUP BY would read every record,
// at every command run in a directory that has none.
func (x *Index) RecordDirs() ([]string, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []string
	err := x.db.query(`WITH RECURSIVE d(cwd) AS (
			SELECT min(cwd) FROM conv WHERE rec IS NOT NULL
			UNION ALL
			SELECT (SELECT min(cwd) FROM conv WHERE rec IS NOT NULL AND cwd > d.cwd) FROM d WHERE d.cwd IS NOT NULL)
		SELECT cwd FROM d WHERE cwd IS NOT NULL
		ORDER BY (SELECT `+newest+` FROM conv WHERE conv.cwd = d.cwd AND rec IS NOT NULL ORDER BY `+activity+` LIMIT 1) DESC, cwd`, nil, func(s *sqlite3.Stmt) error {
		out = append(out, s.ColumnText(0))
		return nil
	})
	return out, err
}

// ReadWhole returns the files of conversation (tool, id) that the index
// read to their end and that are, by their size, mtime and inode, unchanged
// since: what its reader made of them, in each one's cursor, is what a
// reading of the whole file from its start makes of it now. An agent's look
// at the conversation may take it from there (harness.IndexAdopter) rather
// than read megabytes again.
func (x *Index) ReadWhole(tool, id string) ([]harness.IndexedFile, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []harness.IndexedFile
	err := x.db.query(`SELECT path, ino, size, mtime, off, state FROM source
		WHERE conv = (SELECT rowid FROM conv WHERE tool = ? AND id = ?) AND off = size`, []any{tool, id}, func(s *sqlite3.Stmt) error {
		path, ino, size, mtime := s.ColumnRawText(0), s.ColumnInt64(1), s.ColumnInt64(2), s.ColumnInt64(3)
		if !(folder{fd: -1}).same(path, size, mtime, ino) {
			return nil
		}
		out = append(out, harness.IndexedFile{Path: string(path), Size: size,
			Cursor: harness.Cursor{Offset: s.ColumnInt64(4), State: s.ColumnBlob(5, nil)}})
		return nil
	})
	return out, err
}
