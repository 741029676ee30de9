package shim

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// The PTY loop's reads and writes. The master is non-blocking and read until it
// is empty, so bulk output costs one read and one write per chunk and a poll
// only now and then; our terminal is read only after poll said it has input,
// and only while nothing typed earlier waits for the child, so input the child
// is not taking stays with the terminal for whoever reads next.

// bufSize is the copy buffer; a PTY hands over at most a few KiB per read, our
// stdin less, so this is never the limit.
const bufSize = 32 << 10

// readsPerPoll bounds the reads of the master between two polls, so that
// typed input and signals are seen while output streams. Between two such
// rounds the loop also yields to the scheduler: a goroutine that only ever
// makes system calls looks, to the runtime, like one that has run for too
// long, and is preempted in a call every 10 ms, which costs a thread handoff
// and keeps the runtime's monitor polling every 20 µs. Yielding (cheap: nothing
// else is runnable) avoids that; under bulk output it halves the shim's system
// calls.
const readsPerPoll = 16

// stopCap is how much the loop still reads, once the child has exited and the
// drain bound has passed or the child has stopped, when the data keeps
// coming: more than the kernel buffers between the child and us, so the
// child's own last output is never cut, yet bounded, so a grandchild writing
// forever cannot hold Spawn.
const stopCap = 1 << 20

// pumpOut copies the child's output to our terminal and the tail: until the
// master is empty, after readsPerPoll reads, or, with max > 0, once max bytes
// have been read. EIO, or end of file, means every holder of the slave closed
// it: the output is over. When writing to our terminal fails (it is gone) the
// child is hung up.
func (s *session) pumpOut(max int) {
	if s.buf == nil {
		s.buf = make([]byte, bufSize)
	}
	got := 0
	for reads := 0; s.outOpen; reads++ {
		if max == 0 && reads == readsPerPoll {
			runtime.Gosched()
			return
		}
		n, err := unix.Read(s.master, s.buf)
		if n > 0 {
			s.emit(s.buf[:n])
			if got += n; max > 0 && got >= max {
				return
			}
			continue
		}
		switch err {
		case unix.EINTR:
		case unix.EAGAIN:
			return
		default:
			s.outOpen = false
		}
	}
}

// emit passes one chunk of output on.
func (s *session) emit(p []byte) {
	if s.outOK {
		if _, err := s.o.Stdout.Write(p); err != nil {
			s.outOK = false
			defer s.hangup()
		}
	}
	if s.o.Tail != nil {
		_, _ = s.o.Tail.Write(p)
	}
	s.last = p
	if s.aside {
		s.flushAside()
	}
}

// flushAside writes the bytes Aside holds to our terminal, now if the
// child's output so far ends at a safe point, else after a later chunk.
func (s *session) flushAside() {
	if s.exited || midSequence(s.last) {
		s.aside = !s.exited
		return
	}
	s.aside = false
	if p := s.o.Aside.take(); len(p) > 0 && s.outOK {
		if _, err := s.o.Stdout.Write(p); err != nil {
			s.outOK = false
			s.hangup()
		}
	}
}

// pumpIn reads what the user typed and passes it on to the child. End of file
// or EIO means our terminal was hung up: the child is hung up in turn.
func (s *session) pumpIn() {
	if s.inBuf == nil {
		s.inBuf = make([]byte, bufSize)
	}
	n, err := unix.Read(s.in, s.inBuf)
	switch {
	case n > 0:
		s.pending = s.inBuf[:n]
		if s.o.Typed != nil {
			s.o.Typed(s.pending)
		}
		s.flushIn()
	case err == unix.EINTR || err == unix.EAGAIN:
	case err == nil, err == unix.EIO:
		s.hangup()
	default:
		s.fail(fmt.Errorf("read terminal: %w", err))
	}
}

// flushIn writes pending input to the master, as much as it takes now.
func (s *session) flushIn() {
	for len(s.pending) > 0 && s.master >= 0 {
		n, err := unix.Write(s.master, s.pending)
		if n > 0 {
			s.pending = s.pending[n:]
			continue
		}
		switch err {
		case unix.EINTR:
		case unix.EAGAIN:
			return // poll says when the child has taken some
		case unix.EIO:
			// The child's side is closed: it is exiting. What it did not
			// read is lost, as it would be on a terminal.
			s.pending, s.inOpen = nil, false
		default:
			s.fail(fmt.Errorf("write pty: %w", err))
		}
	}
}
