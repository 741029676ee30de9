package fleet

import (
	"strings"
	"sync"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// startTime is the 22nd field of /proc/<pid>/stat: when the process started,
// in clock ticks since boot. A zombie keeps it until reaped; startTime says
// no for one, since its conversation is over.
func startTime(pid int) (string, bool) {
	p, ok := safe.ReadProc(pid)
	if !ok || p.State == "Z" || p.State == "X" {
		return "", false
	}
	return p.Start, true
}

var bootID = sync.OnceValue(func() string {
	b, err := safe.ReadFile("/proc/sys/kernel/random/boot_id", 128, 0)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
})

// BootID names this boot of the machine ("" when unknown): the kernel's
// random boot ID.
func BootID() string { return bootID() }
