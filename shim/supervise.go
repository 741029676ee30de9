package shim

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/store"
)

// provisionalDelay is how long a child runs before its pinned ID is put in
// the store.
const provisionalDelay = 30 * time.Millisecond

// warmDelay is how long a run that resumes a conversation goes before the
// agent's look at it is read ahead (harness.Warmer): after the CLI's own
// start, which it must not slow, and before most runs end.
var warmDelay = time.Second

// shimLockWait bounds how long a run's write waits for another process
// holding the conversation's lock: past it the write is skipped with a
// warning, and the user gets the prompt back.
const shimLockWait = 2 * time.Second

// job is one accepted run: what to start and how to record it.
type job struct {
	a     harness.Agent
	form  harness.Form
	argv  []string // the command as typed, program word first
	extra []string // arguments after the canonical form (remembered options)
	real  string   // the binary to run; "" for a command string
	probe string   // for a command string: the binary its program word runs
	shell string   // for a command string: the shell and the string
	text  string
	hop   hop
	cfg   config.Config
	dir   string // run there instead of the current directory
}

// supervise instruments, spawns and records one accepted run. Any failure
// of fleetcom's own machinery is a warning and the command runs as typed.
func supervise(j *job, o Options) (Status, error) {
	WarmSignals() // a no-op when the entry point already did
	var (
		warnMu sync.Mutex
		warned []error
	)
	warn := func(err error) {
		warnMu.Lock()
		warned = append(warned, err)
		warnMu.Unlock()
	}
	defer func() {
		warnMu.Lock() // a provisional write may still be finishing
		defer warnMu.Unlock()
		reportOnce(o, warned)
	}()

	if j.dir != "" {
		if err := os.Chdir(j.dir); err != nil {
			return Status{Code: 1}, err
		}
	}
	cwd, err := physicalDir()
	if err != nil {
		warn(err)
	}
	home := j.a.Home(os.Getenv)
	started := time.Now()

	in := harness.Instrumentation{Pinned: j.form.Resume}
	ns, err := newNamespace(o.Runtime, j.a.Assets)
	if err != nil {
		warn(err)
	} else {
		run := harness.Run{Assets: ns.assets, Capture: ns.capture, Home: home, Binary: j.binary(), CacheDir: o.CacheDir,
			Hooks: j.cfg.Hooks(j.a.Name)}
		if in, err = j.a.Instrument(j.form, run); err != nil {
			warn(err)
			ns.remove()
			ns = nil
			in = harness.Instrumentation{Pinned: j.form.Resume}
		}
	}
	defer ns.remove()

	cmd := j.command(in)
	cmd.Env = append(os.Environ(), in.Env...)
	if j.real != "" {
		j.hop.args = argsPrint(cmd.Args[1:])
	} else {
		j.hop.args = argsPrint(append(append([]string(nil), in.Args...), j.canonicalArgs()...))
	}
	cmd.Env = setEnv(cmd.Env, j.a.HopVar(), j.hop.String())

	rec := &recorder{attached: make(chan struct{}), a: j.a, pinned: in.Pinned, targeted: j.form.Resume != "", warn: warn, options: j.options(), base: store.Record{
		Tool: j.a.Name, Cwd: cwd, Command: commandLine(j), Program: j.form.Program,
		Home: home, Started: started,
	}}
	// The capture channel: the namespace's capture file when the agent's
	// instrumentation set it up, else the agent's own live record of its
	// running sessions (read, never written), else nothing to expect.
	hooked := slices.ContainsFunc(in.Env, func(kv string) bool { return strings.HasPrefix(kv, harness.EnvCapture+"=") })
	live := ""
	if j.a.Live != nil && !(ns != nil && hooked) {
		live = j.a.Live(harness.Capture{Home: home, Cwd: cwd, Started: started, Pinned: in.Pinned})
	}
	switch {
	case ns != nil && hooked:
		rec.capture, rec.instrumented = ns.capture, true
	case live != "":
		rec.capture, rec.instrumented = live, true
	case ns != nil:
		rec.capture = ns.capture
	}
	// Everything the child need not wait for is done while it starts, on
	// the goroutine Spawn runs started on (Spawn returns after it): the
	// namespace's marker and sweep, opening the store and preparing its
	// first write. The CLI's version, for the drift tally, is read from
	// the files its installer left (or what doctor learned), never by
	// running anything beside the child, and never waited for.
	version := make(chan string, 1)
	onStart := func(pid int) {
		rec.setPID(pid)
		go func() { version <- harness.Version(j.a, j.binary(), o.CacheDir) }()
		if ns != nil {
			if err := ns.settle(); err != nil {
				warn(err)
			}
		}
		var st *store.Store
		defer func() { rec.attach(st) }()
		if cwd == "" {
			return
		}
		opened, err := store.Open(o.StoreDir, store.Config{Valid: agents.ValidID, SkipSync: true, LockWait: shimLockWait})
		if err != nil {
			warn(err)
			return
		}
		// The file the end of the run writes is created now, off the
		// path to the user's prompt; one left unused is removed.
		opened.Warm()
		st = opened
	}
	defer func() {
		if st := rec.store(); st != nil {
			st.Release()
		}
	}()

	tail := j.cfg.Tail
	if tail <= 0 {
		tail = DefaultTailSize
	}
	t := newTap(NewTail(tail), rec.capture)
	lv, aside := j.live(in, cwd, home, started, rec.base.Command, o, warn)
	t.live = lv
	stopFollow := t.follow(func() {
		data := readCapture(rec.capture)
		rec.captured(data)
		if lv != nil {
			lv.captured(data)
			id, _ := rec.current()
			lv.setID(id)
		}
	})
	// The pinned ID goes into the store once the child has been running for
	// a moment, not before it starts: a file creation costs a millisecond or
	// more on some disks, the user's command should not wait for
	// bookkeeping, and a run that ends at once is recorded at its end anyway.
	// Nothing worth keeping happens in a conversation that fast. The run's
	// live file is written then too, for the same reasons.
	provisional := time.AfterFunc(provisionalDelay, func() {
		rec.starting()
		if lv != nil {
			id, pid := rec.current()
			lv.start(pid, id)
		}
	})
	var warm *time.Timer
	if j.form.Resume != "" && cwd != "" {
		warm = time.AfterFunc(warmDelay, func() { j.a.Warm(home, cwd, j.form.Resume) })
	}
	so := SpawnOptions{
		Stdin: o.Stdin, Stdout: o.Stdout, Stderr: o.Stderr,
		Tail:    t,
		Started: onStart,
		Warn:    warn,
	}
	if lv != nil {
		so.Typed, so.Aside, so.Stopped = lv.typed, aside, lv.suspended
	}
	status, err := Spawn(cmd, so)
	provisional.Stop()
	if warm != nil {
		warm.Stop()
	}
	rec.attach(nil) // a child that never started opened no store
	stopFollow()
	if lv != nil {
		// Once the record is final, the run is over; unless its user quit
		// it, its file stays, saying how it ended, for restore.
		defer lv.finish(fleet.Ending(status.Code, status.Signal, status.Sent))
	}
	if errors.Is(err, ErrStart) {
		rec.abandon() // the child never ran: nothing to record
		return status, err
	}
	if err != nil {
		warn(err)
	}
	v := ""
	select {
	case v = <-version:
	default:
	}
	if id := rec.finished(t.tail.Bytes(), status, v); lv != nil {
		// The conversation as the run's end decided it, for the live file
		// a lost run keeps.
		lv.setID(id)
	}
	return status, nil
}

// live prepares the run's live state, and the notifier its changes go to:
// nil when there is no live folder or the run's directory is unknown.
func (j *job) live(in harness.Instrumentation, cwd, home string, started time.Time, command string,
	o Options, warn func(error)) (*live, *Aside) {
	if o.LiveDir == "" || cwd == "" {
		return nil, nil
	}
	var stater harness.Stater
	if in.States {
		stater, _ = j.a.Behaviour.(harness.Stater)
	}
	var aside *Aside
	if j.cfg.Notify.Terminal != "" {
		aside = &Aside{}
	}
	base := fleet.Run{Tool: j.a.Name, Cwd: cwd, Home: home, Command: command, Program: j.form.Program, Started: started}
	l := newLive(fleet.OpenDir(o.LiveDir), base, stater, newNotifier(j.cfg.Notify, aside, warn), warn)
	l.drawn = ptyPath(o.Stdin, o.Stdout)
	sig, _ := j.a.Behaviour.(harness.Signaller)
	l.signals(sig)
	if stater == nil {
		f, _ := j.a.Behaviour.(harness.Follower)
		l.follows(f)
	}
	return l, aside
}

// command builds the child process of a job.
func (j *job) command(in harness.Instrumentation) *exec.Cmd {
	if j.real == "" {
		text := harness.InstrumentCommand(j.text, j.form, in)
		return &exec.Cmd{Path: j.shell, Args: []string{j.shell, "-c", text}}
	}
	args := make([]string, 0, len(j.argv)+len(in.Args)+len(j.extra))
	args = append(args, j.argv[0])
	args = append(args, in.Args...)
	args = append(args, j.argv[1:]...)
	args = append(args, j.extra...)
	return &exec.Cmd{Path: j.real, Args: args}
}

// options are the launch options a resume of this run replays: those the
// user gave, as the survival rules leave them, or the remembered ones a
// resume was started with.
func (j *job) options() []string {
	if len(j.extra) > 0 {
		return j.extra
	}
	return harness.Surviving(j.a, j.form.Options)
}

// binary is the file the job's program word runs, when known.
func (j *job) binary() string {
	if j.real != "" {
		return j.real
	}
	return j.probe
}

// canonicalArgs are the accepted form's own arguments after the program.
func (j *job) canonicalArgs() []string {
	if j.form.Resume == "" {
		return nil
	}
	args, _ := j.a.ResumeArgs(j.form.Resume)
	return args
}

// commandLine is the command as the user typed it, for display.
func commandLine(j *job) string {
	if j.real == "" {
		return j.text
	}
	words := make([]string, 0, len(j.argv)+len(j.extra))
	for _, a := range append(append([]string(nil), j.argv...), j.extra...) {
		words = append(words, safe.Quote(a))
	}
	return strings.Join(words, " ")
}

// reportOnce passes each distinct warning on once; a failure of the live
// file only when nothing else failed.
func reportOnce(o Options, warned []error) {
	seen := map[string]bool{}
	others := slices.ContainsFunc(warned, func(err error) bool { return !errors.As(err, new(liveError)) })
	for _, err := range warned {
		if others && errors.As(err, new(liveError)) {
			continue
		}
		if msg := err.Error(); !seen[msg] {
			seen[msg] = true
			o.warn(err)
		}
	}
}
