package shim

import (
	"sync"

	"golang.org/x/sys/unix"
)

// rawTerm is our terminal's mode, switched to raw and back; restore is
// idempotent and safe from any goroutine (the relay restores it before the
// shim dies of a signal).
type rawTerm struct {
	mu    sync.Mutex
	fd    int
	saved *unix.Termios // the mode to restore; nil when not raw
	keep  *unix.Termios // the mode before the first makeRaw, for remake
	raw   *unix.Termios // the raw mode we set
}

// makeRaw puts fd in raw mode, as cfmakeraw(3) does, from its current
// settings cur.
func (t *rawTerm) makeRaw(fd int, cur *unix.Termios) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fd, t.keep = fd, cur
	return t.rawLocked()
}

// again puts the terminal back in raw mode once the shim is continued: after
// our own restore (we stopped with the child), or after a shell that saw us
// stop put its own mode back (bash does; zsh and fish put back the one we
// stopped with). The mode found then is the one to restore at the end. A
// terminal that was never raw stays as it is.
func (t *rawTerm) again() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.keep == nil {
		return nil
	}
	cur, err := unix.IoctlGetTermios(t.fd, ioctlGetTermios)
	if err != nil {
		return err
	}
	if t.saved != nil && t.raw != nil && *cur == *t.raw {
		return nil
	}
	t.keep = cur
	return t.rawLocked()
}

func (t *rawTerm) rawLocked() error {
	raw := *t.keep
	raw.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	raw.Oflag &^= unix.OPOST
	raw.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cflag &^= unix.CSIZE | unix.PARENB
	raw.Cflag |= unix.CS8
	raw.Cc[unix.VMIN] = 1
	raw.Cc[unix.VTIME] = 0
	// From the background of our terminal this stops the shim with
	// SIGTTOU until it is brought to the foreground, as any program that
	// sets a terminal's mode is stopped (after bg, for one).
	if err := unix.IoctlSetTermios(t.fd, ioctlSetTermios, &raw); err != nil {
		return err
	}
	t.saved, t.raw = t.keep, &raw
	return nil
}

func (t *rawTerm) restore() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.saved != nil {
		_ = unix.IoctlSetTermios(t.fd, ioctlSetTermios, t.saved)
		t.saved = nil
	}
}
