package e2e

import (
	"strings"
	"testing"
)

// Claude's input box is recognised with a name on its top rule.
func TestClaudeInputNamed(t *testing.T) {
	box := func(top string) string {
		return "● ACK\n\n" + top + "\n❯\u00a0\n" + strings.Repeat("─", 40) + "\n  ? for shortcuts\n"
	}
	for top, want := range map[string]bool{
		strings.Repeat("─", 40):                        true,
		strings.Repeat("─", 30) + " wren work ─":       true,
		strings.Repeat("─", 30) + " my-feature-x ─── ": true,
		"  ⎿  Session renamed to: wren work":           false,
		"wren work ─":                                  false,
	} {
		if got := claudeInputEmpty(box(top)); got != want {
			t.Errorf("top line %q: input box seen %v, want %v", top, got, want)
		}
	}
}
