package grok

import (
	"bytes"

	"github.com/fleetcom/fleetcom/harness"
)

const (
	// helpFact names, in the cache, whether grok's --help offers
	// --session-id.
	helpFact = "grok-session-id"
	// xaiPackage is the npm package of the xAI Grok CLI.
	xaiPackage = "@xai-official/grok"
	// maxHelpOutput bounds what is kept of grok --help: it is about
	// 7.5 KiB and names --session-id in its first KiB.
	maxHelpOutput = 32 << 10
)

// takesSessionID reports whether the grok binary bin is the xAI CLI, which
// takes --session-id: its npm package or its own installer's file name says
// so, or doctor's look at its --help did. When nothing tells, it answers no:
// a run without a pinned ID still starts, and Grok's live session file, its
// hint or its session directory still identify it.
func takesSessionID(bin, cacheDir string) bool {
	if in := harness.ReadInstalled(spec.Name, bin); in.Package != "" || in.Named {
		return in.Package == xaiPackage || in.Named
	}
	v, _ := harness.CachedFact(bin, cacheDir, helpFact)
	return v == "yes"
}

// ProbeBinary implements Prober: a grok its files do not name is asked for its
// --help, once per binary.
func (grok) ProbeBinary(bin, cacheDir string) {
	if in := harness.ReadInstalled(spec.Name, bin); in.Package != "" || in.Named {
		return
	}
	harness.ProbeFact(bin, cacheDir, helpFact, []string{"--help"}, maxHelpOutput, func(out []byte) string {
		if bytes.Contains(out, []byte("--session-id")) {
			return "yes"
		}
		return "no"
	})
}
