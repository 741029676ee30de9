package index

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// How a refresh decides what to look at. A full sweep looks at every
// folder and file of every agent's store; a quick refresh, which every
// command runs, looks only where something can have changed since: the
// folders that changed lately (warm), the folders of the directories the
// command is about (Scope.Dirs), the files written lately (hot) and those of
// the conversations running now (Scope.Hot). A file written to after it
// went cold, by a run fleetcom did not see, waits for the next sweep, which
// a caller runs in the background when SweepDue says so.
const (
	// warmFor is how recently a folder must have changed to be looked at
	// by a quick refresh.
	warmFor = 48 * time.Hour
	// hotFor is how recently a file must have been written to be looked
	// at by a quick refresh.
	hotFor = time.Hour
	// SweepEvery is how old the last full sweep may be before SweepDue.
	SweepEvery = 5 * time.Minute
	// nearLimit is how many files of each of its folders a command about a
	// directory looks at, the most lately written.
	nearLimit = 200
	// smallIndex is the number of files under which every refresh is a
	// full sweep: looking at all of them costs less than a command notices.
	smallIndex = 400
)

// Limits on what is kept of a conversation's text.
const (
	// maxMessage is the most bytes of one prompt or reply indexed.
	maxMessage = 8 << 10
	// maxConvText is the most bytes of text indexed for one conversation.
	maxConvText = 512 << 10
	// maxLine is the longest record a reader decodes.
	maxLine = 8 << 20
)

// Scope says what a refresh looks at.
type Scope struct {
	// Dirs are the physical directories a command is about: the folders
	// of their conversations are looked at, however long unchanged.
	Dirs []string
	// Hot are the conversations running now (tool and ID): their files are
	// read, however long unwritten.
	Hot []Key
	// Full sweeps everything.
	Full bool
	// HotOnly looks at the files of Hot and at agents' databases only
	// (status redraws its titles every second; nothing else it shows
	// comes from the index).
	HotOnly bool
	// Progress, when set, hears how far the refresh has come.
	Progress func(Progress)
}

// Key names a conversation.
type Key struct{ Tool, ID string }

// Progress is how far a refresh has come.
type Progress struct {
	// Files and Bytes are what the refresh has to read; FilesDone and
	// BytesDone what it has read.
	Files, FilesDone int
	Bytes, BytesDone int64
	// Swept says that this is a full sweep.
	Swept bool
	// Database names the agent whose database is being read, after the
	// files; Convs is how many of its conversations were read so far. A
	// report with Database "" after one with it says the reading is done.
	Database string
	Convs    int
}

// Result is what a refresh did.
type Result struct {
	Files int   // files read
	Bytes int64 // bytes read
	Swept bool  // it was a full sweep
}

// ErrBusy is returned by Refresh when another refresh held the index for
// the whole wait: what the index holds is still there to read.
var ErrBusy = safe.ErrLockTimeout

// Refresh brings the index up to date at the cost of what changed, within
// scope. It holds the writers' lock while it works, and commits in steps:
// a refresh killed midway leaves the index as its last step left it, and
// readers see every committed step.
func (x *Index) Refresh(sc Scope) (Result, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	unlock, err := x.lockWriter(x.o.LockWait)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	now := x.o.Now()
	w := &walk{x: x, now: now, near: map[string]bool{}, nearFolders: map[string]bool{}, sc: sc}
	changes := x.db.c.TotalChanges()
	// Counted only as far as smallIndex: a count of every file reads the
	// whole table, at every command.
	n, err := x.db.int64Of(`SELECT count(*) FROM (SELECT 1 FROM source LIMIT ?)`, smallIndex)
	if err != nil {
		return Result{}, err
	}
	w.full = sc.Full || n < smallIndex || x.meta("swept") == 0
	if sc.HotOnly && !sc.Full && x.meta("swept") != 0 {
		w.full = false
		w.hotOnly = true
	}
	if err := x.refreshRecords(w); err != nil {
		return Result{}, err
	}
	err = x.db.tx(func() error {
		for _, a := range x.o.Agents {
			if w.hotOnly {
				break
			}
			ix, ok := a.Behaviour.(harness.Indexer)
			if !ok {
				continue
			}
			for _, home := range x.homes(a) {
				if err := w.agent(a, ix, home); err != nil {
					return err
				}
			}
		}
		return w.hot()
	})
	if err != nil {
		return Result{}, err
	}
	defer w.smallCache()
	if err := w.readAll(); err != nil {
		return Result{}, err
	}
	for _, a := range x.o.Agents {
		if dx, ok := a.Behaviour.(harness.DBIndexer); ok {
			for _, home := range x.homes(a) {
				if err := w.database(a, dx, home); err != nil {
					x.warnOnce(err)
				}
			}
		}
	}
	if w.pr.Database != "" {
		w.pr.Database, w.pr.Convs = "", 0
		w.report()
	}
	// A refresh that found nothing new writes nothing, but for the times
	// it was up to date and last swept everything, once a minute: a write
	// is a sync of the log, and TAB should not wait for one. Below
	// smallIndex files every refresh is a full sweep, so this holds for
	// the commands of a short history too.
	changed := w.filesRead > 0 || x.db.c.TotalChanges() != changes
	due := func(k string) bool { return now.UnixMilli()-x.meta(k) >= refreshedEvery.Milliseconds() }
	if changed || due("refreshed") {
		if err := x.setMeta("refreshed", now.UnixMilli()); err != nil {
			return Result{}, err
		}
	}
	if w.full && (changed || due("swept")) {
		if err := x.setMeta("swept", now.UnixMilli()); err != nil {
			return Result{}, err
		}
	}
	x.trimLog()
	return Result{Files: w.filesRead, Bytes: w.bytesRead, Swept: w.full}, nil
}

// refreshedEvery is how often a refresh that changed nothing records that
// the index was up to date (Stats.Refreshed).
const refreshedEvery = time.Minute

// logLimit is the size of the write-ahead log past which a refresh copies
// it into the database and empties it.
const logLimit = 1 << 20

// trimLog empties the write-ahead log once it holds more than logLimit;
// the caller holds the writers' lock. No command closes the index (it
// ends with the process), so SQLite never resets the log itself, and each
// process that opens the index first reads the whole log again to know
// which pages it holds: after a first build, some thousand pages per
// command, copied back into the database at every commit. It never waits
// for readers in other processes: what they still read stays in the log
// until a later refresh.
func (x *Index) trimLog() {
	if x.dir == "" {
		return
	}
	if fi, err := os.Stat(x.path() + "-wal"); err != nil || fi.Size() <= logLimit {
		return
	}
	if x.db.c.BusyTimeout(0) == nil {
		defer x.db.c.BusyTimeout(busyWait)
	}
	_ = x.db.c.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
}

// homes are the homes of an agent whose stores are read: the ones the
// options give, and those fleetcom's records of its conversations name,
// when they are directories.
func (x *Index) homes(a harness.Agent) []string {
	out := slices.Clone(x.o.Homes(a))
	var recorded []string
	// Each home found by a seek in conv_rechome from the one before: a
	// DISTINCT would read the entry of every recorded conversation, at
	// every refresh, for the one or two homes they name.
	x.db.query(`WITH RECURSIVE h(home) AS (
			SELECT min(home) FROM conv WHERE tool = ?1 AND rec IS NOT NULL AND home > ''
			UNION ALL
			SELECT (SELECT min(home) FROM conv WHERE tool = ?1 AND rec IS NOT NULL AND home > h.home) FROM h WHERE h.home IS NOT NULL)
		SELECT home FROM h WHERE home IS NOT NULL`, []any{a.Name}, func(s *sqlite3.Stmt) error {
		recorded = append(recorded, s.ColumnText(0))
		return nil
	})
	for _, h := range recorded {
		if !filepath.IsAbs(h) || filepath.Clean(h) != h || slices.Contains(out, h) {
			continue
		}
		if fi, err := os.Stat(h); err == nil && fi.IsDir() {
			out = append(out, h)
		}
	}
	return out
}

// SweepDue reports that the last full sweep is older than SweepEvery: a
// caller that only refreshed quickly should sweep in the background.
func (x *Index) SweepDue() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	last := x.meta("swept")
	return last == 0 || x.o.Now().Sub(time.UnixMilli(last)) > SweepEvery
}

// warnOnce reports the first problem a reader had, and no more.
func (x *Index) warnOnce(err error) {
	if err == nil || errors.Is(err, ErrBusy) {
		return
	}
	x.warn.Do(func() { x.o.Warn("index: " + err.Error()) })
}
