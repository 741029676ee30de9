//go:build linux && (amd64 || arm64)

package early

import "unsafe"

// rawSyscall makes a system call of up to four arguments without the
// syscall package (it may not be initialised yet) and returns the result
// and the error number, 0 for none. Pointers converted to uintptr in the
// call itself stay where they are until it returns, as for any function in
// assembly.
//
//go:noescape
func rawSyscall(trap, a1, a2, a3, a4 uintptr) (r, errno uintptr)

const (
	atFDCWD   = ^uintptr(99) // -100
	oRDONLY   = 0
	oNONBLOCK = 0o4000
	oCLOEXEC  = 0o2000000
	eINTR     = 4
	eNOENT    = 2
	sIFMT     = 0o170000
	sIFREG    = 0o100000
)

// cstring is s with a terminating NUL; false when s holds one.
func cstring(s string) ([]byte, bool) {
	b := make([]byte, len(s)+1)
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return nil, false
		}
		b[i] = s[i]
	}
	return b, true
}

// statRaw stats path (following links) into st; the error number.
func statRaw(path string, st *statBuf) uintptr {
	p, ok := cstring(path)
	if !ok {
		return eNOENT
	}
	for {
		_, e := rawSyscall(sysNewfstatat, atFDCWD, uintptr(unsafe.Pointer(&p[0])), uintptr(unsafe.Pointer(st)), 0)
		if e != eINTR {
			return e
		}
	}
}

// stat returns what the lookup needs of path; true on any error.
func stat(path string) (fileID, bool) {
	var st statBuf
	if statRaw(path, &st) != 0 {
		return fileID{}, true
	}
	return st.id(), false
}

func getpid() int {
	r, _ := rawSyscall(sysGetpid, 0, 0, 0, 0)
	return int(r)
}

// open opens path for reading; -1 on error, with the error number.
func open(path string, flags uintptr) (int, uintptr) {
	p, ok := cstring(path)
	if !ok {
		return -1, eNOENT
	}
	for {
		fd, e := rawSyscall(sysOpenat, atFDCWD, uintptr(unsafe.Pointer(&p[0])), oRDONLY|oCLOEXEC|flags, 0)
		if e == 0 {
			return int(fd), 0
		}
		if e != eINTR {
			return -1, e
		}
	}
}

func closeFD(fd int) { rawSyscall(sysClose, uintptr(fd), 0, 0, 0) }

// readAll reads fd to its end, growing from size+1 bytes; false on an error
// or past max bytes.
func readAll(fd int, size, max int) ([]byte, bool) {
	if size < 4096 {
		size = 4096
	}
	buf := make([]byte, size+1)
	n := 0
	for {
		if n == len(buf) {
			if len(buf) > max {
				return nil, false
			}
			grown := make([]byte, 2*len(buf))
			copy(grown, buf)
			buf = grown
		}
		r, e := rawSyscall(sysRead, uintptr(fd), uintptr(unsafe.Pointer(&buf[n])), uintptr(len(buf)-n), 0)
		switch {
		case e == eINTR:
			continue
		case e != 0:
			return nil, false
		case r == 0:
			if n > max {
				return nil, false
			}
			return buf[:n], true
		}
		n += int(r)
	}
}

// readFile reads a whole file of at most max bytes.
func readFile(path string, max int) ([]byte, bool) {
	fd, e := open(path, 0)
	if e != 0 {
		return nil, false
	}
	defer closeFD(fd)
	return readAll(fd, 0, max)
}

// readHead reads the start of a file into buf: how many bytes it got.
func readHead(path string, buf []byte) (int, bool) {
	fd, e := open(path, 0)
	if e != 0 {
		return 0, false
	}
	defer closeFD(fd)
	n := 0
	for n < len(buf) {
		r, e := rawSyscall(sysRead, uintptr(fd), uintptr(unsafe.Pointer(&buf[n])), uintptr(len(buf)-n), 0)
		switch {
		case e == eINTR:
			continue
		case e != 0:
			return 0, false
		case r == 0:
			return n, true
		}
		n += int(r)
	}
	return n, true
}

// readConfig reads the config file as config.Bin does: missing when the
// path names nothing; otherwise ok only for a regular file of at most max
// bytes that could be read whole.
func readConfig(path string, max int) (data []byte, missing, ok bool) {
	var st statBuf
	if statRaw(path, &st) == eNOENT {
		return nil, true, false
	}
	fd, e := open(path, oNONBLOCK)
	if e != 0 {
		return nil, false, false
	}
	defer closeFD(fd)
	for {
		_, e = rawSyscall(sysFstat, uintptr(fd), uintptr(unsafe.Pointer(&st)), 0, 0)
		if e != eINTR {
			break
		}
	}
	id := st.id()
	if e != 0 || id.mode&sIFMT != sIFREG || st.size() > int64(max) {
		return nil, false, false
	}
	data, ok = readAll(fd, int(st.size()), max)
	return data, false, ok
}

// execve replaces the process; it returns only when that failed.
func execve(path string, argv, env []string) {
	p, ok := cstring(path)
	if !ok {
		return
	}
	av, ok := cstrings(argv)
	if !ok {
		return
	}
	ev, ok := cstrings(env)
	if !ok {
		return
	}
	rawSyscall(sysExecve, uintptr(unsafe.Pointer(&p[0])), uintptr(unsafe.Pointer(&av[0])), uintptr(unsafe.Pointer(&ev[0])), 0)
}

// cstrings is a NULL-terminated array of C strings.
func cstrings(list []string) ([]*byte, bool) {
	out := make([]*byte, len(list)+1)
	for i, s := range list {
		b, ok := cstring(s)
		if !ok {
			return nil, false
		}
		out[i] = &b[0]
	}
	return out, true
}
