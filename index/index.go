package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/store"
)

// File is the database's name in the index directory.
const File = "index.db"

// lockFile is taken by whoever refreshes the index: one writer at a time.
const lockFile = "refresh.lock"

// Records is fleetcom's session store as the index reads it.
type Records interface {
	// Changed returns the conversations whose records changed after mark,
	// as tool-id keys,
	// (a value Changed returned before; "" for none yet) and the mark to
	// give next time. all says that the changes since mark are not known:
	// the index reads every record again.
	Changed(mark string) (keys []string, next string, all bool, err error)
	// Get reads one record.
	Get(tool, id string) (store.Record, bool, error)
	// All reads every record.
	All() ([]store.Record, error)
	// Forgotten names the conversations the user forgot, as tool-id keys.
	Forgotten() map[string]bool
}

// Options say what an index covers and how it behaves.
type Options struct {
	// Agents are the agents whose stores are read.
	Agents []harness.Agent
	// Homes are the homes of an agent whose stores are read: the one the
	// environment gives, and any other a record names.
	Homes func(a harness.Agent) []string
	// Records is fleetcom's session store; nil for none.
	Records Records
	// Text says whether the conversations' text is indexed ([index] text).
	Text bool
	// Now is the clock; nil for time.Now.
	Now func() time.Time
	// Warn reports a problem that costs nothing but speed or freshness.
	Warn func(msg string)
	// LockWait is how long a refresh waits for another one to finish
	// before it reads what is there.
	LockWait time.Duration
}

// Index is the index of every conversation, open for reading and
// refreshing.
type Index struct {
	dir  string // "" for an index in memory
	o    Options
	db   *conn
	mu   sync.Mutex
	warn sync.Once
	phys map[string]string // physical directories resolved so far
}

// ErrNotPrivate is returned by Open for an index directory that others can
// write to or that is not this user's.
var ErrNotPrivate = errors.New("index directory is not private")

// Open opens the index in dir, creating it (mode 0700, files 0600) when
// missing. An index of another version, or one SQLite finds damaged, is
// rebuilt from nothing with one warning: it is a cache. dir "" opens an
// index in memory, built from nothing at its first refresh.
func Open(dir string, o Options) (*Index, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	if o.LockWait == 0 {
		o.LockWait = 5 * time.Second
	}
	if o.Homes == nil {
		o.Homes = func(harness.Agent) []string { return nil }
	}
	x := &Index{dir: dir, o: o}
	if dir == "" {
		db, err := openConn(":memory:", sqlite3.OPEN_READWRITE|sqlite3.OPEN_CREATE|sqlite3.OPEN_MEMORY)
		if err != nil {
			return nil, err
		}
		x.db = db
		if err := x.create(); err != nil {
			db.close()
			return nil, err
		}
		return x, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	if err := safe.Private(dir); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotPrivate, err)
	}
	db, err := x.open()
	if err != nil {
		return nil, err
	}
	x.db = db
	return x, nil
}

// path is the database file.
func (x *Index) path() string { return filepath.Join(x.dir, File) }

// open opens the database file, rebuilding it when it is of another
// version or damaged.
func (x *Index) open() (*conn, error) {
	db, why, err := x.openFile()
	if err == nil && why == "" {
		return db, nil
	}
	if db != nil {
		db.close()
	}
	if why == "" {
		why = err.Error()
	}
	x.o.Warn(fmt.Sprintf("index %s: %s: rebuilding it", x.path(), why))
	if err := x.remove(); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	db, why, err = x.openFile()
	if err == nil && why != "" {
		err = errors.New(why)
	}
	if err != nil {
		if db != nil {
			db.close()
		}
		return nil, fmt.Errorf("open index: %w", err)
	}
	return db, nil
}

// openFile opens the database and says why it cannot be used as it is:
// another version, or damage ("" when it can).
func (x *Index) openFile() (*conn, string, error) {
	p := x.path()
	// Made before SQLite opens it, so that it is born private; SQLite gives
	// its journal files the database's mode.
	if err := private(p); err != nil {
		return nil, "", err
	}
	// The write-ahead log and its index are made private before SQLite
	// opens them, and kept (persistent WAL), so that SQLite, which makes
	// files readable by all, never makes them again.
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := private(p + suffix); err != nil {
			return nil, "", err
		}
	}
	db, err := openConn(p, sqlite3.OPEN_READWRITE|sqlite3.OPEN_CREATE)
	if err != nil {
		return nil, "", err
	}
	if _, err := db.c.FileControl("main", sqlite3.FCNTL_PERSIST_WAL, true); err != nil {
		return db, "", err
	}
	if err := db.c.BusyTimeout(busyWait); err != nil {
		return db, "", err
	}
	// journal_size_limit=0: the last connection to close copies the log
	// into the database and empties it (the log is persistent, so SQLite
	// would otherwise keep its frames). A log left with frames is read
	// again by the next process to open the index, which then copies them
	// all into the database once more as it closes: a write and three
	// syncs for a command that changed nothing.
	for _, pragma := range []string{"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA journal_size_limit=0", "PRAGMA temp_store=MEMORY", readCache} {
		if err := db.c.Exec(pragma); err != nil {
			return db, damage(err), nil
		}
	}
	// Turning the log on may have made it anew.
	if err := private(p + "-wal"); err != nil {
		return db, "", err
	}
	n, err := db.int64Of(`SELECT count(*) FROM sqlite_schema WHERE name = 'meta'`)
	if err != nil {
		return db, damage(err), nil
	}
	if n == 0 {
		if err := x.createOn(db); err != nil {
			return db, damage(err), nil
		}
		return db, "", nil
	}
	v, err := db.int64Of(`SELECT v FROM meta WHERE k = 'version'`)
	if err != nil {
		return db, damage(err), nil
	}
	if v != version {
		return db, fmt.Sprintf("made by another version of fleetcom (%d, not %d)", v, version), nil
	}
	if t, err := db.int64Of(`SELECT v FROM meta WHERE k = 'text'`); err != nil || (t != 0) != x.o.Text {
		// Text turned off must leave none behind; turned on, every file
		// must be read again for it.
		return db, "[index] text changed", nil
	}
	// Without it (the index busy), listings are only slower: the next
	// open tries again.
	_ = addActivity(db)
	// Damage past the header shows when a page is read (SQLite says so,
	// and Check rebuilds); reading every page here would cost each command
	// a second per few hundred megabytes.
	return db, "", nil
}

// checkEvery is how often Check reads the whole index.
const checkEvery = 24 * time.Hour

// Check reads every page of the index, at most once per checkEvery, and
// rebuilds it, with one warning, when SQLite finds it damaged. It costs a
// second or more on a large index: a caller runs it in the background
// (the sweep), never on a command's way.
func (x *Index) Check() error {
	x.mu.Lock()
	last := x.meta("checked")
	x.mu.Unlock()
	if last != 0 && x.o.Now().Sub(time.UnixMilli(last)) < checkEvery {
		return nil
	}
	x.mu.Lock()
	result := ""
	_, err := x.db.one(`PRAGMA quick_check(1)`, nil, func(s *sqlite3.Stmt) { result = s.ColumnText(0) })
	x.mu.Unlock()
	if err == nil && result != "ok" {
		err = errors.New(result)
	}
	if err != nil {
		x.warnOnce(fmt.Errorf("index %s is %s: rebuilding it", x.path(), damage(err)))
		if err := x.Rebuild(); err != nil {
			return err
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.setMeta("checked", x.o.Now().UnixMilli())
}

// private makes sure the file at p, made if missing, is this user's only.
func private(p string) error {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|syscallNoFollow, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", p)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return f.Chmod(0o600)
	}
	return nil
}

// busyWait is how long a statement waits for another process's lock.
const busyWait = 5 * time.Second

// damage says what SQLite found wrong.
func damage(err error) string { return "damaged (" + err.Error() + ")" }

// The page cache's size. A command reads each page of what it lists about
// once, and every page the cache keeps is fresh memory in SQLite's
// WebAssembly heap: a page fault, which is most of what a short command
// costs here. With a quarter of a megabyte against 2 MB, `list` of 10,000
// conversations took 0.85x, a search of two common words 0.88x and TAB
// 0.97x, `resume` the same (docs/benchmarks.md, "A smaller page cache"). A
// process that asks again and again (the picker's search as the user
// types) reads its pages again: a common word's search in process took
// 1.1x. A full refresh, whose one transaction writes thousands of pages,
// has the large one while it runs.
const (
	readCache  = "PRAGMA cache_size=-256"
	writeCache = "PRAGMA cache_size=-16000"
)

// create makes the schema in the index's own connection.
func (x *Index) create() error { return x.createOn(x.db) }

func (x *Index) createOn(db *conn) error {
	return db.tx(func() error {
		if err := db.script(schema); err != nil {
			return err
		}
		text := 0
		if x.o.Text {
			text = 1
		}
		return db.exec(`INSERT INTO meta(k, v) VALUES ('version', ?), ('created', ?), ('text', ?)`,
			version, x.o.Now().UnixMilli(), text)
	})
}

// remove deletes the database and its journal files.
func (x *Index) remove() error {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Remove(x.path() + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// Close closes the index.
func (x *Index) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.db == nil {
		return nil
	}
	err := x.db.close()
	x.db = nil
	return err
}

// Rebuild empties the index; the next refresh reads everything again.
func (x *Index) Rebuild() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	unlock, err := x.lockWriter(x.o.LockWait)
	if err != nil {
		return err
	}
	defer unlock()
	if x.dir == "" {
		if err := x.db.script(`DROP TABLE meta; DROP TABLE conv; DROP TABLE source; DROP TABLE dir; DROP TABLE db; DROP TABLE chunk;`); err != nil {
			return err
		}
		return x.create()
	}
	x.db.close()
	x.db = nil
	if err := x.remove(); err != nil {
		return err
	}
	db, err := x.open()
	if err != nil {
		return err
	}
	x.db = db
	return nil
}

// Purge removes the index directory dir and everything in it; an index
// open on it must be closed first. Only the files an index is made of are
// removed, and then the directory if it is empty.
func Purge(dir string) error {
	for _, name := range []string{File, File + "-wal", File + "-shm", File + "-journal", lockFile, sweepLock} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := os.Remove(dir); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// lockWriter takes the writers' lock, waiting at most wait for another
// refresh to finish. An index in memory has one writer, this process.
func (x *Index) lockWriter(wait time.Duration) (func(), error) {
	if x.dir == "" {
		return func() {}, nil
	}
	return safe.Lock(filepath.Join(x.dir, lockFile), wait)
}

// meta reads one value of the meta table.
func (x *Index) meta(k string) int64 {
	v, _ := x.db.int64Of(`SELECT v FROM meta WHERE k = ?`, k)
	return v
}

// setMeta writes one value of the meta table.
func (x *Index) setMeta(k string, v any) error {
	return x.db.exec(`INSERT INTO meta(k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`, k, v)
}

// metaText reads one text value of the meta table.
func (x *Index) metaText(k string) string {
	var v string
	x.db.one(`SELECT v FROM meta WHERE k = ?`, []any{k}, func(s *sqlite3.Stmt) { v = s.ColumnText(0) })
	return v
}

// addActivity gives an index built before convActivity that index: a
// look at the schema per open, and the index made once.
func addActivity(db *conn) error {
	n, err := db.int64Of(`SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'conv_activity'`)
	if err != nil || n > 0 {
		return err
	}
	return db.tx(func() error { return db.exec(convActivity) })
}
