// Command fleetcom-shim is the program the agents' shims link to when it
// is installed beside fleetcom: the shim alone, run under the name of an
// agent (claude, codex, …), exactly as fleetcom runs it under that name
// (package shim, through internal/shimenv). It does not link what only the
// commands need, above all the index's SQLite driver, so a shim's start
// pays for none of it; an agent whose store is a database (opencode's) is
// then read with the sqlite3 program (harness.OpenDB stays nil).
// TestImportBoundary holds that.
//
// Under any other name it runs nothing and says to run fleetcom.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/msg"
	"github.com/fleetcom/fleetcom/internal/shimenv"
)

// exitUsage is the status of a start under a name that is no agent's, as
// fleetcom's for a command it does not know.
const exitUsage = 2

var stderr io.Writer = os.Stderr

func main() { os.Exit(run(os.Args)) }

// run returns the exit status for the command line args.
func run(args []string) int {
	name := ""
	if len(args) > 0 {
		name = filepath.Base(args[0])
	}
	a, ok := agents.Named(name)
	if !ok {
		msg.Say(stderr, "error", fmt.Sprintf("fleetcom-shim runs only as an agent's shim (%s), not as %s", agentList(), printName(name)))
		msg.Say(stderr, "hint", "run fleetcom for fleetcom's commands: fleetcom help")
		return exitUsage
	}
	return shimenv.Run(a, args, warning, report)
}

func warning(err error) { msg.Say(stderr, "warning", err.Error()) }
func report(err error)  { msg.Report(stderr, err) }

// agentList names the agents, "claude, codex, …".
func agentList() string {
	s := ""
	for i, n := range agents.Names() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// printName is the name run was started under, for the message.
func printName(name string) string {
	if name == "" {
		return "a program without a name"
	}
	return name
}
