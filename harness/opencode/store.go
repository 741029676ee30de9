package opencode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// opencode keeps every conversation in one SQLite database,
// <home>/opencode.db, in WAL mode (measured on 1.18.33: tables session {id,
// parent_id, directory, title, time_created, time_updated, time_archived,
// …}, message {id, session_id, time_created, data} and part {id,
// message_id, session_id, data}; data is JSON, a message's role in it, a
// text part's text). The fleetcom command reads it in process
// (harness.OpenDB, set by the program that links a driver); fleetcom-shim,
// which links none, reads it with the sqlite3 program, which it
// starts only at a run's end, never on the way to the child: a SQLite driver
// linked into the binary runs its initialisation on every shim start
// (measured, README "Dependencies"). sqlite3 opens the database read-only
// (-readonly), with no startup file of the user's (-init /dev/null) and a
// busy timeout of busyTimeout: in WAL mode a reader takes no lock that
// makes opencode wait, and what opencode is writing at that moment is not
// seen yet. No value from outside reaches the SQL but IDs that passed the
// grammar; directories are compared here, not in SQL.

// Bounds on one query: the time sqlite3 may take, SQLite's wait for a lock
// (it waits only while opencode recovers its WAL index), what is read of
// its output, and the wait for a grandchild that inherited the output
// pipe, once sqlite3 itself is gone.
const (
	queryTimeout = 5 * time.Second
	busyTimeout  = "200"
	maxOutput    = 64 << 20
	waitDelay    = 200 * time.Millisecond
)

// dbPath is the database in an opencode home (its data directory).
// OPENCODE_DB can move it; fleetcom does not follow that (doctor says so).
func dbPath(home string) string { return filepath.Join(home, "opencode.db") }

// errUnread is the store that could not be read: no sqlite3, or a
// database it could not query. It says nothing of any conversation.
var errUnread = errors.New("opencode's store could not be read")

// session is one row of the session table, with what its messages
// say.
type session struct {
	ID        string `json:"id"`
	Directory string `json:"directory"`
	Title     string `json:"title"`
	Parent    string `json:"parent"`
	Created   int64  `json:"created"`
	Archived  int64  `json:"archived"`
	Messages  int    `json:"messages"`
	First     int64  `json:"first"` // the first message's time, ms
	Last      int64  `json:"last"`  // the last message's time, ms
}

// conversation reports a session with a message: opencode writes none
// before the first prompt.
func (s session) conversation() bool { return s.Messages > 0 }

// of reports whether the session belongs to the physical directory cwd.
func (s session) of(cwd string) bool {
	return safe.SameDir(s.Directory, cwd)
}

// sessionCols name sessionsSQL's columns.
var sessionCols = []string{"id", "directory", "title", "parent", "created", "archived", "messages", "first", "last"}

// sessionsSQL lists every session with whether it has messages
// (EXISTS stops at the first: a count walks them all) and their times
// (message has an index on session_id, time_created).
const sessionsSQL = `SELECT s.id AS id, s.directory AS directory, s.title AS title,
 COALESCE(s.parent_id, '') AS parent, s.time_created AS created, COALESCE(s.time_archived, 0) AS archived,
 EXISTS (SELECT 1 FROM message m WHERE m.session_id = s.id) AS messages,
 COALESCE((SELECT MIN(m.time_created) FROM message m WHERE m.session_id = s.id), 0) AS first,
 COALESCE((SELECT MAX(m.time_created) FROM message m WHERE m.session_id = s.id), 0) AS last
 FROM session s`

// cache keeps the last listing of each database while its files are
// unchanged, and the sessions looked up one by one since: one run's end
// asks several questions of one conversation.
var cache struct {
	sync.Mutex
	db   string
	sig  string
	list []session
	all  bool // list is every session, not those looked up
}

// sessions lists the sessions of home's database. No database is
// no session; a database that cannot be read is errUnread.
func sessions(home string) ([]session, error) {
	db := dbPath(home)
	sig, ok := signature(db)
	if !ok {
		return nil, nil
	}
	cache.Lock()
	if cache.db == db && cache.sig == sig && cache.all {
		list := cache.list
		cache.Unlock()
		return list, nil
	}
	cache.Unlock()
	list, err := readSessions(db, sessionsSQL)
	if err != nil {
		return nil, err
	}
	cache.Lock()
	cache.db, cache.sig, cache.list, cache.all = db, sig, list, true
	cache.Unlock()
	return list, nil
}

// readSessions runs a query of sessionsSQL's columns, keeping the rows of
// a valid ID and a clean absolute directory.
func readSessions(db, sql string) ([]session, error) {
	out, err := query(db, sql, sessionCols...)
	if err != nil {
		return nil, err
	}
	var rows []session
	if len(bytes.TrimSpace(out)) > 0 && json.Unmarshal(out, &rows) != nil {
		return nil, fmt.Errorf("%w: sqlite3 printed something else than JSON rows", errUnread)
	}
	list := rows[:0]
	for _, r := range rows {
		if spec.ID.Valid(r.ID) && filepath.IsAbs(r.Directory) && filepath.Clean(r.Directory) == r.Directory {
			list = append(list, r)
		}
	}
	return list, nil
}

// session reads one session of home's database, by an ID that passed the
// grammar (it is quoted into the query): a listing of every session
// asks three questions of the messages of each, some 150 ms at 5,000
// sessions and 2,000,000 messages. ok is false when there is none.
func lookupSession(home, id string) (session, bool, error) {
	db := dbPath(home)
	sig, ok := signature(db)
	if !ok {
		return session{}, false, nil
	}
	cache.Lock()
	if cache.db == db && cache.sig == sig {
		for _, s := range cache.list {
			if s.ID == id {
				cache.Unlock()
				return s, true, nil
			}
		}
		if cache.all {
			cache.Unlock()
			return session{}, false, nil
		}
	}
	cache.Unlock()
	list, err := readSessions(db, sessionsSQL+" WHERE s.id = '"+id+"'")
	if err != nil || len(list) == 0 {
		return session{}, false, err
	}
	cache.Lock()
	if cache.db != db || cache.sig != sig {
		cache.db, cache.sig, cache.list, cache.all = db, sig, nil, false
	}
	if !cache.all {
		cache.list = append(cache.list, list[0])
	}
	cache.Unlock()
	return list[0], true, nil
}

// signature names the state of a database's files (the database
// and its write-ahead log); false when there is no database.
func signature(db string) (string, bool) {
	fi, err := os.Stat(db)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	sig := fmt.Sprintf("%d.%d", fi.Size(), fi.ModTime().UnixNano())
	if w, err := os.Stat(db + "-wal"); err == nil {
		sig += fmt.Sprintf("/%d.%d", w.Size(), w.ModTime().UnixNano())
	}
	return sig, true
}

// find returns session id of home's database; an error wrapping
// ErrNoConversation when the database has no such session.
func find(home, id string) (session, error) {
	if err := spec.ValidateID(id); err != nil {
		return session{}, harness.Refuse(harness.ErrNoConversation, "%v", err)
	}
	s, ok, err := lookupSession(home, id)
	if err != nil {
		return session{}, err
	}
	if ok {
		return s, nil
	}
	return session{}, harness.Refuse(harness.ErrNoConversation, "no opencode session %s in %s", id, dbPath(home))
}

// absent reports an answer of the store: the session is not there.
// Anything else is a store fleetcom could not read.
func absent(err error) bool { return errors.Is(err, harness.ErrNoConversation) }

// sqlitePath is the sqlite3 program fleetcom reads the store with: the
// first on PATH, looked up once. A variable, for a test to take it away.
var sqlitePath = findSQLite

// sqliteFound is what findSQLite found: zero until it first looks, so that
// nothing runs for it at start.
var sqliteFound struct {
	once sync.Once
	path string
	err  error
}

func findSQLite() (string, error) {
	sqliteFound.once.Do(func() { sqliteFound.path, sqliteFound.err = exec.LookPath("sqlite3") })
	return sqliteFound.path, sqliteFound.err
}

// query runs one query on the database db, read-only, and returns
// query runs one query on the database db, read-only, and returns what
// sqlite3 -json prints: JSON rows, or nothing for none. cols name the
// columns, for harness.OpenDB, which reads the database itself when the
// program set it; the sqlite3 program is the fallback.
func query(db, query string, cols ...string) ([]byte, error) {
	if harness.OpenDB != nil {
		return queryDB(db, query, cols)
	}
	bin, err := sqlitePath()
	if err != nil {
		return nil, fmt.Errorf("%w: fleetcom reads it with the sqlite3 program, which is not on PATH", errUnread)
	}
	ctx, cancel := context.WithTimeout(context.Background(), queryTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-readonly", "-batch", "-bail", "-init", os.DevNull,
		"-cmd", ".timeout "+busyTimeout, "-json", openArg(db), query)
	cmd.Stdin = nil
	cmd.WaitDelay = waitDelay
	out := harness.Capped{Limit: maxOutput, Full: cancel}
	stderr := harness.Capped{Limit: 4 << 10, Full: func() {}}
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil || len(out.Bytes()) >= maxOutput {
		msg := strings.TrimSpace(string(stderr.Bytes()))
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" && err != nil {
			msg = err.Error()
		}
		if msg == "" {
			msg = "its answer is too long"
		}
		return nil, fmt.Errorf("%w: sqlite3 on %s: %s", errUnread, db, harness.CleanTitle(msg))
	}
	return out.Bytes(), nil
}

// openArg is how sqlite3 is to open the database db. While opencode
// has it open, its write-ahead log (db-wal) holds what it wrote since the
// last checkpoint, and the database is opened read-only beside it, as
// one more reader. Without a log (opencode checkpointed it away at its
// last exit) a read-only connection would make one and its index (-shm),
// files fleetcom has no business leaving in opencode's folder: the
// database is then opened immutable, which reads the file alone and
// creates nothing. opencode writes to a new log first, and to the
// database itself only at a checkpoint, so a read that meets one is at
// worst a database sqlite3 cannot read, for that one read.
func openArg(db string) string {
	if _, err := os.Lstat(db + "-wal"); err == nil {
		return db
	}
	return "file:" + strings.TrimPrefix(fileURL(db), "file://") + "?immutable=1"
}

// messageText is one text of a session's messages, in their order.
type messageText struct {
	Role string
	Text string
}

// messagesSQL lists the text parts of one session's messages with
// the message they belong to, oldest first; %s is an ID that passed the
// grammar (no quote can be in it).
const messagesSQL = `SELECT m.data AS message, p.data AS part FROM message m JOIN part p ON p.message_id = m.id
 WHERE m.session_id = '%s' AND instr(p.data, '"type":"text"') > 0 ORDER BY m.time_created, m.id, p.id`

// texts reads what the user typed and opencode answered in session
// id: each text part of a user or assistant message that is neither
// synthetic nor ignored.
func texts(home, id string) ([]messageText, error) {
	if !spec.ID.Valid(id) {
		return nil, harness.Refuse(harness.ErrNoConversation, "not an opencode session id")
	}
	if _, ok := signature(dbPath(home)); !ok {
		return nil, nil
	}
	out, err := query(dbPath(home), fmt.Sprintf(messagesSQL, id), "message", "part")
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		return nil, err
	}
	var rows []struct {
		Message string `json:"message"`
		Part    string `json:"part"`
	}
	if json.Unmarshal(out, &rows) != nil {
		return nil, fmt.Errorf("%w: sqlite3 printed something else than JSON rows", errUnread)
	}
	var texts []messageText
	for _, r := range rows {
		var m struct {
			Role string `json:"role"`
		}
		var p struct {
			Type      string `json:"type"`
			Text      string `json:"text"`
			Synthetic bool   `json:"synthetic"`
			Ignored   bool   `json:"ignored"`
		}
		if json.Unmarshal([]byte(r.Message), &m) != nil || json.Unmarshal([]byte(r.Part), &p) != nil ||
			p.Type != "text" || p.Synthetic || p.Ignored || strings.TrimSpace(p.Text) == "" ||
			m.Role != "user" && m.Role != "assistant" {
			continue
		}
		texts = append(texts, messageText{Role: m.Role, Text: strings.TrimSpace(p.Text)})
	}
	return texts, nil
}
