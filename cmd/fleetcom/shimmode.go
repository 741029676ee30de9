package main

import (
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/shimenv"
	"github.com/fleetcom/fleetcom/shim"
)

// shimMode runs the shim of agent a and returns the child's status. A
// child that died of a signal is re-raised on this process once the
// terminal is restored, so the parent shell sees the same death.
func shimMode(a harness.Agent, args []string) int {
	return shimenv.Run(a, args, warning, report)
}

// finish turns a run's outcome into the exit status (shimenv.Finish).
func finish(st shim.Status, err error) int { return shimenv.Finish(st, err, report) }

// runStatus is a command's error for a run that finished: nil for status 0,
// else the status to exit with.
func runStatus(code int) error {
	if code == 0 {
		return nil
	}
	return exitStatus(code)
}
