package shim

import (
	"io"
	"os"
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

// tap passes the child's output on to the tail and, without blocking the
// copy, tells a follower that the screen changed. A hook or notifier writes
// the capture file just before the TUI redraws (a /clear, a finished turn),
// so output is the cue to look at the file again: no timer polls it, and no
// inotify descriptor is held (closing one costs milliseconds at exit).
//
// Under streaming output the cue is rationed to one per lookGap, without
// waking anything per write: a write while a look is recent only marks the
// tap dirty, and the end of the gap turns that mark into one more cue, so
// the last change is never missed.
type tap struct {
	tail    *Tail
	changed chan struct{}
	busy    atomic.Bool // a cue was sent less than lookGap ago
	dirty   atomic.Bool // output arrived while busy
}

// lookGap is the least time between two looks at the capture file.
const lookGap = 20 * time.Millisecond

func newTap(tail *Tail) *tap {
	return &tap{tail: tail, changed: make(chan struct{}, 1)}
}

// Write implements io.Writer for the PTY copy loop.
func (t *tap) Write(p []byte) (int, error) {
	t.tail.Write(p)
	t.dirty.Store(true)
	t.cue()
	return len(p), nil
}

// cue sends one cue unless one went out less than lookGap ago.
func (t *tap) cue() {
	if !t.dirty.Load() || !t.busy.CompareAndSwap(false, true) {
		return
	}
	t.dirty.Store(false)
	select {
	case t.changed <- struct{}{}:
	default:
	}
	time.AfterFunc(lookGap, func() {
		t.busy.Store(false)
		t.cue()
	})
}

// follow calls onChange whenever the capture file's size or modification
// time moved since the last look, until stopped.
func (t *tap) follow(path string, onChange func()) (stop func()) {
	done, quit := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var size, mod int64
		for {
			select {
			case <-quit:
				return
			case <-t.changed:
			}
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if fi.Size() != size || fi.ModTime().UnixNano() != mod {
				size, mod = fi.Size(), fi.ModTime().UnixNano()
				onChange()
			}
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}
