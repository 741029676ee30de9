package index

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// folder is a directory opened once to look at its files by name: a stat
// of a long path walks it from the root each time, which costs more than
// the stat itself when a refresh looks at a folder's 200 newest files.
type folder struct {
	root *os.Root // nil when the folder could not be opened
	dir  string
}

func openFolder(dir string) folder {
	r, err := os.OpenRoot(dir)
	if err != nil {
		r = nil
	}
	return folder{root: r, dir: dir}
}

// lstat is os.Lstat of path, from the folder when path is one of its files.
func (f folder) lstat(path string) (fs.FileInfo, error) {
	if f.root != nil && filepath.Dir(path) == f.dir {
		return f.root.Lstat(filepath.Base(path))
	}
	return os.Lstat(path)
}

// same reports that path is still the regular file of that size, mtime
// (Unix nanoseconds) and inode.
func (f folder) same(path string, size, mtime, ino int64) bool {
	fi, err := f.lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != size || fi.ModTime().UnixNano() != mtime {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int64(st.Ino) == ino
}

func (f folder) close() {
	if f.root != nil {
		f.root.Close()
	}
}
