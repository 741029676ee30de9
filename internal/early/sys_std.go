//go:build !linux || !(amd64 || arm64)

package early

import "syscall"

// The system calls through package syscall, where sys_raw.go does not make
// them itself: the init then runs after syscall's (doc.go).

// errno is a system call's error number, 0 for none.
type errno = syscall.Errno

const (
	eNOENT  = syscall.ENOENT
	eINTR   = syscall.EINTR
	eNOEXEC = syscall.ENOEXEC

	oRDONLY   = syscall.O_RDONLY
	oNONBLOCK = syscall.O_NONBLOCK
	oCLOEXEC  = syscall.O_CLOEXEC

	sIFMT  = syscall.S_IFMT
	sIFREG = syscall.S_IFREG
)

// number is err's error number: 0 for none, EINVAL for one that is not.
func number(err error) errno {
	if err == nil {
		return 0
	}
	if e, ok := err.(syscall.Errno); ok {
		return e
	}
	return syscall.EINVAL
}

func sysOpen(name string, flags int) (int, errno) {
	fd, err := syscall.Open(name, flags, 0)
	return fd, number(err)
}

func sysRead(fd int, b []byte) (int, errno) {
	n, err := syscall.Read(fd, b)
	return n, number(err)
}

func sysClose(fd int) { syscall.Close(fd) }

func sysFstat(fd int) (mode uint32, size int64, e errno) {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return 0, 0, number(err)
	}
	return uint32(st.Mode), st.Size, 0
}

func sysStat(name string) (fileID, errno) {
	var st syscall.Stat_t
	if err := syscall.Stat(name, &st); err != nil {
		return fileID{}, number(err)
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode)}, 0
}

func sysReadlink(name string, buf []byte) (int, errno) {
	n, err := syscall.Readlink(name, buf)
	return n, number(err)
}

func sysAccess(name string, mode uint32) errno { return number(syscall.Access(name, mode)) }

func sysGetpid() int { return syscall.Getpid() }

func sysEnviron() []string { return syscall.Environ() }

// sysExec is syscall.Exec, which takes the runtime's exec lock and puts
// back the open-file limit that package syscall raised.
func sysExec(path string, argv, env []string) errno { return number(syscall.Exec(path, argv, env)) }
