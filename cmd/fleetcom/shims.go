package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness"
)

func cmdShims(in input) error {
	if len(in.args) != 1 || (in.args[0] != "install" && in.args[0] != "remove") {
		return mustCommand("shims").misuse("shims needs install or remove")
	}
	dir := in.get("--dir")
	if dir == "" {
		dir = resolvePaths().ShimDir
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if in.args[0] == "install" {
		return installShims(dir)
	}
	return removeShims(dir)
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
	for _, a := range harness.All() {
		link := filepath.Join(dir, a.Name)
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
	for _, a := range harness.All() {
		link := filepath.Join(dir, a.Name)
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
