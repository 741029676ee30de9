package agents

import (
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/claude"
	"github.com/fleetcom/fleetcom/harness/codex"
	"github.com/fleetcom/fleetcom/harness/copilot"
	"github.com/fleetcom/fleetcom/harness/gemini"
	"github.com/fleetcom/fleetcom/harness/grok"
	"github.com/fleetcom/fleetcom/harness/opencode"
)

// list is every agent fleetcom knows, in name order, each named once, as a
// value: adding an agent is its import and one line here, and nothing else
// in fleetcom lists it. A package-level array of pointers to package-level variables
// is data the linker lays out, so nothing runs or is allocated to build it
// when a shim starts (TestNoInitWork holds that); an init function or a
// registration call would each fault in a page of code at every start.
var list = [...]*harness.Agent{
	&claude.Agent,
	&codex.Agent,
	&copilot.Agent,
	&gemini.Agent,
	&grok.Agent,
	&opencode.Agent,
}
