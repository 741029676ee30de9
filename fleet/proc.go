package fleet

import (
	"errors"
	"sync"
	"syscall"
)

// Proc is one process as it can be told apart from any other: its ID, when
// it started (as the system counts it: clock ticks since boot on Linux), and
// the boot it belongs to. A PID alone is reused; with its start time and the
// boot it names one process only.
type Proc struct {
	PID   int    `json:"pid"`
	Start string `json:"pid_start"`
	Boot  string `json:"boot"`
}

// Identify returns the identity of the running process pid; ok is false
// when it is gone or the system cannot tell.
func Identify(pid int) (p Proc, ok bool) {
	start, ok := startTime(pid)
	if !ok {
		return Proc{}, false
	}
	return Proc{PID: pid, Start: start, Boot: BootID()}, true
}

// Alive reports whether p is running now: the same PID, started at the same
// time, in this boot. It never says yes for a process that is gone, even
// when its PID was given to another one since; where the start time cannot
// be read (a system without /proc or sysctl for it), it says no.
func Alive(p Proc) bool {
	if p.PID <= 0 || p.Start == "" || p.Boot == "" || p.Boot != BootID() {
		return false
	}
	start, ok := startTime(p.PID)
	return ok && start == p.Start && exists(p.PID)
}

// exists reports a process of that ID, ours or another user's.
func exists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// boot keeps the name of this boot once read. A sync.Once, not OnceValue,
// so that declaring it costs nothing when a shim starts.
var boot struct {
	once sync.Once
	id   string
}

// BootID names this boot of the machine ("" when unknown): on Linux the
// kernel's random boot ID, on macOS the boot session UUID.
func BootID() string {
	boot.once.Do(func() { boot.id = readBootID() })
	return boot.id
}

// Live reports whether r's CLI is running now under r's shim: its process
// is alive (Alive), and its parent is the shim, or the session leader the
// shim put between them (a clone of the shim: the same program, the
// shim's child), and the shim is a fleetcom. A live file naming any other
// process, alive or not, is not a run: it never passes for one that holds
// its conversation.
func Live(r Run) bool {
	if r.PID <= 0 || r.Start == "" || r.Boot == "" || r.Boot != BootID() || r.Shim <= 0 || r.Shim == r.PID {
		return false
	}
	start, parent, ok := procOf(r.PID)
	if !ok || start != r.Start || !exists(r.PID) {
		return false
	}
	shim, ok := image(r.Shim)
	if !ok || !fleetcomImage(shim) {
		return false
	}
	if parent == r.Shim {
		return true
	}
	_, grand, ok := procOf(parent)
	if !ok || grand != r.Shim {
		return false
	}
	leader, ok := image(parent)
	return ok && leader != "" && leader == shim
}
