package safe

import (
	"bytes"
	"strconv"
)

// Proc is what /proc/<pid>/stat says of a process that fleetcom uses: its
// state (R, S, Z, ...), its parent, and its start time in clock ticks since
// boot, which tells a process apart from a later one given the same PID.
type Proc struct {
	State string
	PPID  int
	Start string
}

// ReadProc reads a process's parent and start time; ok is false for a
// process that is gone, or where there is no /proc.
func ReadProc(pid int) (p Proc, ok bool) {
	if pid <= 0 {
		return Proc{}, false
	}
	b, err := ReadFile("/proc/"+strconv.Itoa(pid)+"/stat", 4096, 0)
	if err != nil {
		return Proc{}, false
	}
	// The command name stands in parentheses and may hold anything; the
	// fields after the last ')' are the third onwards: state, ppid, …, and
	// the start time is the 22nd.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Proc{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return Proc{}, false
	}
	ppid, err := strconv.Atoi(string(f[1]))
	if err != nil {
		return Proc{}, false
	}
	return Proc{State: string(f[0]), PPID: ppid, Start: string(f[19])}, true
}

// Descends reports whether process pid is ancestor or one of its
// descendants, following parents through /proc (at most 64 levels). It is
// false where /proc cannot tell.
func Descends(pid, ancestor int) bool {
	if ancestor <= 0 {
		return false
	}
	for range 64 {
		if pid == ancestor {
			return true
		}
		p, ok := ReadProc(pid)
		if !ok || p.PPID <= 1 {
			return false
		}
		pid = p.PPID
	}
	return false
}
