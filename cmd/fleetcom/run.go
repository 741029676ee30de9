package main

import (
	"strings"

	"github.com/fleetcom/fleetcom/shim"
)

func cmdRun(args []string) (int, error) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return 2, usagef("run needs a command")
	}
	return finish(shim.RunCommand(strings.Join(args, " "), shimOptions())), nil
}
