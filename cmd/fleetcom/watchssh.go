package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// `status --watch --host` asks each host every few seconds. So that this
// is one login per host, not one per ask (a key exchange and a line in the
// host's auth log each time), ssh keeps one connection to each host open
// for the watch: a control master of fleetcom's own, whose socket is in a
// folder of this process's in the private runtime directory,
// <runtime>/ssh-<pid>/<n>. The master goes when the watch ends (ssh -O
// exit), or, should fleetcom be killed first, 30 s after the last ask
// (ControlPersist); the folder of a watch that was killed is removed by
// the next. Streaming a remote `status --watch --json` instead would need
// a fleetcom there that has it; this asks any fleetcom for what it has
// always answered, `status --json`.

// controlDir makes this process's folder for control sockets and returns
// it; "" when the runtime directory is not a private one of ours (each ask
// then logs in on its own).
func controlDir() string {
	root := resolvePaths().Runtime.Dir
	if root == "" || os.MkdirAll(root, 0o700) != nil {
		return ""
	}
	root, err := safe.PrivateDir(root)
	if err != nil {
		return ""
	}
	sweepControlDirs(root)
	dir := filepath.Join(root, "ssh-"+strconv.Itoa(os.Getpid()))
	os.RemoveAll(dir) // a killed watch's, whose PID this process has now
	if os.Mkdir(dir, 0o700) != nil {
		return ""
	}
	return dir
}

// socketIn is host n's control socket in dir; "" without dir.
func socketIn(dir string, n int) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, strconv.Itoa(n))
}

// sweepControlDirs removes the socket folders of watches that are gone.
func sweepControlDirs(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "ssh-"))
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "ssh-") || err != nil || pid <= 0 {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}
