package safe

import (
	"errors"
	"fmt"
	"sync"
	"syscall"
	"time"
)

// ErrLockTimeout is returned by Lock when the lock stayed held by another
// process for the whole wait.
var ErrLockTimeout = errors.New("lock is held by another process")

// Lock takes an exclusive flock on the file at path, creating it with mode
// 0600 (never through a symlink, and only a regular file), and holds it until the returned
// function is called. A lock another process holds is waited for at most
// wait, then Lock gives up with ErrLockTimeout. The kernel drops a lock when
// its holder dies, so a killed process never wedges the others.
//
// flock has no timeout, and polling it with LOCK_NB lets a steady stream of
// other writers starve a waiter. So the wait is a blocking flock, which the
// kernel serves fairly, on a goroutine of its own: when the time is up Lock
// returns, and that goroutine lets go of the lock the moment it gets it.
//
// The descriptor stays bare: an *os.File would offer it to the runtime's
// poller and toggle its blocking mode, five system calls for nothing.
func Lock(path string, wait time.Duration) (unlock func(), err error) {
	// Opened as AppendFile opens: a FIFO or a device in the lock's place
	// is refused, never blocked on (O_NONBLOCK has no say in flock).
	fd, _, err := openRegular(path, syscall.O_RDWR|syscall.O_CREAT|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	var once sync.Once
	release := func() { once.Do(func() { syscall.Close(fd) }) }
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
		return release, nil
	} else if err != syscall.EWOULDBLOCK && err != syscall.EINTR {
		release()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	got := make(chan error) // unbuffered: a send only succeeds while Lock still waits
	abandoned := make(chan struct{})
	go func() {
		var err error
		for {
			if err = syscall.Flock(fd, syscall.LOCK_EX); err != syscall.EINTR {
				break
			}
		}
		select {
		case got <- err:
		case <-abandoned:
			release() // too late: let the next waiter have it
		}
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case err := <-got:
		if err != nil {
			release()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		return release, nil
	case <-t.C:
		close(abandoned)
		return nil, fmt.Errorf("%s: %w (waited %v)", path, ErrLockTimeout, wait)
	}
}
