// Command leadercode links package leader into a program of its own, with
// its symbols, for TestLeaderCodeCallsNoRuntime to disassemble. It is never
// run.
package main

import (
	"fmt"

	"github.com/fleetcom/fleetcom/shim/internal/leader"
)

func main() {
	fmt.Println(leader.Start(leader.Spec{Path: "/bin/true", Args: []string{"true"}}))
}
