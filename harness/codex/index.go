package codex

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// The Codex rollout index. Codex files rollouts by day, not by directory, so
// finding one directory's threads would mean reading the first line of every
// rollout on every completion. The index remembers what those first lines
// said, per Codex home, in a directory the caller owns:
//
//	<index>/<key of home>/
//	  lock           flock'd around an update and the read that follows it
//	  days           "d YYYY/MM/DD <mtime>" per day directory, and
//	                 "p YYYY/MM/DD/<name>" per rollout whose first line was
//	                 not complete when last read
//	  month/YYYY-MM  "DD\t<name>\t<what>" per file of the month: the shard key
//	                 of a user's thread, "-" for anything else, "?" for pending
//	  cwd/<key>      one shard per directory: "<rel>\t<checked>\t<title>" per
//	                 user thread; checked is the rollout's size when its title
//	                 was last looked for (-1: never), so titles are read lazily
//	                 and only for the directory asked about
//
// An update lists the day directories and re-reads only those whose mtime
// changed, plus the pending rollouts; a lookup then decodes one shard and
// stats its rollouts for their current mtime. Each file starts with a header
// and ends with "end <lines>"; a file that does not parse discards the whole
// index, which is rebuilt. Files are replaced by rename, shards before month
// files before days, and every step is idempotent, so a killed update leaves
// a state the next one completes. Nothing read back is trusted for an ID:
// names pass rolloutID (and so the UUID grammar) again and each rollout is stat'ed.

const (
	indexMagic = "fleetcom-codex-index 1"
	// racyWindow: a directory modified this recently may change again within
	// the same mtime tick, so its mtime is not remembered yet.
	racyWindow = 2 * time.Second
	pendingKey = "?"
	otherKey   = "-"
)

var errIndexDamaged = errors.New("codex index is damaged")

type rolloutIndex struct {
	home, dir string
	now       time.Time

	days       map[string]int64 // "YYYY/MM/DD" -> mtime in ns; 0: rescan
	pending    map[string]bool  // rel paths
	tableDirty bool
	months     map[string]map[string]map[string]string // "YYYY/MM" -> "DD" -> name -> key
	monthDirty map[string]bool
	shards     map[string]*indexShard // key -> shard
	shardDirty map[string]bool
	keys       map[string]cwdKey // recorded cwd -> its shard
	err        error             // damage met while applying
}

// cwdKey is a recorded cwd's physical form and the key of its shard.
type cwdKey struct{ phys, key string }

type indexShard struct {
	cwd     string
	entries map[string]*indexEntry // rel -> entry
}

type indexEntry struct {
	checked int64
	title   string
}

// indexed brings the index of home under indexDir up to date and returns
// the user threads of cwd. complete is false when the index could not be used
// at all; err may also accompany complete results (a failed save).
func indexed(home, cwd, indexDir string) (found []harness.Found, complete bool, err error) {
	home, err = filepath.Abs(home)
	if err != nil {
		return nil, false, err
	}
	dir := filepath.Join(indexDir, safe.PathKey(home))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, fmt.Errorf("codex index: %w", err)
	}
	unlock, err := safe.Lock(filepath.Join(dir, "lock"), indexLockWait)
	if err != nil {
		return nil, false, fmt.Errorf("codex index: %w", err)
	}
	defer unlock()
	for attempt := 0; ; attempt++ {
		ix := &rolloutIndex{home: home, dir: dir, now: time.Now(), days: map[string]int64{}, pending: map[string]bool{},
			months: map[string]map[string]map[string]string{}, monthDirty: map[string]bool{},
			shards: map[string]*indexShard{}, shardDirty: map[string]bool{}, keys: map[string]cwdKey{}}
		found, err = ix.run(cwd)
		if errors.Is(err, errIndexDamaged) && attempt == 0 {
			ix.wipe()
			continue
		}
		if err != nil {
			return nil, false, err
		}
		return found, true, ix.save()
	}
}

// dayScan is one changed day directory: its regular files, if it exists.
type dayScan struct {
	day    string
	mtime  int64
	exists bool
	names  []string
}

func (ix *rolloutIndex) run(cwd string) ([]harness.Found, error) {
	if err := ix.loadTable(); err != nil {
		return nil, err
	}
	current := ix.listDays()
	changed := map[string]bool{}
	for d, m := range current {
		if old, ok := ix.days[d]; !ok || old != m {
			changed[d] = true
		}
	}
	for d := range ix.days {
		if _, ok := current[d]; !ok {
			changed[d] = true
		}
	}
	var scans []dayScan
	var probe []string
	for _, d := range slices.Sorted(maps.Keys(changed)) {
		s := dayScan{day: d, mtime: current[d]}
		_, s.exists = current[d]
		if s.exists {
			entries, err := os.ReadDir(filepath.Join(ix.home, "sessions", filepath.FromSlash(d)))
			if err != nil {
				continue // unreadable now: its old mtime stays, so it is tried again
			}
			for _, e := range entries {
				if e.Type().IsRegular() {
					s.names = append(s.names, e.Name())
				}
			}
		}
		old, err := ix.day(d)
		if err != nil {
			return nil, err
		}
		for _, name := range s.names {
			if k, ok := old[name]; !ok || k == pendingKey || ix.replaced(d, name) {
				probe = append(probe, d+"/"+name)
			}
		}
		scans = append(scans, s)
	}
	var retry []string
	for _, rel := range slices.Sorted(maps.Keys(ix.pending)) {
		if !changed[path.Dir(rel)] {
			retry = append(retry, rel)
		}
	}
	probes := probeRollouts(ix.home, append(probe, retry...))
	for _, s := range scans {
		if err := ix.applyDay(s, probes); err != nil {
			return nil, err
		}
	}
	for _, rel := range retry {
		if err := ix.applyRetry(rel, probes[rel]); err != nil {
			return nil, err
		}
	}
	return ix.query(cwd)
}

// applyDay records one changed day: new files as probed, files gone leave
// their shard, files replaced (see replaced) as probed again, and the rest
// keep what they were found to be.
func (ix *rolloutIndex) applyDay(s dayScan, probes map[string]rolloutProbe) error {
	old, err := ix.day(s.day)
	if err != nil {
		return err
	}
	next := map[string]string{}
	for _, name := range s.names {
		rel := s.day + "/" + name
		k, known := old[name]
		p, probed := probes[rel]
		if known && k != pendingKey && !probed {
			next[name] = k
			continue
		}
		next[name] = ix.apply(rel, p)
		if known && k != next[name] && k != otherKey && k != pendingKey {
			ix.removeEntry(k, rel) // replaced by a rollout of another directory
		}
	}
	for name, k := range old {
		if _, ok := next[name]; !ok && k != otherKey && k != pendingKey {
			ix.removeEntry(k, s.day+"/"+name)
		}
	}
	for rel := range ix.pending {
		if path.Dir(rel) == s.day {
			delete(ix.pending, rel)
		}
	}
	for name, k := range next {
		if k == pendingKey {
			ix.pending[s.day+"/"+name] = true
		}
	}
	if !s.exists {
		next = nil
		delete(ix.days, s.day)
	} else {
		ix.days[s.day] = ix.settled(s.mtime)
	}
	ix.setDay(s.day, next)
	ix.tableDirty = true
	return ix.err
}

// replaced reports whether a known rollout of a changed day may have been
// replaced since the day was last read: renamed over (as fleetcom's move
// rewrites a rollout's directory in place) or changed. Its status changed
// after the day's remembered mtime, or that mtime was not settled. Codex
// itself only appends, which costs a rollout one more read of its first
// line, and only when its day changed.
func (ix *rolloutIndex) replaced(day, name string) bool {
	since := ix.days[day]
	if since == 0 {
		return true
	}
	var st unix.Stat_t
	p := filepath.Join(ix.home, "sessions", filepath.FromSlash(day), name)
	return unix.Lstat(p, &st) != nil || time.Unix(st.Ctim.Unix()).UnixNano() >= since
}

// applyRetry records a pending rollout of an unchanged day once its first
// line is complete.
func (ix *rolloutIndex) applyRetry(rel string, p rolloutProbe) error {
	k := ix.apply(rel, p)
	if k == pendingKey {
		return ix.err
	}
	files, err := ix.day(path.Dir(rel))
	if err != nil {
		return err
	}
	next := make(map[string]string, len(files)+1)
	for n, v := range files {
		next[n] = v
	}
	next[path.Base(rel)] = k
	ix.setDay(path.Dir(rel), next)
	delete(ix.pending, rel)
	ix.tableDirty = true
	return ix.err
}

// settled is the mtime to remember: none while it is too recent to trust.
func (ix *rolloutIndex) settled(mtime int64) int64 {
	if ix.now.UnixNano()-mtime < int64(racyWindow) {
		return 0
	}
	return mtime
}

// apply files a probed rollout: a user's thread goes into the shard of its
// directory. It returns what the month file says of it.
func (ix *rolloutIndex) apply(rel string, p rolloutProbe) string {
	if p.state != userThread {
		return string(p.state)
	}
	ck, ok := ix.keys[p.cwd]
	if !ok {
		ck.phys = safe.PhysicalOf(p.cwd)
		ck.key = safe.PathKey(ck.phys)
		ix.keys[p.cwd] = ck
	}
	key := ck.key
	s, err := ix.shard(key)
	if err != nil {
		ix.err = err
		return otherKey
	}
	if s.cwd == "" {
		s.cwd = ck.phys
	}
	if s.cwd != ck.phys {
		return otherKey // a hash collision: not worth a second scheme
	}
	if _, ok := s.entries[rel]; !ok {
		s.entries[rel] = &indexEntry{checked: -1}
		ix.shardDirty[key] = true
	}
	return key
}

func (ix *rolloutIndex) removeEntry(key, rel string) {
	s, err := ix.shard(key)
	if err != nil {
		ix.err = err
		return
	}
	if _, ok := s.entries[rel]; ok {
		delete(s.entries, rel)
		ix.shardDirty[key] = true
	}
}

// query returns cwd's threads whose rollouts exist, reading the titles not
// known yet. Each rollout is stat'ed for its current mtime (a resumed thread
// is appended to in place); the stats are relative to the sessions directory
// and spread over the CPUs, as on a lookup of thousands of rollouts they are
// most of the cost.
func (ix *rolloutIndex) query(cwd string) ([]harness.Found, error) {
	key := safe.PathKey(cwd)
	s, err := ix.shard(key)
	if err != nil || s.cwd != cwd {
		return nil, err
	}
	sessions := filepath.Join(ix.home, "sessions")
	fd, err := unix.Open(sessions, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil
	}
	defer unix.Close(fd)
	rels := slices.Collect(maps.Keys(s.entries))
	for _, rel := range rels {
		if _, ok := relID(rel); !ok {
			return nil, errIndexDamaged
		}
	}
	stats := make([]unix.Stat_t, len(rels))
	found := make([]bool, len(rels))
	workers := min(runtime.GOMAXPROCS(0), 4, 1+len(rels)/256)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(rels); i += workers {
				found[i] = unix.Fstatat(fd, rels[i], &stats[i], 0) == nil && stats[i].Mode&unix.S_IFMT == unix.S_IFREG
			}
		}()
	}
	wg.Wait()
	out := make([]harness.Found, 0, len(rels))
	for i, rel := range rels {
		if !found[i] {
			continue
		}
		id, _ := relID(rel)
		e, st := s.entries[rel], &stats[i]
		if e.title == "" && e.checked != st.Size {
			e.title, e.checked = readTitle(filepath.Join(sessions, filepath.FromSlash(rel))), st.Size
			ix.shardDirty[key] = true
		}
		f := harness.Found{Tool: "codex", ID: id, Cwd: cwd, Home: ix.home, Title: e.title, Modified: time.Unix(st.Mtim.Unix())}
		if ms, ok := safe.UUIDTime(id); ok {
			f.Started = time.UnixMilli(ms)
		}
		out = append(out, f)
	}
	harness.SortNewest(out)
	return out, nil
}

// listDays returns the day directories of the home with their mtimes.
func (ix *rolloutIndex) listDays() map[string]int64 {
	out := map[string]int64{}
	root := filepath.Join(ix.home, "sessions")
	for _, y := range subdirs(root, 4) {
		for _, m := range subdirs(filepath.Join(root, y), 2) {
			f, err := os.OpenFile(filepath.Join(root, y, m), os.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK, 0)
			if err != nil {
				continue
			}
			names, _ := f.Readdirnames(-1)
			var st unix.Stat_t
			for _, d := range names {
				if digits(d, 2) && unix.Fstatat(int(f.Fd()), d, &st, unix.AT_SYMLINK_NOFOLLOW) == nil &&
					st.Mode&unix.S_IFMT == unix.S_IFDIR {
					out[y+"/"+m+"/"+d] = time.Unix(st.Mtim.Unix()).UnixNano()
				}
			}
			f.Close()
		}
	}
	return out
}

// validDay checks the "YYYY/MM/DD" shape.
func validDay(d string) bool {
	return len(d) == 10 && digits(d[:4], 4) && d[4] == '/' && digits(d[5:7], 2) && d[7] == '/' && digits(d[8:], 2)
}

// relID checks a "YYYY/MM/DD/<rollout name>" path and returns its ID.
func relID(rel string) (string, bool) {
	d, name := path.Split(rel)
	if len(d) != 11 || !validDay(d[:10]) {
		return "", false
	}
	return rolloutID(name)
}

// indexLockWait bounds a wait for another process's index update; past it
// the caller reads the rollouts without the index.
const indexLockWait = 5 * time.Second
