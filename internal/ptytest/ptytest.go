// Package ptytest holds what the tests that drive a program on a
// pseudo-terminal share. Only tests import it.
package ptytest

import (
	"os"
	"syscall"
)

// Pollable returns the master side of a PTY as a non-blocking file that
// Go's poller serves, so Close interrupts a pending Read and really closes
// the descriptor. f is closed either way.
func Pollable(f *os.File) (*os.File, error) {
	fd, err := syscall.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return nil, err
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "/dev/ptmx"), nil
}
