package safe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// PrivateDir checks that dir can be trusted as a directory of this user that
// nobody else can change, the way OpenSSH's StrictModes checks the path to
// authorized_keys. dir is made absolute and its symlinks are resolved; the
// resolved path is what is checked and what PrivateDir returns, and callers
// use it from then on, so a symlink changed later cannot redirect them.
//
// The rules: dir itself is a directory owned by this user and not writable
// by group or others; every ancestor up to / is owned by this user or root,
// and not writable by group or others unless it has the sticky bit (as /tmp
// does), where others can add entries but not rename or remove ours.
func PrivateDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	uid := os.Getuid()
	fi, err := os.Lstat(resolved)
	if err != nil {
		return "", err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return "", fmt.Errorf("%s is not a directory", resolved)
	case ok && int(st.Uid) != uid:
		return "", fmt.Errorf("%s belongs to uid %d, not to you", resolved, st.Uid)
	case fi.Mode().Perm()&0o022 != 0:
		return "", fmt.Errorf("%s is writable by others (mode %04o)", resolved, fi.Mode().Perm())
	}
	for p := filepath.Dir(resolved); ; p = filepath.Dir(p) {
		if err := trustedAncestor(p, uid); err != nil {
			return "", err
		}
		if p == filepath.Dir(p) {
			return resolved, nil
		}
	}
}

// trustedAncestor checks one directory on the way to a private one.
func trustedAncestor(p string, uid int) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		// EvalSymlinks resolved them all: one now is a swap under way.
		return fmt.Errorf("%s became a symlink", p)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return errors.New("cannot read file owners on this system")
	}
	if int(st.Uid) != uid && st.Uid != 0 {
		return fmt.Errorf("%s, above it, belongs to uid %d", p, st.Uid)
	}
	if fi.Mode().Perm()&0o022 != 0 && fi.Mode()&os.ModeSticky == 0 {
		return fmt.Errorf("%s, above it, is writable by others (mode %04o) without the sticky bit", p, fi.Mode().Perm())
	}
	return nil
}
