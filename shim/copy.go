package shim

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// The copy loops use their descriptors directly (read, write and poll(2)) rather
// than through the runtime poller: a goroutine blocked in poll wakes in its own
// thread the moment a byte arrives, which keeps a keystroke's round trip short,
// and a wake pipe lets Spawn stop a loop at a known point, so that no loop ever
// touches a descriptor after it is closed.

// bufSize is the copy buffer; a PTY hands over at most a few KiB per read, our
// stdin less, so this is never the limit.
const bufSize = 32 << 10

// stopCap is how much a loop that was asked to stop still reads when the data
// keeps coming: more than the kernel buffers between the child and us, so the
// child's own last output is never cut, yet bounded, so a grandchild writing
// forever cannot hold Spawn.
const stopCap = 1 << 20

// yieldEvery paces the output loop's visits to the scheduler. A goroutine that
// only ever makes system calls looks, to the runtime, like one that has run for
// too long: every 10 ms it is preempted in a call, which costs a thread handoff
// and keeps the runtime's monitor polling every 20 µs. Yielding every few reads
// (cheap: nothing else is runnable) avoids that; under bulk output it halves the
// shim's system calls.
const yieldEvery = 16

var errStopped = errors.New("copy loop stopped")

// loop is one copy goroutine's control: a stop flag, the pipe that wakes it
// from poll, and a channel closed when it has returned.
type loop struct {
	stop     atomic.Bool
	wr, wake int // the wake pipe: stop
	kw, kick int // the kick pipe: flush
	done     chan struct{}
	running  bool // run was called; owned by Spawn's goroutine

	mu   sync.Mutex
	acks []chan struct{} // flush requests, answered when the source is empty
}

func newLoop() (*loop, error) {
	l := &loop{done: make(chan struct{})}
	var err error
	if l.wake, l.wr, err = newPipe(); err != nil {
		return nil, fmt.Errorf("wake pipe: %w", err)
	}
	if l.kick, l.kw, err = newPipe(); err != nil {
		unix.Close(l.wake)
		unix.Close(l.wr)
		return nil, fmt.Errorf("wake pipe: %w", err)
	}
	return l, nil
}

// flush waits, at most bound, until the output loop has written out everything
// its source held when flush was called.
func (l *loop) flush(bound time.Duration) {
	ack := make(chan struct{})
	l.mu.Lock()
	l.acks = append(l.acks, ack)
	l.mu.Unlock()
	_, _ = unix.Write(l.kw, []byte{0})
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-ack:
	case <-l.done:
	case <-t.C:
	}
}

// flushed answers the flush requests; the loop calls it when its source is
// empty.
func (l *loop) flushed() {
	l.mu.Lock()
	for _, a := range l.acks {
		close(a)
	}
	l.acks = nil
	l.mu.Unlock()
}

// halt asks the loop to stop; it is safe to call more than once.
func (l *loop) halt() {
	if !l.stop.Swap(true) {
		_, _ = unix.Write(l.wr, []byte{0})
	}
}

// close releases the wake pipe; call it only after done is closed.
func (l *loop) close() {
	for _, fd := range []int{l.wake, l.wr, l.kick, l.kw} {
		_ = unix.Close(fd)
	}
}

// run runs f in a goroutine, turning a panic into an error sent to fail.
func (l *loop) run(name string, fail chan<- error, f func() error) {
	l.running = true
	go func() {
		defer close(l.done)
		defer func() {
			if r := recover(); r != nil {
				report(fail, fmt.Errorf("%s: panic: %v", name, r))
			}
		}()
		if err := f(); err != nil {
			report(fail, fmt.Errorf("%s: %w", name, err))
		}
	}()
}

func report(fail chan<- error, err error) {
	select {
	case fail <- err:
	default:
	}
}

// wait blocks until fd is ready for ev, or the loop is woken (errStopped), or
// kicked, when kicks is set (errKicked).
func (l *loop) wait(fd int, ev int16, kicks bool) error {
	kick := int32(-1) // poll skips a negative descriptor
	if kicks {
		kick = int32(l.kick)
	}
	for {
		p := [3]unix.PollFd{
			{Fd: int32(fd), Events: ev},
			{Fd: int32(l.wake), Events: unix.POLLIN},
			{Fd: kick, Events: unix.POLLIN},
		}
		_, err := unix.Poll(p[:], -1)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fmt.Errorf("poll: %w", err)
		}
		if p[1].Revents != 0 || l.stop.Load() {
			return errStopped
		}
		if p[2].Revents != 0 {
			var b [64]byte
			_, _ = unix.Read(l.kick, b[:])
			return errKicked
		}
		if p[0].Revents != 0 {
			return nil
		}
	}
}

var errKicked = errors.New("kicked")

// errGone means our terminal was hung up: reads return end of file or EIO.
var errGone = errors.New("terminal hung up")

// copyIn copies what the user types from fd in to the PTY master. It polls
// before reading, so it never sits in a read that a stop cannot interrupt, and
// input not yet read stays with the terminal for whoever reads next.
func (l *loop) copyIn(in, master int) error {
	buf := make([]byte, bufSize)
	for {
		if err := l.wait(in, unix.POLLIN, false); err != nil {
			return ignoreStop(err)
		}
		n, err := unix.Read(in, buf)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case n == 0 && err == nil, err == unix.EIO:
			return errGone
		case err != nil:
			return fmt.Errorf("read terminal: %w", err)
		}
		if err := l.writeAll(master, buf[:n]); err == unix.EIO {
			return nil // the child's side is closed: it has exited
		} else if err != nil {
			return ignoreStop(err)
		}
	}
}

// writeAll writes p to the non-blocking descriptor fd, waiting while it is full.
func (l *loop) writeAll(fd int, p []byte) error {
	for len(p) > 0 {
		n, err := unix.Write(fd, p)
		if n > 0 {
			p = p[n:]
			continue
		}
		switch err {
		case unix.EINTR:
		case unix.EAGAIN:
			if err := l.wait(fd, unix.POLLOUT, false); err != nil {
				return err
			}
		case unix.EIO:
			return err
		default:
			return fmt.Errorf("write pty: %w", err)
		}
	}
	return nil
}

// copyOut copies the child's output from the non-blocking PTY master to out
// and tail until the PTY reports EIO (every holder of the slave closed it) or
// the loop is stopped. It reads first and polls only when nothing is there, so
// bulk output costs one read and one write per chunk. A stopped loop still
// takes what is already buffered, up to stopCap. When writing to out fails
// (our terminal is gone) it calls gone once and goes on feeding tail.
func (l *loop) copyOut(master int, out, tail io.Writer, gone func()) error {
	buf := make([]byte, bufSize)
	outOK := true
	after := 0 // bytes read since the stop request
	for reads := 1; ; reads++ {
		if reads%yieldEvery == 0 {
			runtime.Gosched()
		}
		n, err := unix.Read(master, buf)
		if n > 0 {
			if outOK {
				if _, werr := out.Write(buf[:n]); werr != nil {
					outOK = false
					gone()
				}
			}
			if tail != nil {
				_, _ = tail.Write(buf[:n])
			}
			if l.stop.Load() {
				if after += n; after >= stopCap {
					return nil
				}
			}
			continue
		}
		switch err {
		case unix.EINTR:
		case unix.EAGAIN:
			l.flushed()
			if l.stop.Load() {
				return nil
			}
			if err := l.wait(master, unix.POLLIN, true); err != nil && err != errKicked {
				return ignoreStop(err)
			}
		default: // EIO, or end of file: the slave side is closed
			return nil
		}
	}
}

// ignoreStop turns the expected end of a stopped loop into success.
func ignoreStop(err error) error {
	if errors.Is(err, errStopped) {
		return nil
	}
	return err
}
