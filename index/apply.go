package index

import (
	"cmp"
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ncruces/go-sqlite3"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// A step of a refresh, what is read between two commits, goes on until it
// has read batchBytes and taken stepTime (variables for the tests). Each
// commit makes FTS5 write out the terms it gathered as a segment, which
// later steps merge, and copies the step's pages through the write-ahead
// log. A build of 10,000 Claude transcripts (1.1 GB) took 3.6-3.8 s in
// steps of 32 MB, 2.6-2.7 s in steps of half a second (as in one step,
// 2.7-3.0 s), and a build killed midway still keeps what it did, while
// readers see it come in.
var (
	batchBytes int64 = 32 << 20
	stepTime         = 500 * time.Millisecond
)

// bigRead is the size of a refresh (a build, mostly) from which the garbage
// collector runs less often while it reads.
const bigRead = 64 << 20

// readAll reads the pending files, committing in steps.
func (w *walk) readAll() error {
	if len(w.pending) == 0 {
		return nil
	}
	w.writing()
	// Oldest first: a conversation's rowid then follows its age, and a
	// search that ranks only the newest matches (rankRows) ranks the
	// right ones.
	slices.SortStableFunc(w.pending, func(a, b *pending) int { return cmp.Compare(a.mtime, b.mtime) })
	pr := &w.pr
	*pr = Progress{Files: len(w.pending), Swept: w.full}
	for _, p := range w.pending {
		pr.Bytes += p.todo()
	}
	w.report()
	if pr.Bytes >= bigRead {
		// Decoding transcripts allocates much and keeps little: with the
		// collector's default, a build spends a tenth of its time in it.
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	// The files are read (and decoded) ahead, on the other cores, while
	// this goroutine writes what the ones before them said: the index has
	// one writer, and reading is most of a build.
	fetched := w.fetchAhead()
	defer fetched.stop()
	for i := 0; i < len(w.pending); {
		var bytes int64
		start := time.Now()
		err := w.x.db.tx(func() error {
			for ; i < len(w.pending) && (bytes < batchBytes || bytes == 0 || time.Since(start) < stepTime); i++ {
				p := w.pending[i]
				n, err := w.apply(p, fetched.next())
				if err != nil {
					return err
				}
				bytes += n
				pr.FilesDone++
				pr.BytesDone += p.todo()
			}
			return nil
		})
		if err != nil {
			return err
		}
		w.report()
	}
	return nil
}

// fetch is one pending file read by its agent's reader: what it learned,
// from which cursor, and where it stopped.
type fetch struct {
	delta     harness.Delta
	cur, next harness.Cursor
	replace   bool
	err       error
}

// prefetch reads the pending files in order, ahead of the writer.
type prefetch struct {
	pending []*pending
	out     []chan fetch
	i       int
	done    chan struct{}

	mu      sync.Mutex
	room    *sync.Cond // signalled when the writer takes a file, or stops
	files   int        // read or being read and not yet taken
	bytes   int64      // what those files have to read
	stopped bool
}

// The read-ahead: how many files, and how many bytes of them, may be read
// and not yet taken. The readers and the writer each keep a core busy only
// if the readers can run on through a stretch of small files while the
// writer is on a large one; the bytes bound what the waiting files hold.
const (
	aheadFiles = 64
	aheadBytes = 64 << 20
)

// fetchAhead starts reading w's pending files, on as many goroutines as
// there are cores, within the read-ahead.
func (w *walk) fetchAhead() *prefetch {
	f := &prefetch{pending: w.pending, out: make([]chan fetch, len(w.pending)), done: make(chan struct{})}
	f.room = sync.NewCond(&f.mu)
	for i := range f.out {
		f.out[i] = make(chan fetch, 1)
	}
	limits := w.x.limits()
	next := make(chan int)
	go func() {
		defer close(next)
		for i, p := range w.pending {
			if !f.reserve(p.todo()) {
				return
			}
			select {
			case next <- i:
			case <-f.done:
				return
			}
		}
	}()
	for range max(2, runtime.GOMAXPROCS(0)) {
		go func() {
			for i := range next {
				f.out[i] <- w.fetch(w.pending[i], limits)
			}
		}()
	}
	return f
}

// reserve waits until one more file of n bytes fits in the read-ahead (the
// first always does), and reports false once the writer has stopped.
func (f *prefetch) reserve(n int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for !f.stopped && f.files > 0 && (f.files >= aheadFiles || f.bytes+n > aheadBytes) {
		f.room.Wait()
	}
	f.files++
	f.bytes += n
	return !f.stopped
}

// next is the next file's fetch, in the order of the pending files; taking
// it makes room for more.
func (f *prefetch) next() fetch {
	r := <-f.out[f.i]
	f.release(f.pending[f.i].todo())
	f.i++
	return r
}

// release makes room for a file of n bytes that the writer took.
func (f *prefetch) release(n int64) {
	f.mu.Lock()
	f.files--
	f.bytes -= n
	f.mu.Unlock()
	f.room.Signal()
}

// stop lets the reading end early, once the writer has stopped.
func (f *prefetch) stop() {
	f.mu.Lock()
	f.stopped = true
	f.mu.Unlock()
	f.room.Broadcast()
	close(f.done)
}

// fetch reads one pending file from where the index stopped, or from its
// start when it was replaced or cut short.
func (w *walk) fetch(p *pending, limits harness.Limits) fetch {
	r := fetch{cur: p.cur}
	if !p.known || p.ino != p.old || p.size < r.cur.Offset {
		r.replace = p.known
		r.cur = harness.Cursor{}
	}
	r.delta, r.next, r.err = p.ix.Read(p.path, r.cur, limits)
	return r
}

// todo is how many bytes a pending file has to read.
func (p *pending) todo() int64 {
	if p.known && p.ino == p.old && p.size >= p.cur.Offset {
		return p.size - p.cur.Offset
	}
	return p.size
}

// limits are what readers hand over.
func (x *Index) limits() harness.Limits {
	return harness.Limits{Text: x.o.Text, Message: maxMessage, Line: maxLine}
}

// apply merges what the read of one file learned, and where it stopped.
func (w *walk) apply(p *pending, f fetch) (int64, error) {
	cur, replace, delta, next, err := f.cur, f.replace, f.delta, f.next, f.err
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, w.forgetSource(p.path)
		}
		// Read again only once the file changes again.
		w.x.warnOnce(err)
		next = cur
		delta = nil
		replace = false
	}
	if len(next.State) > harness.MaxState {
		next.State = nil
	}
	w.filesRead++
	n := next.Offset - cur.Offset
	if n > 0 {
		w.bytesRead += n
	}
	conv := p.conv
	for i, l := range delta {
		own := p.owns && i == 0
		id, err := w.x.learn(p.a, p.home, l, own, own && replace)
		if err != nil {
			return n, err
		}
		if own {
			conv = id
		}
	}
	var convArg any
	if conv != 0 {
		convArg = conv
	}
	err = w.x.db.exec(`INSERT INTO source(path, tool, home, owns, dir, conv, ino, size, mtime, off, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET conv = excluded.conv, ino = excluded.ino, size = excluded.size,
			mtime = excluded.mtime, off = excluded.off, state = excluded.state`,
		p.path, p.a.Name, p.home, p.owns, p.dir, convArg, int64(p.ino), p.size, p.mtime, next.Offset, next.State)
	if err != nil {
		return n, err
	}
	if conv != 0 && p.conv != 0 && conv != p.conv && p.owns {
		// The file now holds another conversation than before.
		if err := w.x.unstore(p.conv); err != nil {
			return n, err
		}
	}
	return n, nil
}

// convRow is what merging needs of a conversation.
type convRow struct {
	rowid                  int64
	scwd, title, home      string
	started, active        int64
	msgs, textlen, chunks  int64
	recorded, stored, side bool
	rcwd                   string
}

// learn merges what a read learned of one conversation into the index and
// returns the conversation's rowid (0 when l is not valid). own says that
// the file read is the conversation's own, replace that it was read again
// from its start: then what it says replaces what the index had, unless it
// says less (a file cut short, or half written) and the index keeps the
// last good version.
func (x *Index) learn(a harness.Agent, home string, l harness.Learned, own, replace bool) (int64, error) {
	if !a.ID.Valid(l.ID) {
		return 0, nil
	}
	c, err := x.conv(a.Name, l.ID)
	if err != nil {
		return 0, err
	}
	if c.rowid == 0 {
		if err := x.db.exec(`INSERT INTO conv(tool, id, home) VALUES (?, ?, ?)`, a.Name, l.ID, home); err != nil {
			return 0, err
		}
		c.rowid = x.db.c.LastInsertRowID()
		c.home = home
	}
	if l.Gone {
		return c.rowid, x.unstore(c.rowid)
	}
	if replace && int64(l.Messages) < c.msgs {
		// Less than before (a file cut short, half written, or one that
		// holds no messages): keep the text and counts the index has, and
		// take what else the read says.
		l.Texts, l.Turns, l.Messages = nil, 0, 0
		if !l.Retitle {
			l.Title = ""
		}
		replace = false
	}
	if replace {
		if err := x.clearText(c.rowid); err != nil {
			return 0, err
		}
		c.title, c.msgs, c.textlen, c.chunks = "", 0, 0, 0
		if err := x.db.exec(`UPDATE conv SET title = '', summary = '', turns = 0, msgs = 0, textlen = 0, chunks = 0 WHERE rowid = ?`, c.rowid); err != nil {
			return 0, err
		}
	}
	scwd := c.scwd
	if l.Cwd != "" && (scwd == "" || own) {
		scwd = l.Cwd
	}
	cwd := c.rcwd
	if !c.recorded {
		cwd = x.physical(scwd)
	}
	title := c.title
	if title == "" || l.Retitle && l.Title != "" {
		title = clip(l.Title, maxTitle)
	}
	started, active := c.started, c.active
	if t := l.Started.UnixMilli(); !l.Started.IsZero() && (started == 0 || t < started) {
		started = t
	}
	if t := l.Active.UnixMilli(); !l.Active.IsZero() && t > active {
		active = t
	}
	stored := c.stored || own
	set := `UPDATE conv SET scwd = ?, cwd = ?, title = ?, started = ?, active = ?, turns = turns + ?, msgs = msgs + ?,
		side = side OR ?, stored = ?, home = CASE WHEN home = '' THEN ? ELSE home END`
	args := []any{scwd, cwd, title, started, active, l.Turns, l.Messages, l.Side, stored, home}
	if l.Summary != "" {
		set += `, summary = ?`
		args = append(args, clip(l.Summary, maxTitle))
	}
	if l.Named {
		set += `, name = ?`
		args = append(args, clip(l.Name, maxTitle))
	}
	if err := x.db.exec(set+` WHERE rowid = ?`, append(args, c.rowid)...); err != nil {
		return 0, err
	}
	if x.o.Text && len(l.Texts) > 0 && c.textlen < maxConvText && c.chunks < 1<<chunkBits-1 {
		body := clip(strings.Join(l.Texts, "\n"), int(maxConvText-c.textlen))
		if body != "" {
			if err := x.db.exec(`INSERT INTO chunk(rowid, body) VALUES (?, ?)`, c.rowid<<chunkBits|c.chunks, body); err != nil {
				return 0, err
			}
			if err := x.db.exec(`UPDATE conv SET textlen = textlen + ?, chunks = chunks + 1 WHERE rowid = ?`, len(body), c.rowid); err != nil {
				return 0, err
			}
		}
	}
	return c.rowid, nil
}

// maxTitle is the most bytes of a title, summary or name kept.
const maxTitle = 512

// conv reads what merging needs of one conversation; rowid 0 when the
// index does not know it.
func (x *Index) conv(tool, id string) (convRow, error) {
	var c convRow
	_, err := x.db.one(`SELECT rowid, scwd, title, home, started, active, msgs, textlen, chunks, rec IS NOT NULL, stored, side, cwd
		FROM conv WHERE tool = ? AND id = ?`, []any{tool, id}, func(s *sqlite3.Stmt) {
		c = convRow{rowid: s.ColumnInt64(0), scwd: s.ColumnText(1), title: s.ColumnText(2), home: s.ColumnText(3),
			started: s.ColumnInt64(4), active: s.ColumnInt64(5), msgs: s.ColumnInt64(6), textlen: s.ColumnInt64(7),
			chunks: s.ColumnInt64(8), recorded: s.ColumnBool(9), stored: s.ColumnBool(10), side: s.ColumnBool(11),
			rcwd: s.ColumnText(12)}
	})
	return c, err
}

// clearText drops a conversation's text.
func (x *Index) clearText(rowid int64) error {
	return x.db.exec(`DELETE FROM chunk WHERE rowid >= ? AND rowid < ?`, rowid<<chunkBits, (rowid+1)<<chunkBits)
}

// unstore takes note that a conversation may have left its agent's store:
// when no file owns it any more its text goes, and so does the whole
// conversation unless fleetcom has a record of it.
func (x *Index) unstore(rowid int64) error {
	n, err := x.db.int64Of(`SELECT count(*) FROM source WHERE conv = ? AND owns`, rowid)
	if err != nil || n > 0 {
		return err
	}
	if err := x.clearText(rowid); err != nil {
		return err
	}
	if err := x.db.exec(`DELETE FROM conv WHERE rowid = ? AND rec IS NULL`, rowid); err != nil {
		return err
	}
	return x.db.exec(`UPDATE conv SET stored = 0, msgs = 0, turns = 0, textlen = 0, chunks = 0 WHERE rowid = ?`, rowid)
}

// physical is the physical directory a tool recorded, resolved once per
// index handle.
func (x *Index) physical(dir string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		return ""
	}
	if x.phys == nil {
		x.phys = map[string]string{}
	}
	if p, ok := x.phys[dir]; ok {
		return p
	}
	p := safe.PhysicalOf(dir)
	x.phys[dir] = p
	return p
}

// clip cuts s to at most n bytes, on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

var _ = sqlite3.INTEGER
