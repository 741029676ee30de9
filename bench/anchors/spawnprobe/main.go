// Command spawnprobe runs its arguments through shim.Spawn on its own
// descriptors with a 256 KiB tail and exits with the child's status: fleetcom's
// PTY core alone, without lookup, instrumentation or store. The benchmarks use
// it to isolate the core's cost, and as a stand-in for the accepted path.
//
// With SPAWNPROBE_RECORD set to a file name, it also writes a small JSON record
// there (temporary file and rename) when the child starts and when it ends, as
// the accepted path does.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/shim"
)

func main() { os.Exit(run()) }

func run() int {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: spawnprobe command [arg...]")
		return 2
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	tail := shim.NewTail(shim.DefaultTailSize)
	started := time.Now()
	rec := os.Getenv("SPAWNPROBE_RECORD")
	st, err := shim.Spawn(cmd, shim.SpawnOptions{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Tail: tail,
		Started: func(pid int) { record(rec, pid, started, nil) },
		Warn:    func(err error) { fmt.Fprintln(os.Stderr, "spawnprobe: warning:", err) },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "spawnprobe:", err)
	}
	if cmd.Process != nil {
		record(rec, cmd.Process.Pid, started, &st.Code)
	}
	if st.Signal != 0 {
		shim.Reraise(st.Signal)
	}
	return st.Code
}

func record(path string, pid int, started time.Time, code *int) {
	if path == "" {
		return
	}
	b, _ := json.Marshal(map[string]any{
		"pid": pid, "started": started.Format(time.RFC3339), "exit": code,
	})
	f, err := os.CreateTemp(filepath.Dir(path), ".record-*")
	if err != nil {
		return
	}
	_, _ = f.Write(b)
	_ = f.Close()
	_ = os.Rename(f.Name(), path)
}
