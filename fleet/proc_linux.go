package fleet

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/internal/own"
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

// procOf is a process's start time (as startTime) and parent.
func procOf(pid int) (start string, parent int, ok bool) {
	p, ok := safe.ReadProc(pid)
	if !ok || p.State == "Z" || p.State == "X" || p.PPID <= 0 {
		return "", 0, false
	}
	return p.Start, p.PPID, true
}

// image is the program a process runs, as /proc shows it: readable for
// this user's own processes only.
func image(pid int) (string, bool) {
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil || exe == "" {
		return "", false
	}
	// A program replaced since it started (an upgrade) is still itself.
	return strings.TrimSuffix(exe, " (deleted)"), true
}

// fleetcomImage reports a program that is fleetcom: of the name this one
// has (the same binary, or another install of it), or of the name of one
// of fleetcom's programs (fleetcom, or fleetcom-shim, which the shims link
// to when it is installed).
func fleetcomImage(exe string) bool {
	name := filepath.Base(exe)
	return own.Name(name) || name == selfName()
}

// selfName is the base name of this program's file.
var selfName = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return filepath.Base(exe)
})
