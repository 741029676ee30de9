package shim

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// maxCapture bounds how much of a capture file is read: the newest payloads
// are at its end, and a runaway file must not cost the shim its memory.
const maxCapture = 8 << 20

// readCapture returns the complete lines at the end of a capture file, at
// most maxCapture bytes of them. It refuses anything but a regular file, so a
// symlink or FIFO put in its place is never followed or blocked on.
func readCapture(path string) []byte {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	size := fi.Size()
	off := int64(0)
	if size > maxCapture {
		off = size - maxCapture
	}
	data, err := io.ReadAll(io.NewSectionReader(f, off, size-off))
	if err != nil {
		return nil
	}
	if off > 0 {
		// Drop the partial line the cut left at the start.
		for i, c := range data {
			if c == '\n' {
				return data[i+1:]
			}
		}
		return nil
	}
	return data
}

// tap passes the child's output on to the tail and looks at the capture
// file on the way. A hook or notifier writes the capture file around the
// time the TUI redraws (a /clear, a finished turn), so output is the cue to
// look: no timer polls the file while nothing happens and no inotify
// descriptor is held (closing one costs milliseconds at exit).
//
// The look happens in the copy loop itself, at most once per lookGap within
// a burst of output, and always at the first chunk of a new burst (after
// burstGap of silence: a hook ran, then the TUI drew); it costs one lstat,
// and only a real change wakes the follower. Waking another goroutine per
// cue made the Go scheduler hand processors back and forth under the copy
// loop's system calls, which cost about 10 % of the PTY's throughput.
//
// A notifier can also finish after the TUI's last redraw: Codex starts its
// notifier as a turn ends and then sits idle, drawing nothing, so a change
// that waits for output waits for the user's next keystroke, and until
// then status shows no conversation and a crash leaves none to restore.
// So once output stops, a timer looks a few more times (settleGaps after
// the last chunk) and then sleeps until output comes again.
//
// The follower goroutine starts with the first change: a run that never
// changes its capture file (most short ones) never starts it, and starting a
// goroutine while the child starts can cost the shim a new thread.
type tap struct {
	tail    *Tail
	clock   clock
	path    string // the capture file; "" when there is none
	live    *live  // told when output comes (activity); nil for none
	changed chan struct{}

	// Only the copy loop touches these.
	next time.Time
	last time.Time // the previous chunk's time

	lastOut atomic.Int64 // the last chunk's time, for the settle timer

	// mu guards what the copy loop, the settle timer and stop share.
	mu        sync.Mutex
	size, mod int64
	onChange  func()
	running   bool
	stopped   bool
	quit      chan struct{}
	done      chan struct{}
	settle    timer
	settleAt  int // the settle look due next
}

// lookGap is the least time between two looks at the capture file within a
// burst of output; burstGap is the silence that ends a burst. A hook is a
// process of its own and takes longer than burstGap to run, so the chunk a
// TUI draws after one always looks. settleGaps are the silences, counted
// from the last chunk, after which the file is looked at once more: a
// notifier takes milliseconds on an idle machine and can take seconds on a
// loaded one.
const (
	lookGap  = 20 * time.Millisecond
	burstGap = time.Millisecond
)

var settleGaps = [...]time.Duration{200 * time.Millisecond, time.Second, 4 * time.Second, 15 * time.Second}

func newTap(tail *Tail, capture string) *tap {
	return &tap{tail: tail, clock: systemClock{}, path: capture, changed: make(chan struct{}, 1)}
}

// Write implements io.Writer for the PTY copy loop.
func (t *tap) Write(p []byte) (int, error) {
	t.tail.Write(p)
	if t.path == "" && t.live == nil {
		return len(p), nil
	}
	now := t.clock.Now()
	if t.live != nil {
		t.live.output(now)
		t.live.words(p)
	}
	if t.path == "" {
		return len(p), nil
	}
	t.lastOut.Store(now.UnixNano())
	burst := now.Sub(t.last) < burstGap
	t.last = now
	if now.After(t.next) || !burst {
		t.next = now.Add(lookGap)
		t.mu.Lock()
		t.look()
		if !burst {
			t.arm()
		}
		t.mu.Unlock()
	}
	return len(p), nil
}

// look compares the capture file with what was seen last and wakes the
// follower on a change. The caller holds t.mu.
func (t *tap) look() {
	fi, err := os.Lstat(t.path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == t.size && fi.ModTime().UnixNano() == t.mod {
		return
	}
	t.size, t.mod = fi.Size(), fi.ModTime().UnixNano()
	t.start()
	select {
	case t.changed <- struct{}{}:
	default: // a change is already pending; one read covers both
	}
}

// arm starts the settle looks over from the first, at each burst of output.
// The caller holds t.mu.
func (t *tap) arm() {
	if t.stopped {
		return
	}
	t.settleAt = 0
	if t.settle == nil {
		t.settle = t.clock.AfterFunc(settleGaps[0], t.settled)
	} else {
		t.settle.Reset(settleGaps[0])
	}
}

// settled runs on the settle timer: when the output has been silent for the
// gap due, it looks at the capture file and waits for the next gap; output
// in between moves the look on. After the last gap the timer sleeps until
// the next burst of output arms it again.
func (t *tap) settled() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	quiet := t.clock.Now().Sub(time.Unix(0, t.lastOut.Load()))
	if gap := settleGaps[t.settleAt]; quiet < gap {
		t.settle.Reset(gap - quiet)
		return
	}
	t.look()
	if t.settleAt++; t.settleAt < len(settleGaps) {
		t.settle.Reset(settleGaps[t.settleAt] - quiet)
	}
}

// follow arranges for onChange to be called, on a goroutine of its own, for
// each change seen, until stop is called. Call it before the copy loop
// runs, and stop after it has ended.
func (t *tap) follow(onChange func()) (stop func()) {
	t.mu.Lock()
	t.onChange = onChange
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		t.stopped = true
		if t.settle != nil {
			t.settle.Stop()
		}
		running := t.running
		t.running = false
		t.onChange = nil
		t.mu.Unlock()
		if running {
			close(t.quit)
			<-t.done
		}
	}
}

// start starts the follower, once. The caller holds t.mu.
func (t *tap) start() {
	if t.running || t.onChange == nil {
		return
	}
	t.running = true
	t.quit, t.done = make(chan struct{}), make(chan struct{})
	onChange, quit, done := t.onChange, t.quit, t.done
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				// A change seen just before the child exited is still
				// read: a live channel may forget the session at exit.
				select {
				case <-t.changed:
					onChange()
				default:
				}
				return
			case <-t.changed:
				onChange()
			}
		}
	}()
}
