package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/fleetcom/fleetcom/fleet"
)

// watchStatus is `status --watch`: the table redrawn in place, on the
// alternate screen, whenever the live folder changes (inotify where there
// is one) and once a second to age the durations and drop runs whose
// process died without a word; q, Ctrl-C or Ctrl-D ends it, and the
// terminal is given back as it was on every way out.
//
// Nothing the loop waits on is asked on its way: this machine's runs (and
// their tmux servers) and each host are asked in the background (watcher),
// and the loop draws their last answers, so a key or a signal is read at
// once whatever a tmux server or an ssh is doing.
func watchStatus(live fleet.Dir, hosts []string) error {
	in, out := int(os.Stdin.Fd()), int(os.Stdout.Fd())
	if !term.IsTerminal(in) || !term.IsTerminal(out) {
		return usageError{msg: "status --watch needs a terminal", hint: "without one, use 'fleetcom status --json'"}
	}
	w, err := newWatcher(live, hosts)
	if err != nil {
		return err
	}
	// Deferred first, so it runs last: the terminal is given back before
	// the askers are waited for and the ssh connections closed.
	defer w.stop()
	saved, err := term.MakeRaw(in)
	if err != nil {
		return err
	}
	// Signals that would end fleetcom end the loop instead, so the
	// terminal is restored first; they wake the loop at once.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGWINCH)
	defer signal.Stop(sigs)
	var caught sync.Mutex
	var ended syscall.Signal
	go func() {
		for s := range sigs {
			if s != syscall.SIGWINCH {
				caught.Lock()
				if ended == 0 {
					ended = s.(syscall.Signal)
				}
				caught.Unlock()
			}
			w.wake()
		}
	}()
	os.Stdout.WriteString("\x1b[?1049h\x1b[?25l")
	defer func() {
		os.Stdout.WriteString("\x1b[?25h\x1b[?1049l")
		term.Restore(in, saved)
	}()
	os.MkdirAll(live.Path(), 0o700)
	events := liveEvents(live.Path())
	if events >= 0 {
		defer unix.Close(events)
	}
	w.start()
	tick := time.Now().Add(time.Second)
	for {
		w.draw()
		fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}, {Fd: int32(w.wakeR), Events: unix.POLLIN}}
		if events >= 0 {
			fds = append(fds, unix.PollFd{Fd: int32(events), Events: unix.POLLIN})
		}
		_, err := unix.Poll(fds, max(0, int(time.Until(tick)/time.Millisecond)))
		if err != nil && !errors.Is(err, unix.EINTR) {
			return err
		}
		caught.Lock()
		sig := ended
		caught.Unlock()
		if sig != 0 {
			return exitStatus(128 + int(sig))
		}
		if fds[0].Revents != 0 {
			var b [64]byte
			n, err := unix.Read(in, b[:])
			if n <= 0 && err != unix.EINTR && err != unix.EAGAIN {
				return nil // the terminal is gone
			}
			if bytes.ContainsAny(b[:n], "qQ\x03\x04") {
				return nil
			}
		}
		if fds[1].Revents != 0 {
			drain(w.wakeR)
		}
		if len(fds) > 2 && fds[2].Revents != 0 {
			drain(events)
			w.askLocal()
		}
		if now := time.Now(); !now.Before(tick) {
			// A second has passed: the ages change, and runs may have
			// died unseen.
			w.askLocal()
			tick = now.Add(time.Second)
		}
	}
}

// hostEvery is the pause between two asks of one host, after its answer:
// its runs change at the pace of a person, and each ask runs fleetcom
// there.
const hostEvery = 2 * time.Second

// watcher asks, in the background, this machine for its runs (whenever
// askLocal says) and each host for its own (every hostEvery), and keeps
// their last answers for the loop to draw; each answer wakes the loop.
type watcher struct {
	live  fleet.Dir
	hosts []string
	links []*fleet.Link
	sock  string // the folder of the links' control sockets, "" for none

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	kick   chan struct{}

	wakeR, wakeW int

	mu      sync.Mutex
	local   []fleet.Status
	read    bool // local holds an answer
	answers []answer
	closed  bool // the wake pipe is closed
}

func newWatcher(live fleet.Dir, hosts []string) (*watcher, error) {
	var p [2]int
	syscall.ForkLock.RLock() // close-on-exec before anything is forked
	err := unix.Pipe(p[:])
	if err == nil {
		unix.CloseOnExec(p[0])
		unix.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, err
	}
	unix.SetNonblock(p[0], true)
	unix.SetNonblock(p[1], true)
	w := &watcher{live: live, hosts: hosts, wakeR: p[0], wakeW: p[1], kick: make(chan struct{}, 1),
		answers: make([]answer, len(hosts))}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	if len(hosts) > 0 {
		w.sock = controlDir()
	}
	for i, h := range hosts {
		w.links = append(w.links, fleet.NewLink(h, socketIn(w.sock, i)))
	}
	return w, nil
}

// start begins asking.
func (w *watcher) start() {
	w.wg.Add(1)
	go w.askingLocal()
	for i := range w.hosts {
		w.wg.Add(1)
		go w.askingHost(i)
	}
	w.askLocal()
}

// askLocal has this machine's runs read again, soon.
func (w *watcher) askLocal() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// askingLocal reads this machine's runs each time askLocal says.
func (w *watcher) askingLocal() {
	defer w.wg.Done()
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-w.kick:
		}
		runs := localRuns(w.ctx, w.live)
		w.mu.Lock()
		w.local, w.read = runs, true
		w.mu.Unlock()
		w.wake()
	}
}

// askingHost asks host i, again hostEvery after each answer.
func (w *watcher) askingHost(i int) {
	defer w.wg.Done()
	for {
		runs, err := w.links[i].Ask(w.ctx)
		if w.ctx.Err() != nil {
			return
		}
		w.mu.Lock()
		w.answers[i] = answer{runs: runs, err: err, done: true}
		w.mu.Unlock()
		w.wake()
		select {
		case <-w.ctx.Done():
			return
		case <-time.After(hostEvery):
		}
	}
}

// wake makes the loop draw.
func (w *watcher) wake() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		unix.Write(w.wakeW, []byte{0})
	}
}

// view is what to draw now: the last answers; read is false until this
// machine's runs have been read once.
func (w *watcher) view() (v view, read bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	local := append([]fleet.Status(nil), w.local...)
	return merge(local, w.hosts, append([]answer(nil), w.answers...)), w.read
}

// draw clears the screen and prints the table, in raw mode (CR LF).
func (w *watcher) draw() {
	v, read := w.view()
	width, _ := terminalWidth()
	var b bytes.Buffer
	switch {
	case !read && len(v.failed) == 0:
		b.WriteString("reading the runs\n")
	case len(v.all) == 0 && len(v.failed) == 0:
		b.WriteString("no conversation is running under the shims\n")
	default:
		printStatus(&b, v, width, time.Now())
	}
	b.WriteString("\n" + time.Now().Format("15:04:05") + "  q to quit\n")
	text := bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte("\x1b[K\r\n"))
	os.Stdout.Write(append([]byte("\x1b[H"), append(text, []byte("\x1b[J")...)...))
}

// stopWait bounds the wait for the askers once told to stop: each kills
// what it runs at once, and waits at most bounded.Grace for its pipes.
const stopWait = 5 * time.Second

// stop ends the asking: what runs is killed, the ssh connections are
// closed, and their sockets' folder removed.
func (w *watcher) stop() {
	w.cancel()
	done := make(chan struct{})
	go func() { w.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(stopWait):
	}
	var wg sync.WaitGroup
	for _, l := range w.links {
		wg.Add(1)
		go func() { defer wg.Done(); l.Close() }()
	}
	wg.Wait()
	if w.sock != "" {
		os.RemoveAll(w.sock)
	}
	w.mu.Lock()
	w.closed = true
	unix.Close(w.wakeR)
	unix.Close(w.wakeW)
	w.mu.Unlock()
}
