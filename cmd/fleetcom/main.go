package main

import (
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/index"
)

func main() {
	// This binary links SQLite (the index): the agents whose store is a
	// database read it in process, never with the sqlite3 program. The
	// shims run fleetcom-shim, which links none of it, when it is
	// installed beside this binary.
	harness.OpenDB = index.OpenAgentDB
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
