package fleet

import (
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// startTime is the process's start time as the kernel keeps it
// (kern.proc.pid), in microseconds since the epoch.
func startTime(pid int) (string, bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || k.Proc.P_pid != int32(pid) {
		return "", false
	}
	t := k.Proc.P_starttime
	return strconv.FormatInt(int64(t.Sec)*1e6+int64(t.Usec), 10), true
}

// readBootID reads the name of this boot; BootID keeps it.
func readBootID() string {
	if s, err := unix.Sysctl("kern.bootsessionuuid"); err == nil && s != "" {
		return s
	}
	if t, err := unix.SysctlTimeval("kern.boottime"); err == nil {
		return strconv.FormatInt(int64(t.Sec), 10)
	}
	return ""
}

// BootTime is when this boot began (kern.boottime). Zero when unknown.
func BootTime() time.Time {
	t, err := unix.SysctlTimeval("kern.boottime")
	if err != nil || t.Sec <= 0 {
		return time.Time{}
	}
	return time.Unix(int64(t.Sec), int64(t.Usec)*1000)
}

// procOf is a process's start time (as startTime) and parent
// (kern.proc.pid).
func procOf(pid int) (start string, parent int, ok bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || k.Proc.P_pid != int32(pid) || k.Eproc.Ppid <= 0 {
		return "", 0, false
	}
	t := k.Proc.P_starttime
	return strconv.FormatInt(int64(t.Sec)*1e6+int64(t.Usec), 10), int(k.Eproc.Ppid), true
}

// image: the program a process runs is not read here cheaply, and there is
// no session leader between a shim and its CLI; only the parent is
// checked (fleetcomImage takes any).
func image(int) (string, bool) { return "", true }

func fleetcomImage(string) bool { return true }
