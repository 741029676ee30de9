package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/index"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/store"
)

// Every command that reads conversations reads the index (package index),
// brought up to date first at the cost of what changed. It lives in the
// cache directory: deleting it loses nothing. When it cannot be kept there
// (a directory others can write to, a read-only disk), the command warns
// once and builds one in memory, which costs time, never results.

// indexPath is where the index is kept.
func indexPath() string { return filepath.Join(resolvePaths().CacheDir, "index") }

// openIndex opens the index of st's records and every agent's store.
func openIndex(st *store.Store) *index.Index {
	cfg := catalog.IndexConfig{Getenv: os.Getenv, Text: !settings().TextOff, Warn: indexWarn}
	x, err := catalog.OpenIndex(indexPath(), st, cfg)
	if err == nil {
		return x
	}
	indexWarn(fmt.Sprintf("index: %v: reading the conversations without it, which is slower", err))
	x, err = catalog.OpenIndex("", st, cfg)
	if err != nil {
		return nil // the catalog makes its own
	}
	return x
}

// indexWarned keeps the index's warnings to one each per command.
var indexWarned struct {
	sync.Mutex
	seen map[string]bool
}

func indexWarn(msg string) {
	indexWarned.Lock()
	defer indexWarned.Unlock()
	if indexWarned.seen[msg] {
		return
	}
	if indexWarned.seen == nil {
		indexWarned.seen = map[string]bool{}
	}
	indexWarned.seen[msg] = true
	warnf("%s", msg)
}

// catalogs are the catalogs this command made: afterCatalogs starts a due
// sweep of their index and closes it.
var catalogs []*catalog.Catalog

// afterCatalogs runs once a command is done.
func afterCatalogs() {
	for _, c := range catalogs {
		sweepSoon(c.Opened())
		c.Close()
	}
	catalogs = nil
}

// newCatalog is the catalog over st, reading through the index.
func newCatalog(st *store.Store) *catalog.Catalog {
	c := catalog.New(st, catalog.Config{
		Getenv:   os.Getenv,
		Index:    openIndex(st),
		Replay:   settings().Options,
		Hot:      hotRuns,
		Progress: newProgress().report,
		Warn:     indexWarn,
	})
	catalogs = append(catalogs, c)
	return c
}

// hotRuns are the conversations running now under the shims: a refresh
// reads their files, however long ago they were written.
func hotRuns() []index.Key {
	var out []index.Key
	for k := range liveNow(resolvePaths().LiveDir) {
		tool, id, _ := strings.Cut(k, "-")
		out = append(out, index.Key{Tool: tool, ID: id})
	}
	return out
}

// progress shows how a refresh comes along. On a terminal (stderr) a long
// one (a first build) says so and draws a line of progress, redrawn in
// place and cleared when done; elsewhere it says nothing, except for
// `fleetcom index`, which ends with a summary line.
type progress struct {
	tty     bool
	always  bool // fleetcom index: show it however short
	start   time.Time
	last    time.Time
	shown   bool
	started bool
}

// newProgress is a progress for one command, shown once a refresh is long.
func newProgress() *progress { return &progress{tty: isTerminal(stderr)} }

// progressAfter is how long a refresh runs before it says so.
const progressAfter = 400 * time.Millisecond

func (p *progress) report(pr index.Progress) {
	now := time.Now()
	if !p.started {
		p.start, p.started = now, true
	}
	if !p.tty {
		return
	}
	done := pr.FilesDone == pr.Files && pr.Database == ""
	if !p.shown && !p.always && (now.Sub(p.start) < progressAfter || done) {
		return
	}
	if !p.shown {
		p.shown = true
		if !p.always {
			what := fmt.Sprintf("%d files to read", pr.Files)
			if pr.Database != "" && pr.Files == 0 {
				what = pr.Database + "'s database to read"
			}
			fmt.Fprintf(stderr, "fleetcom: indexing your conversations (%s; this happens once, then only what changed)\n", what)
		}
	}
	if !done && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	line := fmt.Sprintf("  %d/%d files  %s/%s", pr.FilesDone, pr.Files, size(pr.BytesDone), size(pr.Bytes))
	if pr.Database != "" {
		// How many sessions the database holds is not known ahead.
		line = fmt.Sprintf("  %s: %d conversations read from its database", pr.Database, pr.Convs)
	}
	if el := now.Sub(p.start); pr.BytesDone > 0 && pr.Database == "" && !done && el > time.Second {
		rest := time.Duration(float64(el) * float64(pr.Bytes-pr.BytesDone) / float64(pr.BytesDone))
		line += fmt.Sprintf("  about %s left", rest.Round(time.Second))
	}
	fmt.Fprintf(stderr, "\r\033[K%s", line)
	if done {
		fmt.Fprint(stderr, "\r\033[K")
	}
}

// size says a number of bytes for people.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// sweepSoon starts a full sweep of the index in the background when one is
// due (like git's automatic gc): a detached `fleetcom __sweep`, of which at
// most one runs at a time. A quick refresh only looks where things change;
// the sweep catches what changed elsewhere, such as an old conversation
// continued by a run fleetcom did not see.
func sweepSoon(x *index.Index) {
	if x == nil || !x.SweepDue() || os.Getenv("FLEETCOM_NO_SWEEP") != "" {
		return
	}
	self, err := os.Executable()
	if err != nil {
		return
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer devnull.Close()
	cmd := exec.Command(self, "__sweep")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = devnull, devnull, devnull
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() == nil {
		cmd.Process.Release()
	}
}

// cmdSweep is the background sweep: nothing happens when another one is
// running.
func cmdSweep(in input) error {
	dir := indexPath()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil
	}
	unlock, err := safe.Lock(filepath.Join(dir, "sweep.lock"), 0)
	if err != nil {
		return nil
	}
	defer unlock()
	st, err := openStore()
	if err != nil {
		return nil
	}
	x, err := catalog.OpenIndex(dir, st, catalog.IndexConfig{Getenv: os.Getenv, Text: !settings().TextOff})
	if err != nil {
		return nil
	}
	defer x.Close()
	x.Check()
	x.Refresh(index.Scope{Full: true, Hot: hotRuns()})
	return nil
}
