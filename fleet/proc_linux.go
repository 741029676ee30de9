package fleet

import (
	"strconv"
	"strings"
	"time"

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

// readBootID reads the name of this boot; BootID keeps it.
func readBootID() string {
	b, err := safe.ReadFile("/proc/sys/kernel/random/boot_id", 128, 0)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// BootTime is when this boot began: btime of /proc/stat. Zero when unknown.
func BootTime() time.Time {
	b, err := safe.ReadFile("/proc/stat", 1<<20, 0)
	if err != nil {
		return time.Time{}
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			if s, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && s > 0 {
				return time.Unix(s, 0)
			}
		}
	}
	return time.Time{}
}
