package main

import (
	"os"

	"github.com/fleetcom/fleetcom/shim"
)

// shimMode runs the shim of tool and returns the child's status. A child
// that died of a signal is re-raised on this process once the terminal is
// restored, so the parent shell sees the same death.
func shimMode(tool string, args []string) int {
	st, err := shim.Run(tool, args, shimOptions())
	return finish(st, err)
}

// shimOptions are the options every shim-runtime entry uses.
func shimOptions() shim.Options {
	return shim.Options{
		Paths:  resolvePaths(),
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Warn:   warning,
	}
}

// finish turns a run's outcome into the exit status.
func finish(st shim.Status, err error) int {
	if err != nil {
		report(err)
	}
	if st.Signal != 0 {
		shim.Reraise(st.Signal)
	}
	return st.Code
}
