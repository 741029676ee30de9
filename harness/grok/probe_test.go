package grok

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// Which grok a binary is comes from its install, or from doctor's look at
// its --help: a run never asks it.
func TestSessionFlag(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "fleetcom")
	official := harnesstest.NPMBinary(t, "@xai-official/grok", "grok", "1.0.41")
	community := harnesstest.NPMBinary(t, "grok-cli", "grok", "0.0.34")
	if !takesSessionID(official, cache) || takesSessionID(community, cache) {
		t.Error("the npm package does not tell the xAI CLI from the community one")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "starts")
	bin := filepath.Join(dir, "grok")
	harnesstest.WriteExec(t, bin, harnesstest.LogStarts(log)+"echo '  -s, --session-id <SESSION_ID>'\n")
	if takesSessionID(bin, cache) || harnesstest.CountStarts(log) != 0 {
		t.Fatalf("an unknown grok: pinned, or %d starts", harnesstest.CountStarts(log))
	}
	grok := Agent
	harness.Probe(grok, bin, cache)
	harness.Probe(grok, bin, cache)
	if !takesSessionID(bin, cache) {
		t.Error("doctor's look at --help was not kept")
	}
	if n := harnesstest.CountStarts(log); n != 2 { // --help and --version, once each
		t.Errorf("%d starts for two facts", n)
	}
}

// The --help probe of a grok binary is bounded even when the binary leaves
// a grandchild holding its output pipe: the probe must not last as long as
// the grandchild.
func TestProbeGrandchild(t *testing.T) {
	p := filepath.Join(t.TempDir(), "grok")
	harnesstest.WriteExec(t, p, "#!/bin/sh\n(sleep 60) &\necho '  -s, --session-id <UUID>'\n")
	cache := filepath.Join(t.TempDir(), "fleetcom")
	done := make(chan bool, 1)
	go func() { grok{}.ProbeBinary(p, cache); done <- takesSessionID(p, cache) }()
	select {
	case ok := <-done:
		if !ok {
			t.Error("the help text was lost")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the probe waited for the grandchild")
	}
}
