package shim

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/fleetcom/fleetcom/shim/internal/leader"
	"golang.org/x/sys/unix"
)

// The PTY path is one loop on Spawn's own goroutine: poll(2) over our
// terminal, the PTY master, a descriptor that turns readable when the child
// exits (a pidfd, a kqueue) and a pipe the signal relay writes to when the
// size must be copied or the child may have stopped; then the reads and writes
// poll allowed. Data and the child's exit reach the loop with no goroutine in
// between: every goroutine the runtime has to wake costs a thread switch, and
// starting them while the child starts often costs new threads as well. A
// loop blocked in poll wakes in its own thread as soon as a byte arrives,
// which keeps a keystroke's round trip short. The loop owns every descriptor
// it polls, so none is ever closed under a system call.

// drainBound is how long Spawn goes on waiting for the PTY to report EIO after
// the child exited. EIO normally comes at once; it is late only when something
// else (a grandchild) still holds the terminal open.
const drainBound = 150 * time.Millisecond

// Test hooks, nil in production: called with our terminal raw, just before
// the child starts and once it has exited.
var hookStarting, hookExited func()

// session is one child on its own PTY.
type session struct {
	o       SpawnOptions
	ch      child // ch.pid is the child's, which leads its process group
	lead    *leader.Leader
	waitPID int // the process we wait for: the leader, else the child
	master  int // non-blocking; -1 once closed
	in, out int // our terminal
	tty     rawTerm
	wakeR   int // read end of the wake pipe; ch.wake is its write end
	exitFD  int // readable once the child exited; -1 when there is none

	buf     []byte // the output loop's buffer
	inBuf   []byte
	pending []byte // typed input not yet written to the master
	last    []byte // the child's last chunk of output, while it is in buf
	aside   bool   // Aside bytes wait for the output to reach a safe point
	inOpen  bool   // our terminal is still read
	outOpen bool   // the master has not reported EIO
	outOK   bool   // writing to our terminal still works
	exited  bool
	copyErr error // the first failure of the copy machinery
}

// spawnPTY runs cmd on a new PTY. A failure to set the PTY up before the child
// starts is reported as errNoPTY, and Spawn then runs the child without one.
func spawnPTY(cmd *exec.Cmd, o SpawnOptions) (st Status, err error) {
	s := &session{o: o, master: -1, wakeR: -1, exitFD: -1, inOpen: true, outOpen: true, outOK: true}
	s.ch = child{group: true, wake: -1, tty: &s.tty}
	s.in, _ = fdOf(o.Stdin)
	s.out, _ = fdOf(o.Stdout)
	WarmSignals()
	slave, saved, err := s.open()
	if err != nil {
		return Status{}, fmt.Errorf("%w: %v", errNoPTY, err)
	}
	// From here on every path, a panic included, ends in cleanup: our
	// terminal restored, the relay told, every descriptor closed.
	defer s.cleanup()
	o.Aside.attach(func() { nudge(s.ch.wake, wakeAside) })
	defer slave.Close() // closed again after the start, at once

	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	if !isTerminal(o.Stderr) {
		cmd.Stderr = nil
		if o.Stderr != nil {
			cmd.Stderr = o.Stderr
		}
	}

	// A signal that comes before the child runs ends the shim, with our
	// terminal restored: the relay must be catching before it is raw.
	// Registering and going raw happen under relay.mu, so that a signal's
	// default effect, which the relay applies under it too, finds the
	// terminal either untouched or raw and registered for restoring.
	signalsReady()
	var rawErr error
	relay.mu.Lock()
	register(&s.ch)
	if saved != nil {
		rawErr = s.tty.makeRaw(s.in, saved)
	}
	relay.mu.Unlock()
	if rawErr != nil {
		o.warn(fmt.Errorf("set terminal to raw mode: %w", rawErr))
	}
	if hookStarting != nil {
		hookStarting()
	}
	relay.mu.Lock()
	err = s.start(cmd, slave)
	relay.mu.Unlock()
	slave.Close() // the child holds it now; ours would keep EIO from coming
	if err != nil {
		return startFailed(err)
	}
	startedDone := s.startedAsync(s.ch.pid)
	if err := s.watchExit(); err != nil {
		s.fail(err)
		waitExit(s.waitPID)
		s.markExited()
	}
	s.loop()

	<-startedDone
	reaping(&s.ch)
	st, err = s.reap()
	st.Sent = sentTo(&s.ch)
	if hookExited != nil {
		hookExited()
	}
	if err == nil {
		err = s.copyErr
	}
	return st, err
}

// open creates the PTY, gives it our terminal's settings and size, and makes
// the wake pipe. It returns the slave for the child, and our terminal's
// settings (nil when they cannot be read).
func (s *session) open() (*os.File, *unix.Termios, error) {
	master, slave, err := openPTY()
	if err != nil {
		return nil, nil, err
	}
	if s.wakeR, s.ch.wake, err = newPipe(); err != nil {
		unix.Close(master)
		slave.Close()
		return nil, nil, fmt.Errorf("wake pipe: %w", err)
	}
	s.master = master
	// The child's terminal starts as a copy of ours (erase character, IUTF8
	// and so on), as script(1) does.
	t, err := unix.IoctlGetTermios(s.in, ioctlGetTermios)
	if err == nil {
		sfd, _ := fdOf(slave)
		_ = unix.IoctlSetTermios(sfd, ioctlSetTermios, t)
	} else {
		t = nil
	}
	s.syncSize()
	return slave, t, nil
}

// watchExit sets exitFD, unless the leader gave one, to a descriptor that
// polls readable once the process we wait for has exited: a pidfd or kqueue,
// else a pipe closed by a goroutine waiting for the exit (old kernels).
func (s *session) watchExit() error {
	pid := s.waitPID
	if s.exitFD >= 0 {
		return nil
	}
	if s.exitFD = exitWatch(pid); s.exitFD >= 0 {
		return nil
	}
	r, w, err := newPipe()
	if err != nil {
		return fmt.Errorf("watch child: %w", err)
	}
	s.exitFD = r
	go func() {
		waitExit(pid)
		unix.Close(w)
	}()
	return nil
}

// startedAsync calls o.Started on a goroutine of its own, so that output is
// copied while it runs; the channel is closed when it has returned.
func (s *session) startedAsync(pid int) <-chan struct{} {
	done := make(chan struct{})
	if s.o.Started == nil {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		s.o.Started(pid)
	}()
	return done
}

// syncSize copies our terminal's size to the PTY; the kernel then signals
// SIGWINCH to the child's foreground process group.
func (s *session) syncSize() {
	if s.master < 0 {
		return
	}
	ws, err := unix.IoctlGetWinsize(s.out, unix.TIOCGWINSZ)
	if err != nil {
		if ws, err = unix.IoctlGetWinsize(s.in, unix.TIOCGWINSZ); err != nil {
			return
		}
	}
	_ = unix.IoctlSetWinsize(s.master, unix.TIOCSWINSZ, ws)
}

// loop copies both ways and follows the child until it has exited and its
// output has drained, or the drain bound has passed since its exit. Once
// the child has run for restDelay it has the relay catch the rest of the
// signals (signal.go), on a timeout of poll's own.
func (s *session) loop() {
	var deadline time.Time
	rest := time.Now().Add(restDelay)
	asked := false
	for !s.exited || s.outOpen {
		var p [4]unix.PollFd
		n := 0
		add := func(fd int, ev int16) int {
			if fd < 0 || ev == 0 {
				return -1
			}
			p[n] = unix.PollFd{Fd: int32(fd), Events: ev}
			n++
			return n - 1
		}
		var mev int16
		if s.outOpen {
			mev |= unix.POLLIN
		}
		if len(s.pending) > 0 {
			mev |= unix.POLLOUT
		}
		iw := add(s.wakeR, unix.POLLIN)
		im := add(s.master, mev)
		ii := -1
		if s.inOpen && len(s.pending) == 0 {
			ii = add(s.in, unix.POLLIN)
		}
		ix := -1
		if !s.exited {
			ix = add(s.exitFD, unix.POLLIN)
		}
		timeout := -1
		if s.exited {
			left := time.Until(deadline)
			if left <= 0 {
				s.serve(func() { s.pumpOut(stopCap) })
				return
			}
			timeout = ceilMS(left)
		} else if !asked {
			if left := time.Until(rest); left > 0 {
				timeout = ceilMS(left)
			} else {
				catchRest()
				asked = true
			}
		}
		if _, err := unix.Poll(p[:n], timeout); err != nil {
			if err == unix.EINTR {
				continue
			}
			s.fail(fmt.Errorf("poll: %w", err))
			waitExit(s.waitPID)
			s.markExited()
			return
		}
		ready := func(i int) bool { return i >= 0 && p[i].Revents != 0 }
		if ready(iw) {
			s.serve(s.woken)
		}
		if ready(im) && s.master >= 0 {
			if p[im].Revents&unix.POLLOUT != 0 {
				s.serve(s.flushIn)
			}
			if p[im].Revents&^unix.POLLOUT != 0 {
				s.serve(func() { s.pumpOut(0) })
			}
		}
		if ready(ii) && s.inOpen {
			s.serve(s.pumpIn)
		}
		if ready(ix) && !s.exited {
			s.markExited()
			deadline = time.Now().Add(drainBound)
		}
	}
}

// ceilMS is d in whole milliseconds, rounded up, for poll's timeout.
func ceilMS(d time.Duration) int { return int((d + time.Millisecond - 1) / time.Millisecond) }

// woken reads the wake pipe and acts on what the relay sent.
func (s *session) woken() {
	var b [64]byte
	for {
		n, err := unix.Read(s.wakeR, b[:])
		if n <= 0 {
			if err == unix.EINTR {
				continue
			}
			return
		}
		for _, c := range b[:n] {
			switch c {
			case wakeWinch:
				s.syncSize()
			case wakeChild:
				if s.exited {
					continue
				}
				if childStopped(s.waitPID) {
					s.suspend()
				}
			case wakeCont:
				if !s.exited {
					s.resume()
				}
			case wakeAside:
				s.flushAside()
			}
		}
	}
}

// markExited notes the child's exit: from now on a signal has its own
// effect, input stays with our terminal, and output drains for at most
// drainBound.
func (s *session) markExited() {
	exited(&s.ch)
	s.exited = true
	s.inOpen = false
	s.pending = nil
}

// serve runs one step of the loop, turning a panic into a failure of the
// copy machinery.
func (s *session) serve(step func()) {
	defer func() {
		if r := recover(); r != nil {
			s.fail(fmt.Errorf("copy: panic: %v", r))
		}
	}()
	step()
}

// fail records a failure of the copy machinery and hangs the child up: the
// copying cannot go on.
func (s *session) fail(err error) {
	if s.copyErr == nil {
		s.copyErr = err
	}
	s.hangup()
}

// hangup does to the child what closing a terminal does to a program on it:
// SIGHUP to its process group, then the PTY closed under it, so reads and
// writes fail. The loop goes on waiting for the child to exit.
func (s *session) hangup() {
	if s.master < 0 {
		return
	}
	if !s.exited {
		hungUp(&s.ch)
		forwardGroup(s.ch.pid, syscall.SIGHUP)
	}
	unix.Close(s.master)
	s.master = -1
	s.outOpen, s.inOpen, s.pending = false, false, nil
	s.tty.restore()
}

// cleanup restores our terminal, takes the child off the relay's list and
// closes every descriptor. It runs once, on Spawn's goroutine.
func (s *session) cleanup() {
	s.tty.restore()
	s.o.Aside.attach(nil)
	wake := s.ch.wake
	release(&s.ch)
	for _, fd := range []int{s.master, s.wakeR, wake, s.exitFD} {
		if fd >= 0 {
			unix.Close(fd)
		}
	}
	s.master, s.wakeR, s.exitFD = -1, -1, -1
}
