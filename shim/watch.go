package shim

import (
	"io"
	"os"
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
// file on the way. A hook or notifier writes the capture file just before
// the TUI redraws (a /clear, a finished turn), so output is the cue to look
// again: no timer polls the file and no inotify descriptor is held (closing
// one costs milliseconds at exit).
//
// The look happens in the copy loop itself, at most once per lookGap within
// a burst of output, and always at the first chunk of a new burst (after
// burstGap of silence: a hook ran, then the TUI drew); it costs one lstat,
// and only a real change wakes the follower. Waking another
// goroutine per cue made the Go scheduler hand processors back and forth
// under the copy loop's system calls, which cost about 10 % of the PTY's
// throughput. A change made after the last look of an output burst is seen
// on the next output (a keystroke's echo is enough) or at exit.
//
// The follower goroutine starts with the first change: a run that never
// changes its capture file (most short ones) never starts it, and starting a
// goroutine while the child starts can cost the shim a new thread.
type tap struct {
	tail    *Tail
	path    string // the capture file; "" when there is none
	live    *live  // told when output comes (activity); nil for none
	changed chan struct{}

	// Only the copy loop touches these, and follow and its stop before and
	// after the copy loop runs.
	next      time.Time
	last      time.Time // the previous chunk's time
	size, mod int64
	onChange  func()
	running   bool
	quit      chan struct{}
	done      chan struct{}
}

// lookGap is the least time between two looks at the capture file within a
// burst of output; burstGap is the silence that ends a burst. A hook is a
// process of its own and takes longer than burstGap to run, so the chunk a
// TUI draws after one always looks.
const (
	lookGap  = 20 * time.Millisecond
	burstGap = time.Millisecond
)

func newTap(tail *Tail, capture string) *tap {
	return &tap{tail: tail, path: capture, changed: make(chan struct{}, 1)}
}

// Write implements io.Writer for the PTY copy loop.
func (t *tap) Write(p []byte) (int, error) {
	t.tail.Write(p)
	if t.path == "" && t.live == nil {
		return len(p), nil
	}
	now := time.Now()
	if t.live != nil {
		t.live.output(now)
	}
	burst := now.Sub(t.last) < burstGap
	t.last = now
	if t.path != "" && (now.After(t.next) || !burst) {
		t.next = now.Add(lookGap)
		fi, err := os.Lstat(t.path)
		if err == nil && fi.Mode().IsRegular() && (fi.Size() != t.size || fi.ModTime().UnixNano() != t.mod) {
			t.size, t.mod = fi.Size(), fi.ModTime().UnixNano()
			t.start()
			select {
			case t.changed <- struct{}{}:
			default: // a change is already pending; one read covers both
			}
		}
	}
	return len(p), nil
}

// follow arranges for onChange to be called, on a goroutine of its own, for
// each change the copy loop sees, until stop is called. Call it before the
// copy loop runs, and stop after it has ended.
func (t *tap) follow(onChange func()) (stop func()) {
	t.onChange = onChange
	return func() {
		if t.running {
			close(t.quit)
			<-t.done
			t.running = false
		}
		t.onChange = nil
	}
}

// start starts the follower, once.
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
