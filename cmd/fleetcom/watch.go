package main

import (
	"bytes"
	"errors"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// watchStatus is `status --watch`: the table redrawn in place, on the
// alternate screen, whenever the live folder changes (inotify where there
// is one) and once a second to age the durations and drop runs whose
// process died without a word; q, Ctrl-C or Ctrl-D ends it, and the
// terminal is given back as it was on every way out.
func watchStatus(hosts []string) error {
	in, out := int(os.Stdin.Fd()), int(os.Stdout.Fd())
	if !term.IsTerminal(in) || !term.IsTerminal(out) {
		return usageError{msg: "status --watch needs a terminal", hint: "without one, use 'fleetcom status --json'"}
	}
	saved, err := term.MakeRaw(in)
	if err != nil {
		return err
	}
	// Signals that would end fleetcom end the loop instead, so the
	// terminal is restored first.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGWINCH)
	defer signal.Stop(sigs)
	os.Stdout.WriteString("\x1b[?1049h\x1b[?25l")
	defer func() {
		os.Stdout.WriteString("\x1b[?25h\x1b[?1049l")
		term.Restore(in, saved)
	}()
	dir := resolvePaths().LiveDir
	os.MkdirAll(dir, 0o700)
	events := liveEvents(dir)
	if events >= 0 {
		defer unix.Close(events)
	}
	for {
		draw(hosts)
		fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}}
		if events >= 0 {
			fds = append(fds, unix.PollFd{Fd: int32(events), Events: unix.POLLIN})
		}
		_, err := unix.Poll(fds, 1000)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return err
		}
		select {
		case sig := <-sigs:
			if sig != syscall.SIGWINCH {
				return exitStatus(128 + int(sig.(syscall.Signal)))
			}
		default:
		}
		if fds[0].Revents != 0 {
			var b [64]byte
			n, err := unix.Read(in, b[:])
			if n <= 0 && err != unix.EINTR && err != unix.EAGAIN {
				return nil // the terminal is gone
			}
			if bytes.ContainsAny(b[:n], "qQ\x03\x04") {
				return nil
			}
		}
		if len(fds) > 1 && fds[1].Revents != 0 {
			drain(events)
		}
	}
}

// draw clears the screen and prints the table, in raw mode (CR LF).
func draw(hosts []string) {
	v := gather(hosts)
	width, _ := terminalWidth()
	var b bytes.Buffer
	if len(v.all) == 0 && len(v.failed) == 0 {
		b.WriteString("no conversation is running under the shims\n")
	} else {
		printStatus(&b, v, width, time.Now())
	}
	b.WriteString("\n" + time.Now().Format("15:04:05") + "  q to quit\n")
	text := bytes.ReplaceAll(b.Bytes(), []byte("\n"), []byte("\x1b[K\r\n"))
	os.Stdout.Write(append([]byte("\x1b[H"), append(text, []byte("\x1b[J")...)...))
}
