// Command fleetcom keeps agent CLI conversations resumable. Run under the
// name of an agent (through a shim symlink named after the agent's program)
// it is that agent's shim; under any other name it is the fleetcom command.
package main

import (
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/stack"
)

func main() {
	// One copy of a shallow stack now instead of several deep ones on the
	// way to the child (internal/stack).
	stack.Reserve()
	os.Exit(run(os.Args))
}

// run dispatches on the name the binary was started under and returns the
// exit status; it is the only caller of os.Exit's argument.
func run(args []string) int {
	if len(args) == 0 {
		return exitUsage
	}
	if a, ok := agents.Named(filepath.Base(args[0])); ok {
		return shimMode(a, args)
	}
	return dispatch(args[1:])
}
