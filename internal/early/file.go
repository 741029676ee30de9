package early

// open opens name for reading, close-on-exec.
func open(name string, flags int) (int, bool) {
	for {
		fd, e := sysOpen(name, oRDONLY|oCLOEXEC|flags)
		if e != eINTR {
			return fd, e == 0
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
		n, e := sysRead(fd, buf[len(buf):cap(buf)])
		switch {
		case e == eINTR:
			continue
		case e != 0:
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
	fd, ok := open(name, oNONBLOCK)
	if !ok {
		return nil, false
	}
	defer sysClose(fd)
	mode, size, e := sysFstat(fd)
	if e != 0 || mode&sIFMT != sIFREG || size > int64(limit) {
		return nil, false
	}
	return readAll(fd, int(size), limit)
}
