// Package testexec writes files that a test goes on to execute, and keeps
// the programs a test process starts from inheriting an ignored SIGHUP
// (DefaultHangup). Only tests import it.
//
// A test process that writes a program and then runs it can fail with
// ETXTBSY ("text file busy") when another goroutine forks in between: the
// child inherits the still-open, writable descriptor and keeps it until its
// own exec closes it, and Linux refuses to execute a file that anything
// holds open for writing (golang/go#22315). The fork/exec path in package
// syscall takes ForkLock for writing, so holding it for reading while the
// file is open keeps every fork of this process out of that window.
package testexec

import (
	"os"
	"syscall"
)

// WriteFile is os.WriteFile for a file that will be executed: no child of
// this process can be forked while the file is open for writing.
func WriteFile(name string, data []byte, perm os.FileMode) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	return os.WriteFile(name, data, perm)
}
