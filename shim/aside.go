package shim

import (
	"bytes"
	"sync"
	"unicode/utf8"
)

// Aside carries bytes for the user's terminal that are not the child's (a
// notice's OSC 9 or bell) while the child owns it. The PTY loop writes them
// itself, between two chunks of the child's output, and only where the
// output so far does not stop inside an escape sequence or a UTF-8
// character: a sequence cut in two would show as garbage, or swallow ours.
// Bytes still pending when the child exits are dropped. On the pipe path
// nothing is written: the child writes to the terminal directly, and there
// is no safe moment.
type Aside struct {
	mu      sync.Mutex
	pending []byte
	wake    func() // set while a PTY loop runs
}

// asideMax bounds what may wait: a few notices.
const asideMax = 4 << 10

// Write queues p for the terminal and wakes the loop; it never blocks.
func (a *Aside) Write(p []byte) (int, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.pending)+len(p) <= asideMax {
		a.pending = append(a.pending, p...)
	}
	if a.wake != nil {
		a.wake()
	}
	return len(p), nil
}

// attach is called by the PTY loop with the way to wake it, and with nil
// before the loop's descriptors close.
func (a *Aside) attach(wake func()) {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.wake = wake
	a.mu.Unlock()
}

// take returns what is pending and forgets it.
func (a *Aside) take() []byte {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	p := a.pending
	a.pending = nil
	return p
}

// midSequence reports whether output that ended with tail stops inside an
// escape sequence (CSI, OSC, DCS and the like, or a two-byte one) or inside
// a UTF-8 character, where nothing else may be written.
func midSequence(tail []byte) bool {
	if len(tail) > 512 {
		tail = tail[len(tail)-512:]
	}
	if n := len(tail); n > 0 {
		start := max(0, n-utf8.UTFMax)
		for i := n - 1; i >= start; i-- {
			if utf8.RuneStart(tail[i]) {
				if !utf8.FullRune(tail[i:]) {
					return true
				}
				break
			}
		}
	}
	esc := bytes.LastIndexByte(tail, 0x1b)
	if esc < 0 {
		return false
	}
	rest := tail[esc+1:]
	if len(rest) == 0 {
		return true
	}
	switch rest[0] {
	case '[': // CSI: parameters and intermediates, then a final byte
		for _, c := range rest[1:] {
			if c >= 0x40 && c <= 0x7e {
				return false
			}
		}
		return true
	case ']', 'P', '_', '^', 'X': // strings: BEL or ST (ESC \) ends them
		return bytes.IndexByte(rest, 0x07) < 0
	case '\\':
		return false // ST: the end of a string
	case '(', ')', '*', '+', '#', '%', ' ':
		return len(rest) < 2
	}
	return false
}
