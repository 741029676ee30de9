package main

import (
	"sync"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/shimenv"
	"github.com/fleetcom/fleetcom/shim"
	"github.com/fleetcom/fleetcom/store"
)

// Locations come from the environment by the rules of package shimenv
// (shimenv.PathsFromEnv), which fleetcom-shim follows too.

func xdgDir(variable string, def ...string) string { return shimenv.XDGDir(variable, def...) }
func homeDir() string                              { return shimenv.HomeDir() }
func resolvePaths() shim.Paths                     { return shimenv.PathsFromEnv() }

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
	return newCatalog(st), nil
}

// shimOptions are the options every shim-runtime entry uses.
func shimOptions() shim.Options { return shimenv.Options(warning) }
