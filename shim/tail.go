package shim

import "sync"

// DefaultTailSize is how much of a child's terminal output the shim keeps for
// reading the exit hint: far more than any hint, small next to a terminal's
// scrollback.
const DefaultTailSize = 256 << 10

// Tail is an io.Writer that keeps only the last n bytes written to it, in a
// ring allocated once, so memory does not grow with output volume. It is safe
// for concurrent use; the cost is one uncontended lock per write, which is
// noise next to the read and write syscalls around every write on the copy
// path.
type Tail struct {
	mu   sync.Mutex
	buf  []byte
	pos  int  // where the next byte goes
	full bool // the ring has wrapped at least once
	tot  int64
}

// NewTail returns a Tail keeping the last n bytes (at least one).
func NewTail(n int) *Tail {
	if n < 1 {
		n = 1
	}
	return &Tail{buf: make([]byte, n)}
}

// Write keeps the end of p; it never fails and never allocates. A nil Tail
// discards p.
func (t *Tail) Write(p []byte) (int, error) {
	n := len(p)
	if t == nil {
		return n, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tot += int64(n)
	size := len(t.buf)
	if n >= size {
		copy(t.buf, p[n-size:])
		t.pos, t.full = 0, true
		return n, nil
	}
	c := copy(t.buf[t.pos:], p)
	if c < n {
		copy(t.buf, p[c:])
		t.full = true
	}
	t.pos += n
	if t.pos >= size {
		t.pos -= size
		t.full = true
	}
	return n, nil
}

// Bytes returns a copy of the kept bytes, oldest first.
func (t *Tail) Bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.full {
		return append([]byte(nil), t.buf[:t.pos]...)
	}
	out := make([]byte, 0, len(t.buf))
	out = append(out, t.buf[t.pos:]...)
	return append(out, t.buf[:t.pos]...)
}

// Total returns how many bytes were written in all, kept or not.
func (t *Tail) Total() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tot
}
