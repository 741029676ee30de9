package grok

import (
	"testing"

	"github.com/fleetcom/fleetcom/harness"
)

// The titles are the ones Grok 1.0.41 set around an approval (e2e
// TestLiveGrokScreen drives the real CLI).
func TestSignal(t *testing.T) {
	for _, c := range []struct {
		osc   string
		state harness.State
		why   string
		ok    bool
	}{
		{"0;grok", harness.Waiting, "", true},
		{"0;Fake session title - grok", harness.Waiting, "", true},
		{"0;\u2819 - Waiting for response\u2026 - Fake session title - grok", harness.Working, "", true},
		{"0;\u2819 - Responding - Fake session title - grok", harness.Working, "", true},
		{"0;\u26a0 Action Required - \u2819 - Create a file for the test\u2026 - Fake session title - grok", harness.NeedsYou, "approval request", true},
		// A conversation titled like a state is still only its title.
		{"0;Action Required - grok", harness.Waiting, "", true},
		{"0;\u26a0 Action Required - fix it", "", "", false},
		{"0;vim", "", "", false},
		{"12;rgb:c6/c6/c6", "", "", false},
		{"", "", "", false},
	} {
		s, why, ok := Agent.Behaviour.(harness.Signaller).Signal([]byte(c.osc))
		if s != c.state || why != c.why || ok != c.ok {
			t.Errorf("Signal(%q) = %q, %q, %v; want %q, %q, %v", c.osc, s, why, ok, c.state, c.why, c.ok)
		}
	}
}
