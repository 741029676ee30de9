package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Some facts about an agent's binary can only be learned by running it: its
// version, and (for grok) whether it is the xAI CLI, which takes
// --session-id, or a community build of the same name that exits with
// "unknown option" when given it. Each is learned once per file (path, size
// and modification time) and remembered in a small cache, so the common
// path costs one stat and one small read.

const (
	// probeTimeout bounds one run of a binary to learn a fact.
	probeTimeout = 5 * time.Second
	// probeWaitDelay bounds the wait for a grandchild that inherited the
	// output pipe, once the binary itself is gone.
	probeWaitDelay = 200 * time.Millisecond
	// probeCacheName is the cache's file in the cache directory.
	probeCacheName = "binaries.json"
)

type probeKey struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
}

type probeEntry struct {
	probeKey
	Facts map[string]string `json:"facts"`
}

// probeMu keeps one process's probes from rewriting the cache at once.
var probeMu sync.Mutex

// probe returns fact (named name) of the binary bin: from the cache in
// cacheDir ("" for none), else by running bin with args and reducing its
// output with read. A run that times out is not cached.
func probe(bin, cacheDir, name string, args []string, read func(out []byte) string) string {
	fi, err := os.Stat(bin)
	if err != nil {
		return ""
	}
	key := probeKey{Path: bin, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	cache := filepath.Join(cacheDir, probeCacheName)
	load := func() []probeEntry {
		var entries []probeEntry
		if cacheDir != "" {
			if data, err := safe.ReadFile(cache, 256<<10, safe.NoFollow); err == nil {
				json.Unmarshal(data, &entries)
			}
		}
		return entries
	}
	for _, e := range load() {
		if v, ok := e.Facts[name]; ok && e.probeKey == key {
			return v
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin = nil
	// The binary sees the user's environment, less fleetcom's own
	// variables: a probe is not a run, and must not look like one.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FLEETCOM_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.WaitDelay = probeWaitDelay
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run()
	value := read(out.Bytes())
	if cacheDir == "" || ctx.Err() != nil {
		return value
	}
	probeMu.Lock()
	defer probeMu.Unlock()
	entries := load()
	kept := []probeEntry{{probeKey: key, Facts: map[string]string{name: value}}}
	for _, e := range entries {
		switch {
		case e.probeKey == key:
			for k, v := range e.Facts {
				if k != name {
					kept[0].Facts[k] = v
				}
			}
		case e.Path != key.Path && len(kept) < 32:
			kept = append(kept, e)
		}
	}
	if data, err := json.Marshal(kept); err == nil && os.MkdirAll(cacheDir, 0o700) == nil {
		safe.WriteFile(cache, data, 0o600)
	}
	return value
}

// findVersion returns the first version number in a CLI's --version
// output: "2.1.332 (Claude Code)", "codex-cli 0.171.0", "grok 1.0.41
// (4220f3b224a6)". It matches what the regular expression
// \b\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?\b would (FuzzFindVersion holds it
// to that), without linking the regexp package and its Unicode tables
// into every shim start.
func findVersion(b []byte) string {
	for i := range b {
		if !isDigit(b[i]) || (i > 0 && isWordByte(b[i-1])) {
			continue
		}
		j, ok := i, true
		for part := range 3 {
			if part > 0 {
				if j >= len(b) || b[j] != '.' {
					ok = false
					break
				}
				j++
			}
			k := j
			for k < len(b) && isDigit(b[k]) {
				k++
			}
			ok = k > j
			if !ok {
				break
			}
			j = k
		}
		if !ok {
			continue
		}
		if j < len(b) && (b[j] == '-' || b[j] == '+') {
			k := j + 1
			for k < len(b) && (isWordByte(b[k]) && b[k] != '_' || b[k] == '.' || b[k] == '-') {
				k++
			}
			for e := k; e > j+1; e-- {
				if wordBoundary(b, e) {
					return string(b[i:e])
				}
			}
		}
		if wordBoundary(b, j) {
			return string(b[i:j])
		}
	}
	return ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isWordByte is \w: ASCII letters, digits and the underscore.
func isWordByte(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// wordBoundary is \b at offset i of b.
func wordBoundary(b []byte, i int) bool {
	before := i > 0 && isWordByte(b[i-1])
	after := i < len(b) && isWordByte(b[i])
	return before != after
}

// Version returns the version of an agent's binary as its --version prints
// it, "" when it cannot tell. It is cached per file in cacheDir.
func Version(bin, cacheDir string) string {
	return probe(bin, cacheDir, "version", []string{"--version"}, func(out []byte) string {
		return findVersion(out)
	})
}

// grokSessionFlag reports whether the binary accepts --session-id. When it
// cannot tell, it answers no: a run without a pinned ID still starts, and
// its hint or session directory can still identify it.
func grokSessionFlag(bin, cacheDir string) bool {
	return probe(bin, cacheDir, "grok-session-id", []string{"--help"}, func(out []byte) string {
		if bytes.Contains(out, []byte("--session-id")) {
			return "yes"
		}
		return "no"
	}) == "yes"
}
