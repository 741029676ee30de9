package main

import (
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// untilLimit bounds how long a run may take to match before it fails.
const untilLimit = 2 * time.Minute

// runUntil runs c on a fresh PTY until what the terminal shows matches re:
// the time from the start to the match is the sample. Esc is then typed, and
// the command has grace to exit before it is killed; its exit status is not
// checked (a picker left with Esc reports a cancel).
func runUntil(c command, re *regexp.Regexp, grace time.Duration) (sample, error) {
	m, s, err := pty.Open()
	if err != nil {
		return sample{}, err
	}
	defer m.Close()
	_ = pty.Setsize(s, winsize)
	cmd := newCmd(c)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s, s, s
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	matched := make(chan time.Time, 1)
	drained := make(chan int64, 1)
	start := time.Now()
	err = cmd.Start()
	s.Close() // ours would keep EIO from coming
	if err != nil {
		return sample{}, err
	}
	go watch(m, re, matched, drained)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var at time.Time
	gone, done := false, false
	select {
	case at = <-matched:
	case <-exited:
		// What it wrote last may still be on its way through the terminal.
		gone = true
		select {
		case <-drained:
			done = true
		case <-time.After(5 * time.Second):
		}
		select {
		case at = <-matched:
		default:
			return sample{}, fmt.Errorf("exited before its output matched %q", re)
		}
	case <-time.After(untilLimit):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		return sample{}, fmt.Errorf("no match for %q in %v", re, untilLimit)
	}
	wall := at.Sub(start)
	if !gone {
		_, _ = m.Write([]byte{0x1b})
		select {
		case <-exited:
		case <-time.After(grace):
			// The session it leads: its children hold the terminal too.
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	}
	if !done {
		select {
		case <-drained:
		case <-time.After(30 * time.Second):
			return sample{}, errors.New("terminal never drained")
		}
	}
	return finished(cmd, wall), nil
}

// watch reads the terminal until EIO, reporting the first time what it has
// shown matches re. Only the last 64 KiB are searched again after each read.
func watch(m interface{ Read([]byte) (int, error) }, re *regexp.Regexp, matched chan<- time.Time, drained chan<- int64) {
	const window = 64 << 10
	var seen []byte
	var total int64
	hit := false
	buf := make([]byte, 64<<10)
	for {
		n, err := m.Read(buf)
		total += int64(n)
		if n > 0 && !hit {
			seen = append(seen, buf[:n]...)
			if re.Match(seen) {
				matched <- time.Now()
				hit, seen = true, nil
			} else if len(seen) > 4*window {
				seen = append(seen[:0], seen[len(seen)-window:]...)
			}
		}
		if err != nil {
			drained <- total
			return
		}
	}
}

// finished is the sample of a command that has exited: wall, and the CPU
// and peak RSS the kernel reports.
func finished(cmd *exec.Cmd, wall time.Duration) sample {
	s := sample{wall: wall}
	if ps := cmd.ProcessState; ps != nil {
		s.cpu = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			s.rssKiB = ru.Maxrss
		}
	}
	return s
}
