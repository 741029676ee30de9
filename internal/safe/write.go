package safe

import (
	"fmt"
	"os"
	"syscall"
)

// The writing side of Open and ReadFile: a file fleetcom appends to or
// creates in place is opened the same careful way, so that a FIFO, a device
// or a symlink put where it expects its own regular file can neither block
// it nor receive what it writes. Each works on the bare descriptor, as
// ReadFile does: these run as a shim's child exits, on the way to the user's
// prompt.

// writeFlags open for writing without blocking and never through a symlink.
const writeFlags = syscall.O_WRONLY | syscall.O_NONBLOCK | syscall.O_NOFOLLOW | syscall.O_CLOEXEC

// openRegular opens path with flags and checks that it is a regular file.
// A FIFO nobody reads answers a non-blocking open for writing with ENXIO,
// a symlink ELOOP and a directory EISDIR: each is ErrNotRegular.
func openRegular(path string, flags int, perm os.FileMode) (int, syscall.Stat_t, error) {
	var st syscall.Stat_t
	fd, err := syscall.Open(path, flags, uint32(perm.Perm()))
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, flags, uint32(perm.Perm()))
	}
	switch {
	case err == syscall.ELOOP:
		return -1, st, fmt.Errorf("%s: %w (a symbolic link)", path, ErrNotRegular)
	case err == syscall.ENXIO:
		return -1, st, fmt.Errorf("%s: %w (a FIFO or socket)", path, ErrNotRegular)
	case err == syscall.EISDIR:
		return -1, st, fmt.Errorf("%s: %w (a directory)", path, ErrNotRegular)
	case err != nil:
		return -1, st, &os.PathError{Op: "open", Path: path, Err: err}
	}
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return -1, st, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return -1, st, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	return fd, st, nil
}

// AppendFile appends data to the regular file at path with one write,
// creating the file with mode perm when it is missing, and returns the
// file's size after the write. Anything but a regular file at path (a FIFO,
// a device, a directory, a symlink) is refused with ErrNotRegular, without
// blocking and without writing.
func AppendFile(path string, data []byte, perm os.FileMode) (int64, error) {
	return appendFile(path, data, syscall.O_CREAT, perm)
}

// AppendExisting is AppendFile to a file that must be there already: a
// missing one is an error (fs.ErrNotExist), and nothing is created.
func AppendExisting(path string, data []byte) (int64, error) {
	return appendFile(path, data, 0, 0)
}

func appendFile(path string, data []byte, create int, perm os.FileMode) (int64, error) {
	fd, st, err := openRegular(path, writeFlags|syscall.O_APPEND|create, perm)
	if err != nil {
		return 0, err
	}
	defer syscall.Close(fd)
	n, err := syscall.Write(fd, data)
	for err == syscall.EINTR {
		n, err = syscall.Write(fd, data)
	}
	if err != nil {
		return 0, &os.PathError{Op: "write", Path: path, Err: err}
	}
	if n < len(data) {
		return 0, &os.PathError{Op: "write", Path: path, Err: syscall.ENOSPC}
	}
	size := st.Size + int64(n)
	if err := syscall.Fstat(fd, &st); err == nil {
		size = st.Size // other writers may have appended too
	}
	return size, nil
}

// Touch makes sure a regular file is at path, creating an empty one with
// mode perm when nothing is there. Anything but a regular file is refused
// with ErrNotRegular, without blocking.
func Touch(path string, perm os.FileMode) error {
	fd, _, err := openRegular(path, writeFlags|syscall.O_CREAT, perm)
	if err != nil {
		return err
	}
	return syscall.Close(fd)
}

// ReadTail returns the last limit bytes, at most, of the regular file at path,
// opened as Open does. cut says whether the file held more: the caller then
// knows that its first line may be a piece of a longer one. Memory stays
// bounded by limit, however large the file is or grows while it is read.
func ReadTail(path string, limit int64, flags OpenFlags) (data []byte, cut bool, err error) {
	mode := syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if flags&NoFollow != 0 {
		mode |= syscall.O_NOFOLLOW
	}
	fd, st, err := openRegular(path, mode, 0)
	if err != nil {
		return nil, false, err
	}
	defer syscall.Close(fd)
	off := max(st.Size-limit, 0)
	buf := make([]byte, min(st.Size, limit))
	n := 0
	for n < len(buf) {
		m, err := syscall.Pread(fd, buf[n:], off+int64(n))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, false, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			break // it shrank while being read
		}
		n += m
	}
	return buf[:n], off > 0, nil
}

// Private checks that dir is a directory (not a symlink to one) of this user
// that group and others cannot write to: the rule the session store holds
// its folders to, for a folder whose files decide what fleetcom believes.
func Private(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case ok && int(st.Uid) != os.Getuid():
		return fmt.Errorf("%s belongs to uid %d, not to you", dir, st.Uid)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s is writable by others (mode %04o)", dir, fi.Mode().Perm())
	}
	return nil
}
