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

// The shim directory may be shared with other programs (a user may point
// --dir at ~/.local/bin, where Claude's native installer keeps its own
// claude link), so fleetcom only ever creates, replaces or removes links
// that lead to fleetcom. Anything else is refused, saying what is there.

// ourLink reports whether link is a symlink leading to fleetcom: to this
// very binary, or to a file named fleetcom (another install of it).
func ourLink(link string) (ours bool, target string, err error) {
	fi, err := os.Lstat(link)
	if err != nil {
		return false, "", err
	}
	if fi.Mode()&os.ModeSymlink == 0 {
		return false, "", nil
	}
	target, err = os.Readlink(link)
	if err != nil {
		return false, "", err
	}
	if filepath.Base(target) == "fleetcom" {
		return true, target, nil
	}
	self, serr := os.Stat("/proc/self/exe")
	fi, err = os.Stat(link)
	return serr == nil && err == nil && os.SameFile(fi, self), target, nil
}

// installShims makes dir hold one symlink per agent pointing at this
// executable. Re-running it repairs or updates fleetcom's links and touches
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
	// Check every name first, so a refusal leaves the directory as it was.
	for _, a := range harness.All() {
		link := filepath.Join(dir, a.Name)
		ours, target, err := ourLink(link)
		switch {
		case errors.Is(err, os.ErrNotExist), ours:
		case err != nil:
			return err
		case target != "":
			return fmt.Errorf("%s is a symlink to %s, not to fleetcom: not replacing it (choose another --dir)", link, target)
		default:
			return fmt.Errorf("%s exists and is not a symlink: not replacing it (choose another --dir)", link)
		}
	}
	for _, a := range harness.All() {
		link := filepath.Join(dir, a.Name)
		if target, err := os.Readlink(link); err == nil && target == exe {
			continue
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

// removeShims deletes fleetcom's links from dir, and dir when it is left
// empty. Anything else named like an agent is left alone, with a warning.
func removeShims(dir string) error {
	for _, a := range harness.All() {
		link := filepath.Join(dir, a.Name)
		ours, target, err := ourLink(link)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue
		case err != nil:
			return err
		case !ours && target != "":
			warnf("%s is a symlink to %s, not to fleetcom: left in place", link, target)
			continue
		case !ours:
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
