package e2e

import (
	"slices"
	"testing"

	supported "github.com/fleetcom/fleetcom/harness/agents"
)

// TestEveryAgentRegistered: each agent fleetcom supports is driven here, and
// nothing else is. It needs no real CLI, so a new agent without its world
// file fails the ordinary suite instead of going untested.
func TestEveryAgentRegistered(t *testing.T) {
	if got, want := AgentNames(), supported.Names(); !slices.Equal(got, want) {
		t.Errorf("the suite drives %v; fleetcom supports %v: each agent needs e2e/<agent>_world.go registering it", got, want)
	}
	for _, c := range CLIs() {
		if c.Package == "" || c.Pinned == "" || !versionRE.MatchString(c.Pinned) {
			t.Errorf("%s: package %q, pinned %q", c.Name, c.Package, c.Pinned)
		}
	}
}
