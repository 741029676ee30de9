package main

import (
	"strings"

	"github.com/fleetcom/fleetcom/shim"
)

func cmdRun(in input) error {
	if len(in.args) == 0 {
		return mustCommand("run").misuse("run needs a command")
	}
	return runStatus(finish(shim.RunCommand(strings.Join(in.args, " "), shimOptions())))
}
