package main

import (
	"testing"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// TestClaudeTitles: a transcript's title is its first prompt, also behind
// the sub-agent lines of the transcript that opens with them.
func TestClaudeTitles(t *testing.T) {
	root := t.TempDir()
	small(t, root)
	a, _ := agents.Named("claude")
	sidechain := 0
	for _, c := range manifest(t, root) {
		if c["tool"] != "claude" {
			continue
		}
		if c["kind"] == "sidechain" {
			sidechain++
		}
		if got := a.Title(c["home"], c["dir"], c["id"]); got != harness.CleanTitle(c["title"]) {
			t.Errorf("claude %s: title %q, first prompt %q", c["id"], got, c["title"])
		}
	}
	if sidechain != 1 {
		t.Errorf("%d sub-agent transcripts, want 1", sidechain)
	}
}
