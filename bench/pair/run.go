package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

var winsize = &pty.Winsize{Rows: 50, Cols: 200}

func newCmd(c command) *exec.Cmd {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Env = c.env
	return cmd
}

// runOnce runs c to completion, on the null device or on a fresh PTY; with
// until, on a PTY until its output matches.
func runOnce(c command, usePTY bool, until *regexp.Regexp, grace time.Duration) (sample, error) {
	if until != nil {
		return runUntil(c, until, grace)
	}
	cmd := newCmd(c)
	var master *os.File
	drained := make(chan int64, 1)
	if usePTY {
		m, s, err := pty.Open()
		if err != nil {
			return sample{}, err
		}
		defer m.Close()
		_ = pty.Setsize(s, winsize)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = s, s, s
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
		master = m
		go func() {
			// Until EIO: every holder of the terminal has closed it.
			n, _ := io.CopyBuffer(io.Discard, m, make([]byte, 64<<10))
			drained <- n
		}()
	}
	start := time.Now()
	err := cmd.Start()
	if tty, ok := cmd.Stdin.(*os.File); ok && master != nil {
		tty.Close() // ours would keep EIO from coming
	}
	if err != nil {
		return sample{}, err
	}
	werr := cmd.Wait()
	var n int64
	if master != nil {
		select {
		case n = <-drained:
		case <-time.After(30 * time.Second):
			return sample{}, errors.New("terminal never drained")
		}
	}
	wall := time.Since(start)
	if werr != nil {
		return sample{}, fmt.Errorf("%v", werr)
	}
	s := sample{wall: wall, bytes: n}
	s.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rssKiB = ru.Maxrss
	}
	return s, nil
}

// session is a command running on a PTY for the keystroke mode.
type session struct {
	cmd    *exec.Cmd
	tty    *os.File // the master, kept open
	master int
	lat    []float64
}

func keystrokes(cmds []command, n, warm int) int {
	var ss []*session
	defer func() {
		for _, s := range ss {
			_, _ = unix.Write(s.master, []byte("q"))
			_ = s.cmd.Wait()
		}
	}()
	for _, c := range cmds {
		s, err := startSession(c)
		if err != nil {
			fmt.Fprintf(os.Stderr, "pair: %s: %v\n", c.label, err)
			return 1
		}
		ss = append(ss, s)
	}
	for i := -warm; i < n; i++ {
		for _, s := range ss {
			d, err := s.roundTrip()
			if err != nil {
				fmt.Fprintln(os.Stderr, "pair:", err)
				return 1
			}
			if i >= 0 {
				s.lat = append(s.lat, d.Seconds())
			}
		}
	}
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "command\tkeys\tmedian\tp99\tmax\tvs %s\t\n", cmds[0].label)
	for i, s := range ss {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%.3fx\t\n", cmds[i].label, len(s.lat), ms(quantile(s.lat, .5)),
			ms(quantile(s.lat, .99)), ms(slices.Max(s.lat)), quantile(s.lat, .5)/quantile(ss[0].lat, .5))
	}
	tw.Flush()
	return 0
}

func startSession(c command) (*session, error) {
	m, s, err := pty.Open()
	if err != nil {
		return nil, err
	}
	_ = pty.Setsize(s, winsize)
	cmd := newCmd(c)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s, s, s
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s.Close()
	ses := &session{cmd: cmd, tty: m, master: int(m.Fd())} // Fd: blocking reads
	// Wait for the child's "R": it is up and its terminal raw.
	b := []byte{0}
	for b[0] != 'R' {
		if _, err := unix.Read(ses.master, b); err != nil && err != unix.EINTR {
			return nil, fmt.Errorf("waiting for R: %w", err)
		}
	}
	return ses, nil
}

func (s *session) roundTrip() (time.Duration, error) {
	b := []byte{'k'}
	start := time.Now()
	if _, err := unix.Write(s.master, b); err != nil {
		return 0, err
	}
	for {
		n, err := unix.Read(s.master, b)
		if n == 1 {
			if b[0] != 'k' {
				return 0, fmt.Errorf("echo was %q", b)
			}
			return time.Since(start), nil
		}
		if err != nil && err != unix.EINTR {
			return 0, err
		}
	}
}
