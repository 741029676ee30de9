package codex

import (
	"testing"

	"github.com/fleetcom/fleetcom/harness"
)

// The payloads are the ones Codex 0.171.0 wrote around an approval prompt
// (e2e TestLiveCodex drives the real CLI).
func TestSignal(t *testing.T) {
	for _, c := range []struct {
		osc   string
		state harness.State
		why   string
		ok    bool
	}{
		{"7501;state=working:app=codex", harness.Working, "", true},
		{"7501;state=blocked:app=codex:kind=permission", harness.NeedsYou, "approval request", true},
		{"7501;state=blocked:app=codex:kind=question", harness.NeedsYou, "question", true},
		{"7501;state=blocked:app=codex:kind=Bad;rm", harness.NeedsYou, "", true},
		{"7501;state=done:app=codex", harness.Waiting, "", true},
		{"7501;state=done:app=other", "", "", false},
		{"7501;state=sleeping:app=codex", "", "", false},
		{"0;[ ! ] Action Required | title | p", "", "", false},
		{"7501;", "", "", false},
		{"", "", "", false},
	} {
		s, why, ok := Agent.Behaviour.(harness.Signaller).Signal([]byte(c.osc))
		if s != c.state || why != c.why || ok != c.ok {
			t.Errorf("Signal(%q) = %q, %q, %v; want %q, %q, %v", c.osc, s, why, ok, c.state, c.why, c.ok)
		}
	}
}
