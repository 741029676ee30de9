package main

import (
	"github.com/fleetcom/fleetcom/harness"
	"path/filepath"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/store"
)

// writeRecords writes fleetcom's record of every conversation, as a shim
// leaves it after a run whose exit hint named the ID: through the store
// package itself, so the format is the one fleetcom reads, into
// state/fleetcom (fleetcom's store under XDG_STATE_HOME).
func (w *world) writeRecords() error {
	dir := filepath.Join(w.state, "fleetcom")
	work := make(chan conv)
	errs := make(chan error, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A store of its own per worker: its clock stamps Updated with
			// the time of the record being written.
			var now time.Time
			st, err := store.Open(dir, store.Config{Valid: agents.ValidID, SkipSync: true,
				Now: func() time.Time { return now }})
			if err != nil {
				errs <- err
				return
			}
			for c := range work {
				now = c.end.Add(2 * time.Second)
				if _, err := st.Put(record(c, now)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
	for _, c := range w.convs {
		select {
		case work <- c:
			continue
		case err = <-errs:
		}
		break
	}
	close(work)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}

// record is what a shim records of c after its run ended.
func record(c conv, ended time.Time) store.Record {
	exit := 0
	active := c.end
	program := c.tool
	return store.Record{
		Tool: c.tool, ID: c.id, Cwd: c.cwd, Command: program, Program: program, Source: "hint",
		Started: c.start.Add(-3 * time.Second), Ended: &ended, Active: &active, Exit: &exit,
		Resumable: true, Home: c.home, Title: harness.CleanTitle(c.title),
		Version: c.version, Evidence: []string{"hint", "capture", "pinned"},
	}
}
