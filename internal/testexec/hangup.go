package testexec

import (
	"os"
	"os/signal"
	"syscall"
)

// DefaultHangup gives every program this test process starts the default
// action for SIGHUP, even when the tests themselves were started with it
// ignored (under nohup, or a CI runner that does the same). An ignored
// signal stays ignored across exec, and fleetcom's shim keeps it so, as
// nohup asks: the tests of hangups would then see nothing die. A handler
// of this process's own is reset to the default in each child at exec.
//
// Call it from TestMain in the process that runs the tests, never in a
// child role: a role that is a stand-in CLI must die of SIGHUP as a CLI
// does, and a handler would keep it alive.
func DefaultHangup() {
	if signal.Ignored(syscall.SIGHUP) {
		signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)
	}
}
