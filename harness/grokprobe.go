package harness

import "bytes"

// grokHelpFact names, in the cache, whether grok's --help offers
// --session-id.
const grokHelpFact = "grok-session-id"

// grokSessionFlag reports whether the grok binary bin is the xAI CLI, which
// takes --session-id: its npm package or its own installer's file name says
// so, or doctor's look at its --help did. When nothing tells, it answers no:
// a run without a pinned ID still starts, and Grok's live session file, its
// hint or its session directory still identify it.
func grokSessionFlag(bin, cacheDir string) bool {
	if in := readInstalled(grokSpec.Name, bin); in.pkg != "" || in.named {
		return in.pkg == grokPackage || in.named
	}
	key, ok := identity(bin)
	if !ok {
		return false
	}
	v, _ := cached(cacheDir, key, grokHelpFact)
	return v == "yes"
}

// probe implements prober: a grok its files do not name is asked for its
// --help, once per binary.
func (grok) probe(bin, cacheDir string) {
	if in := readInstalled(grokSpec.Name, bin); in.pkg != "" || in.named {
		return
	}
	probe(bin, cacheDir, grokHelpFact, []string{"--help"}, maxHelpOutput, func(out []byte) string {
		if bytes.Contains(out, []byte("--session-id")) {
			return "yes"
		}
		return "no"
	})
}
