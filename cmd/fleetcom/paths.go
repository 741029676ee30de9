package main

import (
	"os"
	"path/filepath"

	"github.com/adrg/xdg"

	"github.com/fleetcom/fleetcom/shim"
)

// Only this package knows XDG: it resolves every location once and hands
// the others plain paths.

// resolvePaths reads the locations from the environment (CONTRACT.md §2).
func resolvePaths() shim.Paths {
	p := shim.Paths{
		ShimDir:    os.Getenv("FLEETCOM_SHIM_DIR"),
		StoreDir:   filepath.Join(xdg.StateHome, "fleetcom"),
		ConfigFile: filepath.Join(xdg.ConfigHome, "fleetcom", "config.toml"),
		CacheDir:   filepath.Join(xdg.CacheHome, "fleetcom"),
	}
	if p.ShimDir == "" {
		p.ShimDir = filepath.Join(xdg.DataHome, "fleetcom", "shims")
	}
	p.Runtime = runtimeRoot()
	return p
}

// runtimeRoot is $FLEETCOM_RUNTIME_DIR itself, else fleetcom/ under
// $XDG_RUNTIME_DIR, else fleetcom/ under the cache directory (CONTRACT.md
// §2). A runtime dir that is not in the environment is not guessed at.
func runtimeRoot() shim.Root {
	if dir := os.Getenv("FLEETCOM_RUNTIME_DIR"); dir != "" {
		return shim.Root{Dir: dir, Explicit: true}
	}
	if os.Getenv("XDG_RUNTIME_DIR") != "" {
		return shim.Root{Dir: filepath.Join(xdg.RuntimeDir, "fleetcom")}
	}
	return shim.Root{Dir: filepath.Join(xdg.CacheHome, "fleetcom")}
}
