package main

import (
	"fmt"
	"os"
	"sync"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/shim"
	"github.com/fleetcom/fleetcom/store"
)

// openStore opens the session store; each damaged file it skips is reported
// once as a warning.
func openStore() (*store.Store, error) {
	var mu sync.Mutex
	seen := map[string]bool{}
	return store.Open(resolvePaths().StoreDir, store.Config{
		Warn: func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			if !seen[msg] {
				seen[msg] = true
				warnf("%s", msg)
			}
		},
		ResumeLine: resumeLineFor(withOptions()),
	})
}

// withOptions reports whether remembered launch options are replayed: only
// while `[capture] options = true`; without it resume lines stay narrow.
func withOptions() bool {
	cfg, err := shim.LoadConfig(resolvePaths().ConfigFile)
	if err != nil {
		warning(err)
	}
	return cfg.Capture.Options
}

// resumeLineFor rebuilds a record's canonical line, with its remembered
// options or without; the store never trusts the line on disk.
func resumeLineFor(options bool) func(r store.Record) (string, error) {
	return func(r store.Record) (string, error) {
		if !options {
			r.Options = nil
		}
		return resumeLine(r)
	}
}

// resumeLine rebuilds a record's canonical line with its options.
func resumeLine(r store.Record) (string, error) {
	h, ok := harness.ByName(r.Tool)
	if !ok {
		return "", fmt.Errorf("unknown tool %q", r.Tool)
	}
	return harness.ResumeLine(h, r.Program, r.ID, r.Options)
}

// physical resolves a directory the way records store it, refusing what is
// not a directory.
func physical(dir string) (string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("directory %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	return store.Physical(dir)
}

// targetDir is -C DIR, else the current directory, resolved.
func targetDir(flags map[string]string) (string, error) {
	dir := flags["-C"]
	if dir == "" {
		dir = "."
	}
	p, err := physical(dir)
	if err != nil {
		return "", usagef("%v", err)
	}
	return p, nil
}

// refresh completes an open record (its run still going, or its shim
// killed) from the tool's store: the transcript, and with it the title, may
// have appeared since the record was written.
func refresh(r store.Record) store.Record {
	if r.Ended != nil || (r.Resumable && r.Title != "") {
		return r
	}
	h, ok := harness.ByName(r.Tool)
	if !ok {
		return r
	}
	if !r.Resumable {
		r.Resumable = h.Exists(r.Home, r.Cwd, r.ID)
	}
	if r.Resumable && r.Title == "" {
		r.Title = h.Title(r.Home, r.Cwd, r.ID)
	}
	return r
}
