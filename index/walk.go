package index

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/harness"
)

// walk is one refresh's look at the agents' stores: it finds the files to
// read, then reads them.
type walk struct {
	x    *Index
	now  time.Time
	full bool
	sc   Scope
	// hotOnly: only the files of the scope's running conversations are
	// looked at (Scope.HotOnly).
	hotOnly bool
	// near are the folders of the scope's directories and every folder
	// above them up to a tree's root; nearFolders only the first, which
	// hold the files.
	near, nearFolders map[string]bool
	// pending are the files to read, in the order found.
	pending []*pending
	queued  map[string]bool
	// what was read
	filesRead int
	bytesRead int64
	// pr is what the last progress report said.
	pr Progress
	// bigCache: the connection has the large page cache (writing).
	bigCache bool
}

// writing gives a full refresh the large page cache once it has something
// to write: files to read, or a database that changed. A sweep that finds
// nothing new keeps the small one, as it reads each page of the file table
// once and each page the cache keeps is fresh memory (a page fault).
func (w *walk) writing() {
	if w.full && !w.bigCache {
		w.bigCache = w.x.db.c.Exec(writeCache) == nil
	}
}

// smallCache puts back the page cache a reading command keeps.
func (w *walk) smallCache() {
	if w.bigCache {
		w.x.db.c.Exec(readCache)
		w.bigCache = false
	}
}

// report tells the scope's Progress, if any, how the refresh comes along.
func (w *walk) report() {
	if w.sc.Progress != nil {
		w.sc.Progress(w.pr)
	}
}

// pending is one file to read.
type pending struct {
	a     harness.Agent
	ix    harness.Indexer
	home  string
	owns  bool
	path  string
	dir   string
	ino   uint64
	size  int64
	mtime int64
	// known: the index read the file before, up to cur.
	known bool
	cur   harness.Cursor
	conv  int64
	old   uint64 // the inode read before
}

// agent looks at the trees of one agent's home.
func (w *walk) agent(a harness.Agent, ix harness.Indexer, home string) error {
	trees := ix.Trees(home)
	for _, d := range w.sc.Dirs {
		for _, f := range ix.Near(home, d) {
			w.nearFolders[filepath.Clean(f)] = true
			for p := filepath.Clean(f); ; p = filepath.Dir(p) {
				w.near[p] = true
				if p == filepath.Dir(p) {
					break
				}
			}
		}
	}
	for i, t := range trees {
		if t.Root == "" || len(t.Levels) == 0 {
			continue
		}
		root := filepath.Clean(t.Root)
		fi, err := os.Stat(root)
		if err != nil || !fi.IsDir() {
			if err := w.forgetDir(root); err != nil {
				return err
			}
			continue
		}
		if err := w.dir(a, ix, home, i, t, root, 0, fi); err != nil {
			return err
		}
	}
	return nil
}

// dir looks at one folder of a tree, at depth level below its root (whose
// entries match t.Levels[level]).
func (w *walk) dir(a harness.Agent, ix harness.Indexer, home string, tree int, t harness.Tree, path string, level int, fi os.FileInfo) error {
	mtime := fi.ModTime().UnixNano()
	var known int64 = -1
	if _, err := w.x.db.one(`SELECT mtime FROM dir WHERE path = ?`, []any{path}, func(s *sqlite3.Stmt) { known = s.ColumnInt64(0) }); err != nil {
		return err
	}
	last := level == len(t.Levels)-1
	if known != mtime || w.full {
		if err := w.list(a, ix, home, tree, t, path, level, last); err != nil {
			return err
		}
		if err := w.x.db.exec(`INSERT INTO dir(path, tool, home, tree, level, parent, mtime) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(path) DO UPDATE SET mtime = excluded.mtime WHERE mtime <> excluded.mtime`,
			path, a.Name, home, tree, level, filepath.Dir(path), mtime); err != nil {
			return err
		}
	}
	if last {
		return nil
	}
	// Down into the folders below: all of them in a sweep, else the warm
	// ones and the way to the scope's folders.
	type child struct {
		path  string
		mtime int64
	}
	var kids []child
	if err := w.x.db.query(`SELECT path, mtime FROM dir WHERE parent = ? AND level = ?`, []any{path, level + 1}, func(s *sqlite3.Stmt) error {
		kids = append(kids, child{s.ColumnText(0), s.ColumnInt64(1)})
		return nil
	}); err != nil {
		return err
	}
	// Folders above the ones that hold files are few (a year's, a
	// month's, a project's) and are always looked at: a new folder below
	// one of them changes its time. Folders of files are looked at when
	// warm, or when the scope asks.
	warm := w.now.Add(-warmFor).UnixNano()
	above := level+1 < len(t.Levels)-1
	for _, k := range kids {
		if !w.full && !above && k.mtime != 0 && k.mtime < warm && !w.near[k.path] {
			continue
		}
		cfi, err := os.Lstat(k.path)
		if err != nil || !cfi.IsDir() {
			if err := w.forgetDir(k.path); err != nil {
				return err
			}
			continue
		}
		if err := w.dir(a, ix, home, tree, t, k.path, level+1, cfi); err != nil {
			return err
		}
	}
	return nil
}

// list reads a folder's entries: new subfolders are recorded (mtime 0, so
// that they are listed in turn), new files queued, and what went away
// forgotten. In a sweep every file is looked at.
func (w *walk) list(a harness.Agent, ix harness.Indexer, home string, tree int, t harness.Tree, path string, level int, last bool) error {
	entries, err := os.ReadDir(path)
	if err != nil {
		return w.forgetDir(path)
	}
	listed := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if !matchLevel(t.Levels[level], name) {
			continue
		}
		p := filepath.Join(path, name)
		if last {
			if !e.Type().IsRegular() {
				continue
			}
			listed[p] = true
			if err := w.consider(a, ix, home, t.Owns, p, path, nil); err != nil {
				return err
			}
			continue
		}
		if !e.IsDir() {
			continue
		}
		listed[p] = true
		if err := w.x.db.exec(`INSERT INTO dir(path, tool, home, tree, level, parent, mtime) VALUES (?, ?, ?, ?, ?, ?, 0)
			ON CONFLICT(path) DO NOTHING`, p, a.Name, home, tree, level+1, path); err != nil {
			return err
		}
	}
	// What the index knew here and the folder no longer holds.
	var gone []string
	table, col := "dir", "parent"
	if last {
		table, col = "source", "dir"
	}
	if err := w.x.db.query(`SELECT path FROM `+table+` WHERE `+col+` = ?`, []any{path}, func(s *sqlite3.Stmt) error {
		if p := s.ColumnText(0); !listed[p] {
			gone = append(gone, p)
		}
		return nil
	}); err != nil {
		return err
	}
	for _, p := range gone {
		var err error
		if last {
			err = w.forgetSource(p)
		} else {
			err = w.forgetDir(p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// consider stats a file and queues it when it is new or changed. fi may be
// nil (then the file is stat'ed here).
func (w *walk) consider(a harness.Agent, ix harness.Indexer, home string, owns bool, path, dir string, fi os.FileInfo) error {
	if w.queued[path] {
		return nil
	}
	if fi == nil {
		var err error
		if fi, err = os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
			return w.forgetSource(path)
		}
	}
	p := &pending{a: a, ix: ix, home: home, owns: owns, path: path, dir: dir,
		size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		p.ino = uint64(st.Ino)
	}
	var size, mtime int64
	var ino int64
	found, err := w.x.db.one(`SELECT ino, size, mtime, off, state, coalesce(conv, 0) FROM source WHERE path = ?`, []any{path}, func(s *sqlite3.Stmt) {
		ino, size, mtime = s.ColumnInt64(0), s.ColumnInt64(1), s.ColumnInt64(2)
		p.cur = harness.Cursor{Offset: s.ColumnInt64(3), State: s.ColumnBlob(4, nil)}
		p.conv = s.ColumnInt64(5)
	})
	if err != nil {
		return err
	}
	if found && uint64(ino) == p.ino && size == p.size && mtime == p.mtime {
		return nil
	}
	p.known, p.old = found, uint64(ino)
	if w.queued == nil {
		w.queued = map[string]bool{}
	}
	w.queued[path] = true
	w.pending = append(w.pending, p)
	return nil
}

// hot looks at the files written lately, those of the conversations
// running now, and those of the scope's folders (a conversation of this
// directory continued outside fleetcom appends to its file, which changes
// no folder's time); a sweep has looked at them all already.
func (w *walk) hot() error {
	if w.full {
		return nil
	}
	type file struct{ path, dir, tool, home string }
	var files []file
	collect := func(s *sqlite3.Stmt) error {
		files = append(files, file{s.ColumnText(0), s.ColumnText(1), s.ColumnText(2), s.ColumnText(3)})
		return nil
	}
	const cols = `SELECT path, dir, tool, home FROM source`
	if !w.hotOnly {
		if err := w.x.db.query(cols+` WHERE mtime >= ?`, []any{w.now.Add(-hotFor).UnixNano()}, collect); err != nil {
			return err
		}
	}
	if err := w.nearFiles(); err != nil {
		return err
	}
	for _, k := range w.sc.Hot {
		if err := w.x.db.query(cols+` WHERE conv = (SELECT rowid FROM conv WHERE tool = ? AND id = ?)`, []any{k.Tool, k.ID}, collect); err != nil {
			return err
		}
	}
	for _, f := range files {
		a, ok := w.agentNamed(f.tool)
		if !ok {
			continue
		}
		ix, ok := a.Behaviour.(harness.Indexer)
		if !ok {
			continue
		}
		owns := w.owns(ix, f.home, f.path)
		if err := w.consider(a, ix, f.home, owns, f.path, f.dir, nil); err != nil {
			return err
		}
	}
	return nil
}

// nearFiles looks at the files of the scope's folders written most
// lately (nearLimit of each: a folder of 10,000 transcripts would cost a
// command 10,000 stats, and a conversation continued is most often a
// recent one; the sweep sees the rest): one query per folder for what the
// index knows of them, a stat per file, and only the changed ones
// considered.
// nearQuery lists a folder's newest files as the index last saw them, from
// source_dir alone (TestNearFilesReadsOneIndex).
const nearQuery = `SELECT path, ino, size, mtime FROM source WHERE dir = ? ORDER BY mtime DESC LIMIT ?`

func (w *walk) nearFiles() error {
	for dir := range w.nearFolders {
		// Each file is looked at from the folder, opened once, while its
		// entry in source_dir is read (which holds what this needs: no
		// lookup in the table). Only the paths that changed are copied out.
		folder := openFolder(dir)
		var changed []string
		err := w.x.db.query(nearQuery, []any{dir, nearLimit}, func(s *sqlite3.Stmt) error {
			if !folder.same(s.ColumnRawText(0), s.ColumnInt64(2), s.ColumnInt64(3), s.ColumnInt64(1)) {
				changed = append(changed, s.ColumnText(0))
			}
			return nil
		})
		folder.close()
		if err != nil {
			return err
		}
		for _, path := range changed {
			var tool, home string
			found, err := w.x.db.one(`SELECT tool, home FROM source WHERE path = ?`, []any{path}, func(s *sqlite3.Stmt) { tool, home = s.ColumnText(0), s.ColumnText(1) })
			if err != nil {
				return err
			}
			a, ok := w.agentNamed(tool)
			if !found || !ok {
				continue
			}
			ix, ok := a.Behaviour.(harness.Indexer)
			if !ok {
				continue
			}
			if err := w.consider(a, ix, home, w.owns(ix, home, path), path, dir, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// owns reports whether the tree a file of home is in owns its files.
func (w *walk) owns(ix harness.Indexer, home, path string) bool {
	for _, t := range ix.Trees(home) {
		if t.Root != "" && strings.HasPrefix(path, filepath.Clean(t.Root)+string(filepath.Separator)) {
			return t.Owns
		}
	}
	return false
}

// agentNamed is the index's agent of that name.
func (w *walk) agentNamed(name string) (harness.Agent, bool) {
	for _, a := range w.x.o.Agents {
		if a.Name == name {
			return a, true
		}
	}
	return harness.Agent{}, false
}

// forgetDir forgets a folder and everything the index knew below it.
func (w *walk) forgetDir(path string) error {
	lo, hi := path+string(filepath.Separator), path+string(rune(filepath.Separator+1))
	var files []string
	if err := w.x.db.query(`SELECT path FROM source WHERE dir = ? OR (dir >= ? AND dir < ?)`, []any{path, lo, hi}, func(s *sqlite3.Stmt) error {
		files = append(files, s.ColumnText(0))
		return nil
	}); err != nil {
		return err
	}
	for _, f := range files {
		if err := w.forgetSource(f); err != nil {
			return err
		}
	}
	return w.x.db.exec(`DELETE FROM dir WHERE path = ? OR (path >= ? AND path < ?)`, path, lo, hi)
}

// forgetSource forgets a file that is gone: a conversation no file owns
// any more is gone from its agent's store.
func (w *walk) forgetSource(path string) error {
	var conv int64
	var owns bool
	found, err := w.x.db.one(`SELECT coalesce(conv, 0), owns FROM source WHERE path = ?`, []any{path}, func(s *sqlite3.Stmt) {
		conv, owns = s.ColumnInt64(0), s.ColumnBool(1)
	})
	if err != nil || !found {
		return err
	}
	if err := w.x.db.exec(`DELETE FROM source WHERE path = ?`, path); err != nil {
		return err
	}
	if conv == 0 || !owns {
		return nil
	}
	return w.x.unstore(conv)
}

// matchLevel reports whether name matches a level's pattern, or one of its
// patterns joined by "|".
func matchLevel(pattern, name string) bool {
	for _, p := range strings.Split(pattern, "|") {
		if ok, _ := filepath.Match(p, name); ok {
			return true
		}
	}
	return false
}
