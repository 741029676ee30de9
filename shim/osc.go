package shim

import (
	"bytes"
	"sync/atomic"
	"time"

	"github.com/fleetcom/fleetcom/fleet"
	"github.com/fleetcom/fleetcom/harness"
)

// Some CLIs say what they are doing on their own terminal, in an operating
// system command (OSC: ESC ] payload, ended by BEL or ESC \): Codex's OSC
// 7501 state, Gemini CLI's window title (harness.Signaller). For a run
// without hooks, that is how it shows needs-you at an approval prompt.
//
// The copy loop finds those commands in each chunk on its way to the
// terminal: a byte search for ']' per chunk, which TUI output rarely holds
// (a few per turn), and no allocation unless one is cut between two chunks.
// A state that changes is handed to the watcher, which decides (live.go).

// oscMax bounds an operating system command the scan keeps across chunks:
// a state or a title is far shorter, and a longer one (an image, a
// clipboard copy) is skipped.
const oscMax = 512

// oscScan finds the state a CLI writes in its output. Only the copy loop
// calls scan.
type oscScan struct {
	sig harness.Signaller
	// part holds the start of a command whose end has not come yet; open
	// says one is being gathered, esc that the last chunk ended in ESC.
	part []byte
	open bool
	esc  bool
	// last is the state told last, so a CLI that repeats itself (a title
	// redrawn) hands nothing on.
	last said
	tell func(said)
}

// said is one state a CLI wrote.
type said struct {
	state harness.State
	why   string
}

func (o *oscScan) scan(p []byte) {
	if len(p) == 0 {
		return
	}
	if o.esc && p[0] == ']' {
		o.open, o.part = true, o.part[:0]
		p = p[1:]
	}
	o.esc = false
	if o.open {
		o.open = false
		end := oscEnd(p)
		switch {
		case end >= 0 && len(o.part)+end <= oscMax:
			o.part = append(o.part, p[:end]...)
			o.found(o.part)
			p = p[end:]
		case end < 0 && len(o.part)+len(p) <= oscMax:
			o.open, o.part = true, append(o.part, p...)
			return
		case end >= 0:
			p = p[end:] // too long to be a state: skipped
		default:
			p = p[min(len(p), oscMax+1):]
		}
	}
	if len(p) == 0 {
		return
	}
	o.esc = p[len(p)-1] == 0x1b
	for {
		// ']' is rarer than ESC in what a TUI draws: look for it, then
		// at the byte before.
		i := bytes.IndexByte(p, ']')
		if i < 0 {
			return
		}
		if i == 0 || p[i-1] != 0x1b {
			p = p[i+1:]
			continue
		}
		p = p[i+1:]
		end := oscEnd(p)
		switch {
		case end >= 0:
			o.found(p[:end])
			p = p[end:]
		case len(p) <= oscMax:
			if o.part == nil {
				o.part = make([]byte, 0, oscMax)
			}
			o.open, o.part = true, append(o.part[:0], p...)
			return
		default:
			p = p[oscMax+1:] // too long to be a state: skipped
		}
	}
}

// oscEnd is where the command that p continues ends: at BEL, or at ESC
// (the string terminator ESC \, or another sequence, which cuts it); -1
// when p holds no end within oscMax bytes.
func oscEnd(p []byte) int {
	if len(p) > oscMax+1 {
		p = p[:oscMax+1] // no end there: too long to be read anyway
	}
	if i := bytes.IndexByte(p, 0x1b); i >= 0 {
		p = p[:i]
		if j := bytes.IndexByte(p, 0x07); j >= 0 {
			return j
		}
		return i
	}
	return bytes.IndexByte(p, 0x07)
}

// found reads one command's payload.
func (o *oscScan) found(payload []byte) {
	s, why, ok := o.sig.Signal(payload)
	if !ok || s == o.last.state && why == o.last.why {
		return
	}
	o.last = said{s, why}
	o.tell(o.last)
}

// signals makes a run without hooks follow what its CLI says of its state
// on its terminal; sig is nil for an agent that says nothing there.
func (l *live) signals(sig harness.Signaller) {
	if sig == nil || l.stater != nil {
		return
	}
	l.said = make(chan struct{}, 1)
	l.osc = &oscScan{sig: sig, tell: func(s said) {
		l.pending.Store(&s)
		select {
		case l.said <- struct{}{}:
		default:
		}
	}}
}

// heard applies the state the CLI said last, on the watcher.
func (l *live) heard() {
	s := l.pending.Swap(nil)
	if s == nil {
		return
	}
	l.apply(func(t *fleet.Tracker) (fleet.Change, bool) { return t.Signal(s.state, s.why, time.Now()) })
}

// pendingSaid is the state the copy loop saw last and the watcher has not
// applied yet.
type pendingSaid = atomic.Pointer[said]
