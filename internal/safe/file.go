package safe

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrNotRegular is returned for a path that names something other than a
// regular file: a FIFO, a device, a directory, or (with NoFollow) a symlink.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned by ReadFile for a file over its size limit.
var ErrTooLarge = errors.New("file too large")

// OpenFlags choose how Open treats the last path component.
type OpenFlags int

// NoFollow refuses a symlink as the last component instead of following it.
const NoFollow OpenFlags = 1

// Open opens path for reading only if it is a regular file. The open itself
// never blocks (a FIFO put in the file's place cannot stall the caller) and
// the type is checked on the opened descriptor, so nothing can be swapped
// in between the check and the read.
func Open(path string, flags OpenFlags) (*os.File, error) {
	mode := os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if flags&NoFollow != 0 {
		mode |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, mode, 0)
	if err != nil {
		if flags&NoFollow != 0 && errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s: %w (a symbolic link)", path, ErrNotRegular)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	return f, nil
}

// unknownSize is the room ReadFile starts with for a file that does not say
// its size: a /proc/<pid>/stat line is a few hundred bytes.
const unknownSize = 1023

// ReadFile returns the contents of the regular file at path, opened as Open
// does, refusing one larger than max bytes with an error wrapping
// ErrTooLarge. It never reads more than max+1 bytes, whatever the file
// claims or becomes while it is read.
//
// It works on the bare descriptor: an *os.File would register a regular
// file with the runtime's poller, which refuses it, and undo its
// non-blocking mode, four system calls per read that the shim's paths (the
// config on every pass-through run, capture files, records) do not need.
func ReadFile(path string, max int64, flags OpenFlags) ([]byte, error) {
	mode := syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if flags&NoFollow != 0 {
		mode |= syscall.O_NOFOLLOW
	}
	fd, err := syscall.Open(path, mode, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, mode, 0)
	}
	if err != nil {
		if flags&NoFollow != 0 && err == syscall.ELOOP {
			return nil, fmt.Errorf("%s: %w (a symbolic link)", path, ErrNotRegular)
		}
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	if st.Size > max {
		return nil, fmt.Errorf("%s: %w (%d bytes, at most %d)", path, ErrTooLarge, st.Size, max)
	}
	// Room for what the file claims and one byte more, to see it grow. A
	// file that claims nothing (those of /proc do) gets room for a small
	// one at once: growing from one byte would take an allocation and a
	// read per size class, and in a new process each class's first
	// allocation costs a page fault.
	size := st.Size
	if size == 0 {
		size = unknownSize
	}
	data := make([]byte, 0, min(size, max)+1)
	for int64(len(data)) <= max {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		end := min(int64(cap(data)), max+1)
		n, err := syscall.Read(fd, data[len(data):end])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		data = data[:len(data)+n]
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w (more than %d bytes)", path, ErrTooLarge, max)
	}
	return data, nil
}

// WriteFile replaces path atomically with data: it is written to a temporary
// file beside it, given mode, and renamed over it, so a reader sees the old
// file or the new one and a crash leaves at most a temporary file.
func WriteFile(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), mode)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}

// Physical returns the form of a directory that records and lookups use:
// absolute with symlinks resolved, or only absolute and clean when it cannot
// be resolved (it may no longer exist).
func Physical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if p, err := filepath.EvalSymlinks(abs); err == nil {
		return p, nil
	}
	return abs, nil
}

// PhysicalOf resolves a directory a tool recorded, keeping it as recorded
// (cleaned) when it cannot be resolved or is not absolute.
func PhysicalOf(dir string) string {
	if p, err := filepath.EvalSymlinks(dir); err == nil {
		return p
	}
	return filepath.Clean(dir)
}

// SameDir compares a directory recorded by a tool with a physical one.
func SameDir(recorded, physical string) bool {
	if recorded == "" {
		return false
	}
	if recorded == physical {
		return true
	}
	r, err := filepath.EvalSymlinks(recorded)
	return err == nil && r == physical
}

// PathKey names a file or folder after a path without any of the path's
// syntax: 32 hex digits of its SHA-256. The store's directory index and
// discovery's caches key by it, so it must never change.
func PathKey(p string) string {
	sum := sha256.Sum256([]byte(p))
	return hex.EncodeToString(sum[:16])
}
