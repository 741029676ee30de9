package main

import (
	"os"
	"path/filepath"
	"sync"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/shim"
	"github.com/fleetcom/fleetcom/store"
)

// Only this package reads the environment for locations: it resolves every
// one once and hands the other packages plain paths. The XDG base
// directories are the specification's, on every system (os.UserConfigDir
// and os.UserCacheDir answer macOS's Library folders instead, and refuse a
// relative variable where the specification ignores it).

// xdgDir is an XDG base directory: the variable when it holds an absolute
// path (the specification says to ignore a relative one), else the default
// under the home directory.
func xdgDir(variable string, def ...string) string {
	if v := os.Getenv(variable); filepath.IsAbs(v) {
		return filepath.Clean(v)
	}
	return filepath.Join(append([]string{homeDir()}, def...)...)
}

// homeDir is $HOME, else the account's home.
func homeDir() string {
	if h := os.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// resolvePaths reads the locations from the environment.
func resolvePaths() shim.Paths {
	p := shim.Paths{
		ShimDir:    os.Getenv("FLEETCOM_SHIM_DIR"),
		StoreDir:   filepath.Join(xdgDir("XDG_STATE_HOME", ".local", "state"), "fleetcom"),
		ConfigFile: filepath.Join(xdgDir("XDG_CONFIG_HOME", ".config"), "fleetcom", "config.toml"),
		CacheDir:   filepath.Join(xdgDir("XDG_CACHE_HOME", ".cache"), "fleetcom"),
	}
	if p.ShimDir == "" {
		p.ShimDir = filepath.Join(xdgDir("XDG_DATA_HOME", ".local", "share"), "fleetcom", "shims")
	}
	p.LiveDir = filepath.Join(p.StoreDir, "live")
	p.Runtime = runtimeRoot()
	return p
}

// runtimeRoot is $FLEETCOM_RUNTIME_DIR itself, else fleetcom/ under
// $XDG_RUNTIME_DIR, else fleetcom/ under the cache directory. A runtime dir
// that is not in the environment is not guessed at.
func runtimeRoot() shim.Root {
	if dir := os.Getenv("FLEETCOM_RUNTIME_DIR"); dir != "" {
		// A relative one is taken against the directory fleetcom started
		// in, once: a run that changes directory (resume --exec -C) must
		// not put its namespaces inside the project.
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		return shim.Root{Dir: dir, Explicit: true}
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(dir) {
		return shim.Root{Dir: filepath.Join(dir, "fleetcom")}
	}
	return shim.Root{Dir: filepath.Join(xdgDir("XDG_CACHE_HOME", ".cache"), "fleetcom")}
}

// settings is the config file, read once per process; its problem, if any,
// is reported once.
var settings = sync.OnceValue(func() config.Config {
	cfg, err := config.Load(resolvePaths().ConfigFile)
	if err != nil {
		warning(err)
	}
	return cfg
})

// openStore opens the session store; each damaged file it skips is
// reported once as a warning.
func openStore() (*store.Store, error) {
	var mu sync.Mutex
	seen := map[string]bool{}
	return store.Open(resolvePaths().StoreDir, store.Config{
		Valid: agents.ValidID,
		Warn: func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			if !seen[msg] {
				seen[msg] = true
				warnf("%s", msg)
			}
		},
	})
}

// openCatalog opens the store and the catalog over it.
func openCatalog() (*catalog.Catalog, error) {
	st, err := openStore()
	if err != nil {
		return nil, err
	}
	return catalog.New(st, os.Getenv, indexDir(), settings().Options), nil
}

// indexDir is where discovery keeps its caches: beside the records, one
// folder per agent that keeps one.
func indexDir() string { return resolvePaths().StoreDir }

// shimOptions are the options every shim-runtime entry uses.
func shimOptions() shim.Options {
	return shim.Options{
		Paths:  resolvePaths(),
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Warn:   warning,
	}
}
