package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness"
)

func cmdShims(args []string) (int, error) {
	flags, pos, err := parseFlags(args, flagSpec{"--dir": true})
	if err != nil {
		return 2, err
	}
	if len(pos) != 1 || (pos[0] != "install" && pos[0] != "remove") {
		return 2, usagef("usage: fleetcom shims install|remove [--dir DIR]")
	}
	dir := flags["--dir"]
	if dir == "" {
		dir = resolvePaths().ShimDir
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return 1, err
	}
	if pos[0] == "install" {
		return 0, installShims(dir)
	}
	return 0, removeShims(dir)
}

// installShims makes dir hold one symlink per tool pointing at this
// executable. Re-running it repairs or updates the links and touches
// nothing else in dir.
func installShims(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find fleetcom's own path: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return fmt.Errorf("find fleetcom's own path: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create shim directory: %w", err)
	}
	for _, h := range harness.Tools() {
		link := filepath.Join(dir, h.Name())
		if target, err := os.Readlink(link); err == nil && target == exe {
			continue
		}
		if fi, err := os.Lstat(link); err == nil && fi.Mode()&os.ModeSymlink == 0 {
			return fmt.Errorf("%s exists and is not a symlink: not replacing it", link)
		}
		tmp := link + ".fleetcom-new"
		os.Remove(tmp)
		if err := os.Symlink(exe, tmp); err != nil {
			return fmt.Errorf("create shim: %w", err)
		}
		if err := os.Rename(tmp, link); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("create shim: %w", err)
		}
	}
	return nil
}

// removeShims deletes the tool symlinks from dir, and dir when it is left
// empty. Files that are not symlinks are left alone.
func removeShims(dir string) error {
	for _, h := range harness.Tools() {
		link := filepath.Join(dir, h.Name())
		fi, err := os.Lstat(link)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			warnf("%s is not a fleetcom shim: left in place", link)
			continue
		}
		if err := os.Remove(link); err != nil {
			return fmt.Errorf("remove shim: %w", err)
		}
	}
	os.Remove(dir) // only succeeds when empty
	return nil
}
