package shim

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/fleetcom/fleetcom/internal/own"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// A shim finds the real CLI by what the files are, never by editing PATH:
// the first <tool> on PATH that is neither one of fleetcom's programs (this
// executable, or fleetcom and fleetcom-shim beside it: package own) nor
// inside the shim directory. A hop record in the environment carries what a run already
// went through, so a user's own wrapper named like the tool, which calls the
// tool again, reaches the real CLI behind it; a depth counter turns a
// genuine loop into an error instead of a hang.

// maxHops bounds how many shims one chain of processes may pass through.
const maxHops = 8

// hop is what FLEETCOM_<TOOL>_HOP carries: the pid of the shim that launched
// a candidate, how many shims the chain has passed, a fingerprint of the
// arguments it launched the candidate with, and the PATH candidates already
// tried (PATH entries cannot hold ':', so neither can these).
type hop struct {
	pid   int
	depth int
	args  string
	skip  []string
}

// parseHop reads a hop record; a malformed one counts as none.
func parseHop(v string) (hop, bool) {
	parts := strings.Split(v, ":")
	if len(parts) < 3 {
		return hop{}, false
	}
	pid, err1 := strconv.Atoi(parts[0])
	depth, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || pid <= 0 || depth < 0 {
		return hop{}, false
	}
	h := hop{pid: pid, depth: depth, args: parts[2]}
	for _, p := range parts[3:] {
		if p != "" {
			h.skip = append(h.skip, p)
		}
	}
	return h, true
}

// String formats the record for the environment.
func (h hop) String() string {
	return strconv.Itoa(h.pid) + ":" + strconv.Itoa(h.depth) + ":" + h.args + ":" + strings.Join(h.skip, ":")
}

// argsPrint fingerprints the arguments after the program word.
func argsPrint(args []string) string {
	f := fnv.New64a()
	for _, a := range args {
		f.Write([]byte(a))
		f.Write([]byte{0})
	}
	return strconv.FormatUint(f.Sum64(), 36)
}

// passOn decides how a shim treats an inherited hop record. A call made by
// what the hop's shim launched (this process or one of its nearest
// ancestors is that shim) is a wrapper passing our command on, unless its
// arguments are an accepted form other than the one launched: that is an
// agent starting a conversation of its own, which gets its own capture.
// Passing on means running the command untouched, past the candidates the
// chain already went through.
func (h hop) passOn(args []string, accepted bool) bool {
	if accepted && argsPrint(args) != h.args {
		return false
	}
	return h.near()
}

// near reports whether the hop's shim is this process or one of its three
// nearest ancestors (a wrapper script and the shell it runs sit between).
func (h hop) near() bool {
	pid := os.Getpid()
	for i := 0; i < 4 && pid > 1; i++ {
		if pid == h.pid {
			return true
		}
		if i == 0 {
			pid = os.Getppid()
			continue
		}
		pid = parentOf(pid)
	}
	return false
}

// parentOf reads a process's parent pid from /proc; 0 when unknown.
func parentOf(pid int) int {
	p, _ := safe.ReadProc(pid)
	return p.PPID
}

// ErrNoReal is returned when no real binary can be found.
var ErrNoReal = errors.New("no real binary")

// finder locates the real binary of one tool.
type finder struct {
	tool     string
	binVar   string // FLEETCOM_<TOOL>_BIN
	override string // FLEETCOM_<TOOL>_BIN or the config's bin
	source   string // where override came from, for messages
	path     string // $PATH
	shimDir  string
	skip     []string
}

// find returns the real binary and whether it came from PATH (only PATH
// candidates go into a hop's skip list).
func (f *finder) find() (string, bool, error) {
	self := own.Files()
	if f.override != "" {
		fi, err := os.Stat(f.override)
		from := f.source
		if from == "" {
			from = f.binVar
		}
		switch {
		case err != nil:
			return "", false, fmt.Errorf("%s is set to %s: %w", from, f.override, err)
		case !executable(fi):
			return "", false, fmt.Errorf("%s is set to %s, which is not an executable file", from, f.override)
		case own.Is(self, fi):
			return "", false, fmt.Errorf("%s is set to %s, which is fleetcom itself", from, f.override)
		}
		return f.override, false, nil
	}
	var shimDir os.FileInfo
	if f.shimDir != "" {
		shimDir, _ = os.Stat(f.shimDir)
	}
	first, denied := "", ""
	for _, dir := range filepath.SplitList(f.path) {
		if dir == "" {
			dir = "."
		}
		cand := filepath.Join(dir, f.tool)
		fi, err := os.Stat(cand)
		if err != nil || !executable(fi) {
			continue
		}
		if own.Is(self, fi) {
			continue
		}
		if shimDir != nil {
			if di, err := os.Stat(dir); err == nil && os.SameFile(di, shimDir) {
				continue
			}
		}
		if !runnable(cand) {
			// As a shell's search does: a file this user may not run (a
			// noexec mount, no execute permission for us) is passed over,
			// and reported only when nothing else is found.
			if denied == "" {
				denied = cand
			}
			continue
		}
		if f.skipped(cand, fi) {
			if first == "" {
				first = cand
			}
			continue
		}
		return cand, true, nil
	}
	if first != "" {
		// Everything left was already passed through. It may still be the
		// real CLI (an agent calling it again close to the shim); if it is a
		// wrapper with nothing behind it, the hop depth ends the loop.
		return first, true, nil
	}
	if denied != "" {
		return "", false, &fs.PathError{Op: "exec", Path: denied, Err: syscall.EACCES}
	}
	return "", false, ErrNoReal
}

// skipped reports a candidate a wrapper hop already went through.
func (f *finder) skipped(cand string, fi os.FileInfo) bool {
	for _, s := range f.skip {
		if s == cand {
			return true
		}
		if si, err := os.Stat(s); err == nil && os.SameFile(si, fi) {
			return true
		}
	}
	return false
}

func executable(fi os.FileInfo) bool {
	return fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// runnable reports that this process may execute name: access(2) with X_OK
// refuses a file on a noexec mount, or one without execute permission for
// this user. (Package early applies the same test.)
func runnable(name string) bool {
	return syscall.Access(name, xOK) == nil
}

// xOK is access(2)'s X_OK, which package syscall does not name.
const xOK = 1

// execReal replaces this process with the real binary. A file the kernel
// does not take as a program (ENOEXEC: a script without "#!") is run by
// /bin/sh, as execvp(3) and the shells run it.
func execReal(path string, argv, env []string) error {
	err := syscall.Exec(path, argv, env)
	if err == syscall.ENOEXEC {
		err = syscall.Exec(shellPath, scriptArgs(path, argv), env)
	}
	return fmt.Errorf("exec %s: %w", path, err)
}

// shellPath is the shell that runs a file the kernel does not take as a
// program.
const shellPath = "/bin/sh"

// scriptArgs is the argv under which /bin/sh runs path as a script in place
// of a program given argv.
func scriptArgs(path string, argv []string) []string {
	args := make([]string, 0, len(argv)+1)
	args = append(args, shellPath, path)
	if len(argv) > 1 {
		args = append(args, argv[1:]...)
	}
	return args
}
