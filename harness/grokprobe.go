package harness

import "bytes"

const (
	// grokHelpFact names, in the cache, whether grok's --help offers
	// --session-id.
	grokHelpFact = "grok-session-id"
	// grokPackage is the npm package of the xAI Grok CLI.
	grokPackage = "@xai-official/grok"
	// maxHelpOutput bounds what is kept of grok --help: it is about
	// 7.5 KiB and names --session-id in its first KiB.
	maxHelpOutput = 32 << 10
)

// grokSessionFlag reports whether the grok binary bin is the xAI CLI, which
// takes --session-id: its npm package or its own installer's file name says
// so, or doctor's look at its --help did. When nothing tells, it answers no:
// a run without a pinned ID still starts, and Grok's live session file, its
// hint or its session directory still identify it.
func grokSessionFlag(bin, cacheDir string) bool {
	if in := ReadInstalled(grokSpec.Name, bin); in.Package != "" || in.Named {
		return in.Package == grokPackage || in.Named
	}
	v, _ := CachedFact(bin, cacheDir, grokHelpFact)
	return v == "yes"
}

// ProbeBinary implements Prober: a grok its files do not name is asked for its
// --help, once per binary.
func (grok) ProbeBinary(bin, cacheDir string) {
	if in := ReadInstalled(grokSpec.Name, bin); in.Package != "" || in.Named {
		return
	}
	ProbeFact(bin, cacheDir, grokHelpFact, []string{"--help"}, maxHelpOutput, func(out []byte) string {
		if bytes.Contains(out, []byte("--session-id")) {
			return "yes"
		}
		return "no"
	})
}
