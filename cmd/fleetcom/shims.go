package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/own"
	"github.com/fleetcom/fleetcom/internal/safe"
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
		if err := installShims(dir); err != nil {
			return err
		}
		return installMan(dir)
	}
	if err := removeShims(dir); err != nil {
		return err
	}
	removeMan(dir)
	return nil
}

// manFile is where man looks for fleetcom(1) when the shim directory is on
// PATH: man-db searches ../man beside each PATH directory.
func manFile(shimDir string) string {
	return filepath.Join(filepath.Dir(shimDir), "man", "man1", "fleetcom.1")
}

// installMan writes the manual page beside the shim directory. A file
// there that fleetcom did not write is left alone.
func installMan(shimDir string) error {
	p := manFile(shimDir)
	// Read without blocking or following a link: a FIFO, a symlink or a
	// file too large to be ours is someone else's too.
	if data, err := safe.ReadFile(p, maxManPage, safe.NoFollow); !errors.Is(err, fs.ErrNotExist) &&
		(err != nil || !strings.HasPrefix(string(data), manMark)) {
		warnf("%s is not fleetcom's manual page: left in place", p)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("install the manual page: %w", err)
	}
	return safe.WriteFile(p, []byte(manMark+manPage()), 0o644)
}

// removeMan removes the manual page installMan wrote, and the folders left
// empty.
func removeMan(shimDir string) {
	p := manFile(shimDir)
	if data, err := safe.ReadFile(p, maxManPage, safe.NoFollow); err == nil && strings.HasPrefix(string(data), manMark) {
		os.Remove(p)
		os.Remove(filepath.Dir(p))
		os.Remove(filepath.Dir(filepath.Dir(p)))
	}
}

// maxManPage bounds what is read of a manual page to tell whether it is
// fleetcom's: its own is a few dozen KiB.
const maxManPage = 1 << 20

// manMark opens the manual page fleetcom writes, so it knows its own.
const manMark = ".\\\" fleetcom's manual page, written by fleetcom shims install\n"

// The shim directory may be shared with other programs (a user may point
// --dir at ~/.local/bin, where Claude's native installer keeps its own
// claude link), so fleetcom only ever creates, replaces or removes links
// that lead to fleetcom or fleetcom-shim (package own). Anything else is refused, saying what is there.

// linkNames are the links a shim directory holds: one per agent, and
// fleetcom itself, so that the one line of `fleetcom init` that puts the
// shim directory first on PATH also puts fleetcom on it.
func linkNames() []string { return append(agents.Names(), own.Command) }

// entry is what a shim directory holds under one name.
type entry int

const (
	missing   entry = iota
	ourLink         // a symlink to fleetcom or fleetcom-shim: ours to replace or remove
	selfFile        // fleetcom's binary itself, or fleetcom-shim beside it (the directory is its bin dir)
	otherLink       // a symlink to something else
	otherFile       // anything else
)

// inspect says what link is, and where a symlink leads.
func inspect(link string) (entry, string, error) {
	fi, err := os.Lstat(link)
	if errors.Is(err, os.ErrNotExist) {
		return missing, "", nil
	}
	if err != nil {
		return otherFile, "", err
	}
	ours := own.Files()
	if fi.Mode()&os.ModeSymlink == 0 {
		if own.Is(ours, fi) {
			return selfFile, "", nil
		}
		return otherFile, "", nil
	}
	target, err := os.Readlink(link)
	if err != nil {
		return otherFile, "", err
	}
	if own.Name(filepath.Base(target)) {
		return ourLink, target, nil
	}
	if ti, err := os.Stat(link); err == nil && own.Is(ours, ti) {
		return ourLink, target, nil
	}
	return otherLink, target, nil
}

// installShims makes dir hold one symlink per agent, pointing at
// fleetcom-shim when it sits beside this executable (else at this
// executable), and one named fleetcom, pointing at this executable.
// Re-running it repairs or updates fleetcom's links and touches nothing
// else in dir.
func installShims(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find fleetcom's own path: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return fmt.Errorf("find fleetcom's own path: %w", err)
	}
	shimExe := exe
	if p, ok := own.ShimBeside(exe); ok {
		shimExe = p
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create shim directory: %w", err)
	}
	// Check every name first, so a refusal leaves the directory as it was.
	for _, name := range linkNames() {
		link := filepath.Join(dir, name)
		kind, target, err := inspect(link)
		switch {
		case err != nil:
			return err
		case kind == otherLink:
			return fmt.Errorf("%s is a symlink to %s, not to fleetcom: not replacing it (choose another --dir)", link, target)
		case kind == otherFile:
			return fmt.Errorf("%s exists and is not a symlink: not replacing it (choose another --dir)", link)
		}
	}
	for _, name := range linkNames() {
		link := filepath.Join(dir, name)
		if kind, _, _ := inspect(link); kind == selfFile {
			continue
		}
		want := shimExe
		if name == own.Command {
			want = exe
		}
		if target, err := os.Readlink(link); err == nil && target == want {
			continue
		}
		tmp := link + ".fleetcom-new"
		os.Remove(tmp)
		if err := os.Symlink(want, tmp); err != nil {
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
	for _, name := range linkNames() {
		link := filepath.Join(dir, name)
		kind, target, err := inspect(link)
		switch {
		case err != nil:
			return err
		case kind == missing, kind == selfFile:
			continue
		case kind == otherLink:
			warnf("%s is a symlink to %s, not to fleetcom: left in place", link, target)
			continue
		case kind == otherFile:
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
