package main

import "golang.org/x/sys/unix"

// liveEvents is an inotify descriptor that turns readable when a run's live
// file appears, changes or goes; -1 when there is none.
func liveEvents(dir string) int {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return -1
	}
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE|unix.IN_MOVED_TO|unix.IN_MOVED_FROM|
		unix.IN_DELETE|unix.IN_CLOSE_WRITE); err != nil {
		unix.Close(fd)
		return -1
	}
	return fd
}

// drain reads the events that woke the loop; which file changed does not
// matter, the table is read again.
func drain(fd int) {
	var b [4096]byte
	for {
		if n, _ := unix.Read(fd, b[:]); n <= 0 {
			return
		}
	}
}
