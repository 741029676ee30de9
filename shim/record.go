package shim

import (
	"errors"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/store"
)

// recorder keeps the store in step with one run. The pinned or targeted ID
// is recorded as soon as the child starts and the record follows the
// captured ID while it runs, so killing the shim or closing the terminal
// loses nothing the shim already knew. At exit the reference design's
// precedence decides: the exit hint, then the capture, then the pinned ID,
// then on-disk correlation only when nothing else identified the run.
type recorder struct {
	st      *store.Store // nil: nothing is recorded (yet: see attach)
	a       harness.Agent
	base    store.Record // tool, cwd, command, program, home, started
	capture string       // capture file, "" when uninstrumented
	pinned  string
	// targeted: pinned is the ID a resume form named, which is recorded
	// only when the tool really holds that conversation.
	targeted bool
	warn     func(error)

	mu         sync.Mutex
	open       string // the ID currently recorded as running
	openSource string
	fresh      bool // the pinned record did not exist before this run
	done       bool // finished or abandoned: nothing provisional any more
	warned     bool // a write already failed and was reported
	options    []string
	// instrumented: the run's capture channel was set up (the agent asked
	// for the capture file), so it should answer.
	instrumented bool
	final        *finalRun // set by finished, for the last write
	pid          int       // the child's, once started
	seen         string    // the last ID the capture channel named

	// attached is closed once the store is known (attach); nil when the
	// recorder was made with its store.
	attached   chan struct{}
	attachOnce sync.Once
}

// attach gives the recorder its store, opened once the child started, or
// says that none will come (nil). Only the first call counts.
func (r *recorder) attach(st *store.Store) {
	r.attachOnce.Do(func() {
		r.mu.Lock()
		r.st = st
		r.mu.Unlock()
		if r.attached != nil {
			close(r.attached)
		}
	})
}

// store is the recorder's store, nil when there is none.
func (r *recorder) store() *store.Store {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st
}

// current is the conversation the run has open now, and the child's
// process ID.
func (r *recorder) current() (id string, pid int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.open, r.pid
}

// setPID notes the child's process ID once it has started.
func (r *recorder) setPID(pid int) {
	r.mu.Lock()
	r.pid = pid
	r.mu.Unlock()
}

// captureContext is what a capture channel's reader knows of the run; the
// caller holds r.mu.
func (r *recorder) captureContext() harness.Capture {
	return harness.Capture{Home: r.base.Home, Cwd: r.base.Cwd, PID: r.pid, Started: r.base.Started, Pinned: r.pinned}
}

// put writes one record, reporting failures as warnings, and returns
// whether the conversation is resumable.
func (r *recorder) put(id, source string, ended *time.Time, exit *int) bool {
	if r.st == nil || !r.a.ID.Valid(id) {
		return false
	}
	rec := r.base
	rec.ID = id
	rec.Source = source
	rec.Ended = ended
	rec.Exit = exit
	rec.Options = r.options
	rec.Resumable = r.a.Exists(rec.Home, rec.Cwd, id)
	if r.targeted && id == r.pinned && !rec.Resumable {
		return false // a resume of something that is not there: nothing to keep
	}
	if ended != nil && rec.Resumable {
		rec.Title = r.a.Title(rec.Home, rec.Cwd, id)
		// Its last message, as its agent's store dates it: what "newest"
		// orders by.
		if at := harness.LastActive(r.a, rec.Home, rec.Cwd, id); !at.IsZero() {
			rec.Active = &at
		}
	}
	if r.final != nil && ended != nil {
		rec.Version, rec.Evidence, rec.Disagreed = r.final.version, r.final.evidence, r.final.disagreed
	}
	if _, err := r.st.Put(rec); err != nil && !r.warned {
		// One warning per run: a store that failed once (a full or
		// read-only disk) fails the same way on the next write.
		r.warned = true
		r.warn(err)
	}
	return rec.Resumable
}

// starting records the pinned or targeted ID of a run that has started, so
// it is in the store before the child can do anything worth keeping, and
// prepares the store's next write.
func (r *recorder) starting() {
	if r.attached != nil {
		<-r.attached
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return // the run ended first: its end is recorded instead
	}
	if r.st != nil {
		defer r.st.Warm() // the exit's write then creates no file
	}
	if r.pinned == "" {
		return
	}
	if r.st != nil {
		_, existed, _ := r.st.Get(r.base.Tool, r.pinned)
		r.fresh = !existed
	}
	r.open, r.openSource = r.pinned, "pinned"
	r.put(r.pinned, "pinned", nil, nil)
}

// abandon undoes starting when the child could not be started at all.
func (r *recorder) abandon() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done = true
	if r.st != nil && r.fresh && r.open == r.pinned {
		r.st.Forget(r.base.Tool, r.pinned)
	}
}

// captured follows the capture file, whose data is given: when it names
// another conversation, the previous one is closed and the new one recorded
// as running.
func (r *recorder) captured(data []byte) {
	r.mu.Lock()
	c := r.captureContext()
	r.mu.Unlock()
	id := r.a.ParseCapture(data, c)
	if id == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = id
	if id == r.open {
		return
	}
	if r.open != "" {
		now := time.Now()
		r.put(r.open, r.openSource, &now, nil)
	}
	r.open, r.openSource = id, "capture"
	r.put(id, "capture", nil, nil)
}

// evidence is what each channel said at the end of a run.
type evidence struct {
	hint, captured, fs string
	banner             bool // the CLI printed its exit banner
}

// finished records how the run ended, and notes how each evidence channel
// fared in the drift tally. version is the CLI's, "" when unknown. It
// returns the conversation the run ended in, "" when none is known.
func (r *recorder) finished(tail []byte, st Status, version string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done = true
	ev := evidence{hint: r.a.ScrapeExit(tail), banner: r.a.ExitBanner(tail)}
	if r.capture != "" {
		ev.captured = r.a.ParseCapture(readCapture(r.capture), r.captureContext())
	}
	if ev.captured == "" {
		// A live channel forgets a session when the CLI exits: what it
		// said last while the run went on is its answer.
		ev.captured = r.seen
	}
	id, source := r.decide(&ev)
	now := time.Now()
	code := st.Code
	if r.open != "" && r.open != id {
		r.put(r.open, r.openSource, &now, &code)
	}
	if id == "" {
		return ""
	}
	r.final = &finalRun{version: version, evidence: ev.channels(r.pinned), disagreed: ev.against(id, r.pinned)}
	resumable := r.put(id, source, &now, &code)
	if r.st == nil {
		return id
	}
	run := store.Run{Time: now, Version: version, Hint: ev.hintOutcome(id), Capture: store.NotExpected}
	if r.instrumented && !(r.targeted && r.a.CapturesNewOnly && ev.captured == "") {
		run.Capture = ev.captureOutcome(id, resumable && (ev.captured != "" || r.turned(id)))
	}
	if err := r.st.NoteRun(r.a.Name, run); err != nil && !r.warned {
		r.warned = true
		r.warn(err)
	}
	return id
}

// turned reports whether conversation id changed while the run went on, by
// the modification time of its files. A run without a turn owes the capture
// channel nothing, so its silence there is no drift: measured, Codex resumed
// and quit before a prompt notifies nobody and leaves its rollout as it
// was, and Claude stopped at its folder-trust prompt runs no hook and leaves
// its transcript as it was. When the files cannot tell, the run counts as
// one with a turn.
func (r *recorder) turned(id string) bool {
	f, err := harness.LookupIn(r.a, r.base.Home, r.base.Cwd, id)
	switch {
	case errors.Is(err, harness.ErrNoConversation) || errors.Is(err, harness.ErrEmptyConversation):
		// Nothing was said: Codex quit before a prompt prints its resume
		// line and, with hooks, may leave a rollout without a message.
		return false
	case err != nil || f.Modified.IsZero():
		return true
	}
	return !f.Modified.Before(r.base.Started)
}

// finalRun is what the record of a finished run keeps about its evidence.
type finalRun struct {
	version   string
	evidence  []string
	disagreed []string
}

// decide applies the ID precedence. The exit hint is text the child
// printed, so it is taken only when it agrees with what the run already
// knows (the captured or pinned ID) or its conversation belongs to the
// run's directory: a child that prints another project's ID does not make
// it this directory's newest conversation.
func (r *recorder) decide(ev *evidence) (id, source string) {
	if h := ev.hint; h != "" &&
		(h == ev.captured || h == r.pinned || r.a.Adoptable(r.base.Home, r.base.Cwd, h) == nil) {
		return h, "hint"
	}
	if ev.captured != "" {
		return ev.captured, "capture"
	}
	if r.pinned != "" {
		return r.pinned, "pinned"
	}
	if ev.fs = r.a.Correlate(r.base.Home, r.base.Cwd, r.base.Started); ev.fs != "" {
		return ev.fs, "fs"
	}
	return "", ""
}

// channels lists the channels that named an ID, in precedence order.
func (ev evidence) channels(pinned string) []string {
	var out []string
	for _, c := range []struct{ name, id string }{{"hint", ev.hint}, {"capture", ev.captured}, {"pinned", pinned}, {"fs", ev.fs}} {
		if c.id != "" {
			out = append(out, c.name)
		}
	}
	return out
}

// against lists the channels that named another ID than id.
func (ev evidence) against(id, pinned string) []string {
	var out []string
	for _, c := range []struct{ name, id string }{{"hint", ev.hint}, {"capture", ev.captured}, {"pinned", pinned}, {"fs", ev.fs}} {
		if c.id != "" && c.id != id {
			out = append(out, c.name)
		}
	}
	return out
}

// hintOutcome: a banner without a readable hint is the hint channel gone
// silent, the sign of a CLI that changed how it prints it.
func (ev evidence) hintOutcome(id string) store.Outcome {
	switch {
	case ev.hint == id:
		return store.Agreed
	case ev.hint != "":
		return store.Disagreed
	case ev.banner:
		return store.Silent
	}
	return store.NotExpected
}

// captureOutcome: an instrumented run whose conversation exists should have
// captured it.
func (ev evidence) captureOutcome(id string, resumable bool) store.Outcome {
	switch {
	case ev.captured == id:
		return store.Agreed
	case ev.captured != "":
		return store.Disagreed
	case resumable:
		return store.Silent
	}
	return store.NotExpected
}
