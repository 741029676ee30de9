package shim

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Two programs answer to `grok`: the xAI CLI, which takes --session-id, and a
// community build that exits with "unknown option" when given it. Before a
// bare grok is pinned, the shim asks the binary's --help once and remembers
// the answer for that file (path, size and modification time), so the
// common path costs one stat and one small read.

// probeTimeout bounds the one-off --help probe of a new binary.
const probeTimeout = 3 * time.Second

type probeKey struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
}

type probeEntry struct {
	probeKey
	SessionFlag bool `json:"session_flag"`
}

// sessionFlagSupported reports whether the binary accepts --session-id.
// When it cannot tell, it answers no: a run without a pinned ID still
// starts, and its hint or session directory can still identify it.
func sessionFlagSupported(bin, cacheDir string) bool {
	fi, err := os.Stat(bin)
	if err != nil {
		return false
	}
	key := probeKey{Path: bin, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	cache := filepath.Join(cacheDir, "binaries.json")
	var entries []probeEntry
	if cacheDir != "" {
		if data, err := os.ReadFile(cache); err == nil {
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
	out, _ := cmd.CombinedOutput()
	ok := bytes.Contains(out, []byte("--session-id"))
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
		writeAtomic(cache, data, 0o600)
	}
	return ok
}
