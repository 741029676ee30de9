// Package own tells fleetcom's own programs from everything else. An
// install is two programs side by side in one directory: fleetcom, the
// command, and fleetcom-shim, which the agents' shims link to (it runs only
// the shim, and so links less: its start costs less). A build without
// fleetcom-shim has its shims link to fleetcom itself. Whatever looks for
// "a shim of ours" or "our own binary" (the real CLI's lookup, the shims'
// install and removal, doctor, process detection) asks here, so that both
// count.
package own

import (
	"os"
	"path/filepath"
	"runtime"
)

// The programs' file names.
const (
	Command = "fleetcom"
	Shim    = "fleetcom-shim"
)

// Name reports whether base is the file name of one of fleetcom's
// programs.
func Name(base string) bool { return base == Command || base == Shim }

// Files describes the running program's file and, in its directory, the
// files named fleetcom and fleetcom-shim: so a symlink to any of them
// anywhere on PATH is recognised as ours. Empty when even this program's
// own file cannot be told.
func Files() []os.FileInfo {
	var out []os.FileInfo
	self, err := os.Stat("/proc/self/exe")
	if err == nil {
		out = append(out, self)
	}
	exe, xerr := os.Executable()
	if xerr == nil {
		if runtime.GOOS != "linux" { // Linux answers /proc/self/exe, resolved
			if resolved, err := filepath.EvalSymlinks(exe); err == nil {
				exe = resolved
			}
		}
		if self == nil {
			if fi, err := os.Stat(exe); err == nil {
				out = append(out, fi)
			}
		}
	}
	if len(out) == 0 || xerr != nil {
		return out
	}
	dir := filepath.Dir(exe)
	for _, name := range []string{Command, Shim} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && executable(fi) && !os.SameFile(fi, out[0]) {
			out = append(out, fi)
		}
	}
	return out
}

// Is reports whether fi is one of files (as Files gives them).
func Is(files []os.FileInfo, fi os.FileInfo) bool {
	for _, f := range files {
		if os.SameFile(f, fi) {
			return true
		}
	}
	return false
}

// ShimBeside is fleetcom-shim in the directory of exe, when an executable
// file is there.
func ShimBeside(exe string) (string, bool) {
	p := filepath.Join(filepath.Dir(exe), Shim)
	fi, err := os.Stat(p)
	return p, err == nil && executable(fi)
}

func executable(fi os.FileInfo) bool {
	return fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
