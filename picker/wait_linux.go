package picker

import "golang.org/x/sys/unix"

// waitReadable waits until fd can be read (true) or wake can (false).
func waitReadable(fd, wake int) (bool, error) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}, {Fd: int32(wake), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(fds, -1)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false, err
		}
		switch {
		case fds[1].Revents != 0:
			return false, nil
		case fds[0].Revents&unix.POLLNVAL != 0:
			return false, unix.EBADF
		case fds[0].Revents != 0: // data, or a hangup the read will report
			return true, nil
		}
	}
}
