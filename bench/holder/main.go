// Command holder stands for the shims of a fleet in the status benchmarks
// (bench/status.sh, bench/history.sh): fleetcom counts a run as live only
// while its CLI is the child of a process whose program is fleetcom, so the
// scripts build this as a program named fleetcom. It starts N sleeping
// children (N is its argument, 50 by default), prints their PIDs one per
// line, closes its output, and holds them until SIGTERM or SIGINT, when it
// ends them too.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
)

func main() {
	n := 50
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil || v <= 0 {
			fmt.Fprintln(os.Stderr, "usage: holder [N]")
			os.Exit(2)
		}
		n = v
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGTERM, syscall.SIGINT)
	var kids []*os.Process
	for i := 0; i < n; i++ {
		cmd := exec.Command("sleep", "3600")
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "holder:", err)
			os.Exit(1)
		}
		kids = append(kids, cmd.Process)
		fmt.Println(cmd.Process.Pid)
	}
	os.Stdout.Close()
	<-c
	for _, p := range kids {
		p.Kill()
	}
}
