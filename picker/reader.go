package picker

import (
	"fmt"
	"os"
	"syscall"
)

// reader reads the terminal on a goroutine of its own, so that the picker
// can wait for a key, a signal and the Esc timeout at once.
//
// It never reads after stop returns. A read left blocked on the terminal
// would take the first key typed after the picker closed, away from
// whatever runs next (the agent, with --exec): so it waits for input and
// for a wake-up pipe together, and reads only when the terminal has bytes.
type reader struct {
	bytes        chan []byte
	errs         chan error
	quit         chan struct{}
	done         chan struct{}
	wakeR, wakeW *os.File
}

func startReader(fd int) (*reader, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("read terminal: %w", err)
	}
	rd := &reader{
		bytes: make(chan []byte), errs: make(chan error, 1),
		quit: make(chan struct{}), done: make(chan struct{}),
		wakeR: r, wakeW: w,
	}
	go rd.run(fd, int(r.Fd()))
	return rd, nil
}

func (rd *reader) run(fd, wake int) {
	defer close(rd.done)
	defer func() {
		if p := recover(); p != nil {
			rd.fail(fmt.Errorf("read terminal: panic: %v", p))
		}
	}()
	buf := make([]byte, 4096)
	for {
		ready, err := waitReadable(fd, wake)
		if err != nil {
			rd.fail(fmt.Errorf("wait for the terminal: %w", err))
			return
		}
		if !ready {
			return // stop was called
		}
		n, err := syscall.Read(fd, buf)
		switch {
		case err == syscall.EINTR || err == syscall.EAGAIN:
			continue
		case n == 0 && err == nil, err == syscall.EIO:
			rd.fail(fmt.Errorf("%w: the terminal was closed", ErrCancelled))
			return
		case err != nil:
			rd.fail(fmt.Errorf("read terminal: %w", err))
			return
		}
		select {
		case rd.bytes <- append([]byte(nil), buf[:n]...):
		case <-rd.quit:
			return
		}
	}
}

func (rd *reader) fail(err error) {
	select {
	case rd.errs <- err:
	default:
	}
}

// stop ends the goroutine and waits until it has.
func (rd *reader) stop() {
	close(rd.quit)
	_, _ = rd.wakeW.Write([]byte{0})
	<-rd.done
	rd.wakeR.Close()
	rd.wakeW.Close()
}
