package gemini

import (
	"testing"

	"github.com/fleetcom/fleetcom/harness"
)

// The titles are the ones Gemini CLI 0.61.0 set around a confirmation
// (e2e TestLiveGemini drives the real CLI), padded with spaces as it pads
// them.
func TestSignal(t *testing.T) {
	pad := "                                        "
	for _, c := range []struct {
		osc   string
		state harness.State
		why   string
		ok    bool
	}{
		{"0;◇  Ready (p)" + pad, harness.Waiting, "", true},
		{"0;✦  Working… (p)" + pad, harness.Working, "", true},
		{"0;✋  Action Required (p)" + pad, harness.NeedsYou, "action required", true},
		{"2;✋  Action Required (my project)", harness.NeedsYou, "action required", true},
		// The folder's name never counts.
		{"0;◇  Ready (Action Required)", harness.Waiting, "", true},
		{"0;Gemini CLI (Action Required)", "", "", false},
		{"0;◇  Readyish (p)", "", "", false},
		{"11;?", "", "", false},
		{"7501;state=blocked:app=codex", "", "", false},
		{"0;", "", "", false},
	} {
		s, why, ok := Agent.Behaviour.(harness.Signaller).Signal([]byte(c.osc))
		if s != c.state || why != c.why || ok != c.ok {
			t.Errorf("Signal(%q) = %q, %q, %v; want %q, %q, %v", c.osc, s, why, ok, c.state, c.why, c.ok)
		}
	}
}
