package harness

import (
	"bytes"
	"io"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// When a conversation was last active is what its agent's store says: the
// date of its last message. File times are not it (a copy, a restore or a
// move by fleetcom makes a file new), nor is when fleetcom wrote a record.

// Activer is implemented by agents whose store dates a conversation's
// messages.
type Activer interface {
	// Active returns when conversation id of the directory cwd last had a
	// message, as its agent's store dates it; zero when it cannot tell.
	Active(home, cwd, id string) time.Time
}

// LastActive is when conversation id of cwd last had a message, by its
// agent's store; zero when the agent cannot tell.
func LastActive(a Agent, home, cwd, id string) time.Time {
	if act, ok := a.Behaviour.(Activer); ok {
		return act.Active(home, cwd, id)
	}
	return time.Time{}
}

// tailWindows are how much of a file's end is read for its last lines: a
// first look, then wider when the last lines are long (a large tool
// result), never all of a large file.
var tailWindows = []int64{64 << 10, 1 << 20, MaxLine}

// FindLastLine calls fn with the complete lines at the end of the file at path,
// the last one first, until fn returns true; it widens the window read
// when no line of the last one satisfied fn. A final line without its
// newline is still being written and is not passed on.
func FindLastLine(path string, fn func(line []byte) bool) bool {
	f, err := safe.Open(path, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	size := fi.Size()
	for _, w := range tailWindows {
		start := max(0, size-w)
		buf := make([]byte, size-start)
		if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
			return false
		}
		if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
			buf = buf[:i]
		} else {
			buf = nil
		}
		for len(buf) > 0 {
			i := bytes.LastIndexByte(buf, '\n')
			if i < 0 && start > 0 {
				break // the window's first line is cut
			}
			if fn(buf[i+1:]) {
				return true
			}
			if i < 0 {
				break
			}
			buf = buf[:i]
		}
		if start == 0 {
			break
		}
	}
	return false
}
