package main

import (
	"fmt"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// What install.sh asks the binary instead of guessing: where fleetcom keeps
// its files (the same rules as every other command, so a relative XDG
// variable is ignored here as everywhere), which agents it knows, and which
// directories a shell's startup files will put in front of the shims. The
// output is NUL-terminated fields, so no path can break it.

// cmdPaths prints name=value records: bin, shims, data, store, cache,
// config, runtime (only when fleetcom chose it), and agent once per agent.
func cmdPaths(in input) error {
	if len(in.args) > 0 {
		return usagef("__paths takes no arguments")
	}
	p := resolvePaths()
	exe, err := selfPath()
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	shims, err := filepath.Abs(p.ShimDir)
	if err != nil {
		return err
	}
	rec := func(k, v string) { fmt.Fprintf(stdout, "%s=%s\x00", k, v) }
	rec("bin", exe)
	rec("shims", shims)
	rec("data", filepath.Join(xdgDir("XDG_DATA_HOME", ".local", "share"), "fleetcom"))
	rec("store", p.StoreDir)
	rec("cache", p.CacheDir)
	rec("config", filepath.Dir(p.ConfigFile))
	if !p.Runtime.Explicit {
		rec("runtime", p.Runtime.Dir)
	}
	for _, name := range agents.Names() {
		rec("agent", name)
	}
	return nil
}

// cmdAhead prints, for SHELL, each startup line that puts a directory in
// front of PATH after the init line (or after the rc file it belongs in):
// file, line number and directory, each NUL-terminated.
func cmdAhead(in input) error {
	shell, err := shellArg("__ahead", in.args)
	if err != nil {
		return err
	}
	h := newShellHome()
	for _, a := range ahead(shell, h, rcFile(shell, h)) {
		fmt.Fprintf(stdout, "%s\x00%d\x00%s\x00", a.file, a.n, a.dir)
	}
	return nil
}
