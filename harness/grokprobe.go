package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Two programs answer to `grok`: the xAI CLI, which takes --session-id, and a
// community build that exits with "unknown option" when given it. Before a
// bare grok is pinned, the shim asks the binary's --help once and remembers
// the answer for that file (path, size and modification time), so the
// common path costs one stat and one small read.

// probeTimeout bounds the one-off --help probe of a new binary.
const (
	probeTimeout   = 3 * time.Second
	probeWaitDelay = 200 * time.Millisecond
)

type probeKey struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
}

type probeEntry struct {
	probeKey
	SessionFlag bool `json:"session_flag"`
}

// grokSessionFlag reports whether the binary accepts --session-id.
// When it cannot tell, it answers no: a run without a pinned ID still
// starts, and its hint or session directory can still identify it.
func grokSessionFlag(bin, cacheDir string) bool {
	fi, err := os.Stat(bin)
	if err != nil {
		return false
	}
	key := probeKey{Path: bin, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	cache := filepath.Join(cacheDir, "binaries.json")
	var entries []probeEntry
	if cacheDir != "" {
		if data, err := safe.ReadFile(cache, 64<<10, safe.NoFollow); err == nil {
			json.Unmarshal(data, &entries)
		}
	}
	for _, e := range entries {
		if e.probeKey == key {
			return e.SessionFlag
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--help")
	cmd.Stdin = nil
	// A grandchild that inherits the output pipe must not hold the probe
	// past its timeout: after the process is killed, the pipe is closed
	// WaitDelay later whoever still has it.
	cmd.WaitDelay = probeWaitDelay
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run()
	ok := bytes.Contains(out.Bytes(), []byte("--session-id"))
	if cacheDir == "" || ctx.Err() != nil {
		return ok
	}
	kept := []probeEntry{{probeKey: key, SessionFlag: ok}}
	for _, e := range entries {
		if e.Path != key.Path && len(kept) < 32 {
			kept = append(kept, e)
		}
	}
	if data, err := json.Marshal(kept); err == nil && os.MkdirAll(cacheDir, 0o700) == nil {
		safe.WriteFile(cache, data, 0o600)
	}
	return ok
}
