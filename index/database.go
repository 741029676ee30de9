package index

import (
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/harness"
)

// database reads what changed in one agent's database since the index
// last looked, only when its files changed; then, in a sweep or at the
// first look, the list of its conversations too, to forget the deleted
// ones.
func (w *walk) database(a harness.Agent, dx harness.DBIndexer, home string) error {
	path := dx.Database(home)
	if path == "" {
		return nil
	}
	sig := signature(path)
	var known string
	var mark int64
	found, err := w.x.db.one(`SELECT sig, mark FROM db WHERE path = ?`, []any{path}, func(s *sqlite3.Stmt) {
		known, mark = s.ColumnText(0), s.ColumnInt64(1)
	})
	if err != nil {
		return err
	}
	if sig == "" {
		if found {
			return w.x.db.tx(func() error { return w.x.forgetDatabase(a.Name, home, path) })
		}
		return nil
	}
	// Unchanged files hold the same rows: a sweep has nothing to learn
	// there either (a deletion changes them too).
	if found && sig == known {
		return nil
	}
	w.writing()
	q, err := openAgentDB(path)
	if err != nil {
		return err
	}
	defer q.db.close()
	// The agent's reader runs beside the writer, handing over each
	// conversation as it reads it: a database of thousands of sessions is
	// read and written at once, never held whole. It all lands in one
	// transaction, with the new mark: a refresh that fails or is killed
	// leaves the last complete state. The list of every conversation, for
	// forgetting the deleted ones, is taken after the read, so that none
	// the read saw is missing from it.
	learned := make(chan harness.Learned, 64)
	stop := make(chan struct{})
	var next int64
	var ids []string
	var readErr error
	go func() {
		defer close(learned)
		next, readErr = dx.ReadDB(q, mark, w.x.limits(), func(l harness.Learned) error {
			select {
			case learned <- l:
				return nil
			case <-stop:
				return errStop
			}
		})
		if readErr == nil && (w.full || !found) {
			ids, readErr = dx.ListDB(q)
		}
	}()
	// A first read of a large database takes a while: it is reported
	// after the files, conversation by conversation, and now and then
	// while the agent's reader looks before it hands any over.
	w.pr.Database, w.pr.Convs, w.pr.Swept = a.Name, 0, w.full
	w.report()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	err = w.x.db.tx(func() error {
	read:
		for {
			select {
			case <-tick.C:
				w.report()
			case l, ok := <-learned:
				if !ok {
					break read
				}
				if _, err := w.x.learn(a, home, l, true, false); err != nil {
					return err
				}
				w.pr.Convs++
				w.report()
			}
		}
		// The reader has ended (it closed learned): next, ids and readErr
		// are set.
		if readErr != nil {
			return readErr
		}
		if ids != nil {
			if err := w.x.keepOnly(a.Name, home, ids); err != nil {
				return err
			}
		}
		return w.x.db.exec(`INSERT INTO db(path, tool, home, sig, mark) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT(path) DO UPDATE SET sig = excluded.sig, mark = excluded.mark`, path, a.Name, home, sig, next)
	})
	// Wait for the reader, which uses q, before q is closed.
	close(stop)
	for range learned {
	}
	return err
}

// keepOnly forgets the stored conversations of a database that its list
// no longer holds.
func (x *Index) keepOnly(tool, home string, ids []string) error {
	keep := make(map[string]bool, len(ids))
	for _, id := range ids {
		keep[id] = true
	}
	var gone []int64
	if err := x.db.query(`SELECT rowid, id FROM conv WHERE tool = ? AND home = ? AND stored`, []any{tool, home}, func(s *sqlite3.Stmt) error {
		if !keep[s.ColumnText(1)] {
			gone = append(gone, s.ColumnInt64(0))
		}
		return nil
	}); err != nil {
		return err
	}
	for _, rowid := range gone {
		if err := x.unstore(rowid); err != nil {
			return err
		}
	}
	return nil
}

// forgetDatabase forgets a database that is gone, with its conversations.
func (x *Index) forgetDatabase(tool, home, path string) error {
	if err := x.keepOnly(tool, home, nil); err != nil {
		return err
	}
	return x.db.exec(`DELETE FROM db WHERE path = ?`, path)
}

// signature names the state of a database's files: its size and time and
// those of its write-ahead log. "" when it is not there.
func signature(path string) string {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	sig := fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
	if wal, err := os.Stat(path + "-wal"); err == nil {
		sig += fmt.Sprintf(":%d:%d", wal.Size(), wal.ModTime().UnixNano())
	}
	return sig
}

// agentDB is an agent's database, open read-only for its DBIndexer.
type agentDB struct{ db *conn }

// openAgentDB opens an agent's database read-only. A lock the agent holds
// is waited for briefly: the index must not hold the agent up, nor wait
// long for it.
func openAgentDB(path string) (*agentDB, error) {
	// Without a write-ahead log the agent is not writing: opened
	// immutable, SQLite leaves no file of its own beside the database
	// (read-only, it would still make a log and its index there).
	query := "mode=ro"
	if _, err := os.Lstat(path + "-wal"); err != nil {
		query += "&immutable=1"
	}
	u := url.URL{Scheme: "file", Path: path, RawQuery: query}
	c, err := openConn(u.String(), sqlite3.OPEN_READONLY|sqlite3.OPEN_URI)
	if err != nil {
		return nil, err
	}
	if err := c.c.BusyTimeout(250 * time.Millisecond); err != nil {
		c.close()
		return nil, err
	}
	return &agentDB{c}, nil
}

// OpenAgentDB opens an agent's database read-only, as harness.OpenDB asks.
func OpenAgentDB(path string) (harness.Querier, func(), error) {
	d, err := openAgentDB(path)
	if err != nil {
		return nil, nil, err
	}
	return d, func() { d.db.close() }, nil
}

// Query implements harness.Querier.
func (d *agentDB) Query(query string, args []any, scan func(row []any) error) error {
	var row []any
	return d.db.query(query, args, func(s *sqlite3.Stmt) error {
		row = rowValues(s, row)
		return scan(row)
	})
}
