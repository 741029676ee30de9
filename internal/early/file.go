package early

import "syscall"

// open opens name for reading, close-on-exec.
func open(name string, flags int) (int, bool) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC|flags, 0)
		if err != syscall.EINTR {
			return fd, err == nil
		}
	}
}

// readAll reads fd to its end, starting with room for size bytes; false on
// an error or past limit bytes.
func readAll(fd int, size, limit int) ([]byte, bool) {
	buf := make([]byte, 0, max(size+1, 4096))
	for {
		if len(buf) == cap(buf) {
			if len(buf) > limit {
				return nil, false
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, false
		case n == 0:
			return buf, len(buf) <= limit
		}
		buf = buf[:len(buf)+n]
	}
}

// readConfig reads the config file as config.Bin does: ok only for a
// regular file of at most limit bytes that could be read whole. It does not
// wait on a FIFO.
func readConfig(name string, limit int) ([]byte, bool) {
	fd, ok := open(name, syscall.O_NONBLOCK)
	if !ok {
		return nil, false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > int64(limit) {
		return nil, false
	}
	return readAll(fd, int(st.Size), limit)
}
