package catalog

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// scanProcesses reads /proc: the processes (of this user: others' are not
// readable, and cannot write to this user's files anyway) with a descriptor
// open on one of paths, or, unless they are ancestors, a command line that
// names id, or, with in, one of its programs running in its directory.
func scanProcesses(paths []string, id string, ancestors map[int]bool, in *inDir) ([]Holder, string) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, "which processes have it open (no /proc)"
	}
	self := os.Getpid()
	var out []Holder
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		argv := readArgv(pid)
		if (!ancestors[pid] && namesID(argv, id)) || holdsOpen(pid, paths) || runsIn(pid, argv, in) {
			out = append(out, Holder{PID: pid, Command: commandLine(argv)})
		}
	}
	return out, ""
}

// runsIn reports that pid is one of in's programs, in its directory.
func runsIn(pid int, argv []string, in *inDir) bool {
	if in == nil || !in.runs(argv) {
		return false
	}
	cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	return err == nil && cwd == in.dir
}

// holdsOpen reports a descriptor of pid open on one of paths.
func holdsOpen(pid int, paths []string) bool {
	if len(paths) == 0 {
		return false
	}
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		target, err := os.Readlink(dir + "/" + fd.Name())
		if err == nil && strings.HasPrefix(target, "/") && under(target, paths) {
			return true
		}
	}
	return false
}

// readArgv is a process's command line.
func readArgv(pid int) []string {
	b, err := safe.ReadFile("/proc/"+strconv.Itoa(pid)+"/cmdline", 64<<10, 0)
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(string(bytes.TrimSuffix(b, []byte{0})), "\x00")
}

// commandOf is a process's command line, for people.
func commandOf(pid int) string { return commandLine(readArgv(pid)) }
