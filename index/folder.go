package index

import (
	"bytes"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// folder is a directory opened once to look at its files by name: a stat
// of a long path walks it from the root each time, which costs more than
// the stat itself when a refresh looks at a folder's 200 newest files.
type folder struct {
	fd     int    // -1 when the folder could not be opened
	prefix []byte // the folder's path and a separator
}

func openFolder(dir string) folder {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		fd = -1
	}
	prefix := []byte(dir)
	if !bytes.HasSuffix(prefix, []byte{filepath.Separator}) {
		prefix = append(prefix, filepath.Separator)
	}
	return folder{fd: fd, prefix: prefix}
}

// same reports that the file at path (as SQLite hands it over, valid
// only until the next row) is still the regular file of that size, mtime
// (Unix nanoseconds) and inode. A file of the folder is looked at from it
// with fstatat(2), which fills a Stat_t: os.Root's Lstat checks the name
// and builds a FileInfo, for 200 files a command.
func (f folder) same(path []byte, size, mtime, ino int64) bool {
	var st unix.Stat_t
	var err error
	if name, ok := bytes.CutPrefix(path, f.prefix); ok && f.fd >= 0 && len(name) > 0 && bytes.IndexByte(name, filepath.Separator) < 0 {
		err = unix.Fstatat(f.fd, string(name), &st, unix.AT_SYMLINK_NOFOLLOW)
	} else {
		err = unix.Lstat(string(path), &st)
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
