//go:build linux && (amd64 || arm64)

package early

import (
	"runtime"
	"unsafe"
)

// The system calls, on Linux amd64 and arm64, made without importing
// package syscall: an import of syscall would make this package's init
// wait for syscall's, and so for everything that sorts before "syscall"
// and is ready first (internal/godebug, math, encoding/base64 and more;
// doc.go). Package syscall's RawSyscall6 is linked by name (syscall marks
// it for that) and so is the environment the runtime holds, which package
// syscall reads the same way. Neither needs syscall's init. The numbers are
// the kernel's, per architecture (sysnum_linux_*.go); a stat is statx's,
// whose layout is the same on both.

//go:linkname rawSyscall6 syscall.RawSyscall6
func rawSyscall6(trap, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2, err uintptr)

//go:linkname runtimeEnvs syscall.runtime_envs
func runtimeEnvs() []string

// errno is a system call's error number, 0 for none.
type errno uintptr

// The error numbers and flags the package uses: the same on every Linux
// architecture it runs on.
const (
	eNOENT  errno = 2
	eINTR   errno = 4
	eNOEXEC errno = 8
	eINVAL  errno = 22

	oRDONLY   = 0
	oNONBLOCK = 0o4000
	oCLOEXEC  = 0o2000000

	sIFMT  = 0o170000
	sIFREG = 0o100000

	atFDCWD     = ^uintptr(99) // AT_FDCWD, -100
	atEmptyPath = 0x1000
	// statx's mask: the type and mode, the inode and the size.
	statxWant = 0x1 | 0x2 | 0x100 | 0x200
)

func call(trap, a1, a2, a3, a4, a5 uintptr) (uintptr, errno) {
	r, _, e := rawSyscall6(trap, a1, a2, a3, a4, a5, 0)
	return r, errno(e)
}

// cstring is s with a NUL at its end; false when s holds a NUL, which the
// kernel would take as its end.
func cstring(s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return nil, false
		}
	}
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b, true
}

// ptr is the address of b's first byte for a system call; b stays alive
// through the call by the caller's runtime.KeepAlive.
func ptr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

func sysOpen(name string, flags int) (int, errno) {
	p, ok := cstring(name)
	if !ok {
		return -1, eINVAL
	}
	fd, e := call(sysOpenat, atFDCWD, ptr(p), uintptr(flags), 0, 0)
	runtime.KeepAlive(p)
	return int(fd), e
}

func sysRead(fd int, b []byte) (int, errno) {
	n, e := call(sysReadNum, uintptr(fd), ptr(b), uintptr(len(b)), 0, 0)
	runtime.KeepAlive(b)
	return int(n), e
}

func sysClose(fd int) { call(sysCloseNum, uintptr(fd), 0, 0, 0, 0) }

// statxBuf is the kernel's struct statx, 256 bytes.
type statxBuf struct {
	mask, blksize        uint32
	attributes           uint64
	nlink, uid, gid      uint32
	mode, _              uint16
	ino, size, blocks    uint64
	attributesMask       uint64
	times                [8]uint64
	rdevMajor, rdevMinor uint32
	devMajor, devMinor   uint32
	_                    [14]uint64
}

// statx fills st for name relative to dirfd. It fails (EINVAL) when the
// kernel did not fill the fields asked for.
func statx(dirfd uintptr, name string, flags uintptr, st *statxBuf) errno {
	p, ok := cstring(name)
	if !ok {
		return eINVAL
	}
	_, e := call(sysStatx, dirfd, ptr(p), flags, statxWant, uintptr(unsafe.Pointer(st)))
	runtime.KeepAlive(p)
	if e == 0 && st.mask&statxWant != statxWant {
		return eINVAL
	}
	return e
}

// sysFstat is the mode and size of the open file fd.
func sysFstat(fd int) (mode uint32, size int64, e errno) {
	var st statxBuf
	if e = statx(uintptr(fd), "", atEmptyPath, &st); e != 0 {
		return 0, 0, e
	}
	return uint32(st.mode), int64(st.size), 0
}

// sysStat is what the lookup needs of name, a link followed.
func sysStat(name string) (fileID, errno) {
	var st statxBuf
	if e := statx(atFDCWD, name, 0, &st); e != 0 {
		return fileID{}, e
	}
	return fileID{dev: uint64(st.devMajor)<<32 | uint64(st.devMinor), ino: st.ino, mode: uint32(st.mode)}, 0
}

func sysReadlink(name string, buf []byte) (int, errno) {
	p, ok := cstring(name)
	if !ok {
		return 0, eINVAL
	}
	n, e := call(sysReadlinkat, atFDCWD, ptr(p), ptr(buf), uintptr(len(buf)), 0)
	runtime.KeepAlive(p)
	runtime.KeepAlive(buf)
	return int(n), e
}

func sysAccess(name string, mode uint32) errno {
	p, ok := cstring(name)
	if !ok {
		return eINVAL
	}
	_, e := call(sysFaccessat, atFDCWD, ptr(p), uintptr(mode), 0, 0)
	runtime.KeepAlive(p)
	return e
}

func sysGetpid() int {
	pid, _ := call(sysGetpidNum, 0, 0, 0, 0, 0)
	return int(pid)
}

func sysEnviron() []string { return runtimeEnvs() }

// sysExec replaces the process with path; it returns only when that
// failed. No other goroutine of this process starts a program while the
// inits run, so it needs no lock against them; and package syscall has not
// raised the open-file limit yet, so the program gets the one this process
// started with.
func sysExec(path string, argv, env []string) errno {
	p, ok := cstring(path)
	if !ok {
		return eINVAL
	}
	args, ok := cstrings(argv)
	if !ok {
		return eINVAL
	}
	envv, ok := cstrings(env)
	if !ok {
		return eINVAL
	}
	_, e := call(sysExecve, ptr(p), uintptr(unsafe.Pointer(&args[0])), uintptr(unsafe.Pointer(&envv[0])), 0, 0)
	runtime.KeepAlive(p)
	runtime.KeepAlive(args)
	runtime.KeepAlive(envv)
	return e
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
