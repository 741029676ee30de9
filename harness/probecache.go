package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// The cache of what doctor learned by running agents' binaries (probe.go):
// a small JSON list in the cache directory, one entry per binary, each
// holding that binary's facts. It decides how runs are instrumented, so it
// is trusted only in a directory that passes the store's privacy rule, and
// read and written as every file of fleetcom is.

const (
	// probeCacheName is the cache's file in the cache directory, and
	// maxProbeCache what is read of it.
	probeCacheName = "binaries.json"
	maxProbeCache  = 256 << 10
)

// probeKey is a binary's identity: a new install, an upgrade or an edit of
// the file changes it.
type probeKey struct {
	Path  string `json:"path"`
	Ino   uint64 `json:"ino"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
}

type probeEntry struct {
	probeKey
	Facts map[string]string `json:"facts"`
}

// probeMu keeps one process's probes from rewriting the cache at once.
var probeMu sync.Mutex

// identity is the cache key of the binary at bin.
func identity(bin string) (probeKey, bool) {
	fi, err := os.Stat(bin)
	if err != nil || !fi.Mode().IsRegular() {
		return probeKey{}, false
	}
	key := probeKey{Path: bin, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		key.Ino = uint64(st.Ino)
	}
	return key, true
}

// cacheDirOK reports whether the cache directory may be trusted: the
// store's rule, as what it holds decides how a run is instrumented.
func cacheDirOK(cacheDir string) bool {
	return cacheDir != "" && safe.Private(cacheDir) == nil
}

// loadCache reads the cache; a missing, damaged or untrusted one is empty.
func loadCache(cacheDir string) []probeEntry {
	if !cacheDirOK(cacheDir) {
		return nil
	}
	data, err := safe.ReadFile(filepath.Join(cacheDir, probeCacheName), maxProbeCache, safe.NoFollow)
	if err != nil {
		return nil
	}
	var entries []probeEntry
	if json.Unmarshal(data, &entries) != nil {
		return nil
	}
	return entries
}

// cached returns what the cache knows of fact name for the binary key.
func cached(cacheDir string, key probeKey, name string) (string, bool) {
	for _, e := range loadCache(cacheDir) {
		if v, ok := e.Facts[name]; ok && e.probeKey == key {
			return v, true
		}
	}
	return "", false
}

// remember keeps fact name of the binary key in the cache, beside the other
// facts of the same binary and up to 31 other binaries. Only a regular file
// in a private directory is ever replaced.
func remember(cacheDir string, key probeKey, name, value string) {
	if cacheDir == "" || os.MkdirAll(cacheDir, 0o700) != nil || !cacheDirOK(cacheDir) {
		return
	}
	p := filepath.Join(cacheDir, probeCacheName)
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return
	}
	probeMu.Lock()
	defer probeMu.Unlock()
	kept := []probeEntry{{probeKey: key, Facts: map[string]string{name: value}}}
	for _, e := range loadCache(cacheDir) {
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
	if data, err := json.Marshal(kept); err == nil {
		safe.WriteFile(p, data, 0o600)
	}
}
