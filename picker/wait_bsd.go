//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package picker

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// waitReadable waits until fd can be read (true) or wake can (false). It
// uses select, not poll: macOS's poll does not work on terminal devices.
func waitReadable(fd, wake int) (bool, error) {
	if fd >= unix.FD_SETSIZE || wake >= unix.FD_SETSIZE {
		return false, fmt.Errorf("descriptor %d or %d is too high for select", fd, wake)
	}
	var set unix.FdSet
	for {
		set.Zero()
		set.Set(fd)
		set.Set(wake)
		_, err := unix.Select(max(fd, wake)+1, &set, nil, nil, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false, err
		}
		if set.IsSet(wake) {
			return false, nil
		}
		if set.IsSet(fd) {
			return true, nil
		}
	}
}
