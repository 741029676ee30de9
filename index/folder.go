package index

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// folder is a directory opened once to look at its files by name: a stat
// of a long path walks it from the root each time, which costs more than
// the stat itself when a refresh looks at a folder's 200 newest files.
type folder struct {
	fd  int // -1 when the folder could not be opened
	dir string
}

func openFolder(dir string) folder {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		fd = -1
	}
	return folder{fd: fd, dir: dir}
}

// same reports that path is still the regular file of that size, mtime
// (Unix nanoseconds) and inode. A file of the folder is looked at from it
// with fstatat(2), which fills a Stat_t and allocates nothing: os.Root's
// Lstat checks the name and builds a FileInfo, for 200 files a command.
func (f folder) same(path string, size, mtime, ino int64) bool {
	var st unix.Stat_t
	var err error
	if f.fd >= 0 && filepath.Dir(path) == f.dir {
		err = unix.Fstatat(f.fd, filepath.Base(path), &st, unix.AT_SYMLINK_NOFOLLOW)
	} else {
		err = unix.Lstat(path, &st)
	}
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size != size || st.Ino != uint64(ino) {
		return false
	}
	sec, nsec := st.Mtim.Unix()
	return sec*1e9+nsec == mtime
}

func (f folder) close() {
	if f.fd >= 0 {
		unix.Close(f.fd)
	}
}
