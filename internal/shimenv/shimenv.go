// Package shimenv is what the two programs, fleetcom and fleetcom-shim,
// share of starting the shim runtime: the locations read from the
// environment (package shim knows nothing of XDG: it is handed every path),
// the runtime's options, and the exit status of a run. It is the only place
// that reads the environment for locations; the other packages get plain
// paths. The XDG base directories are the specification's, on every
// system (os.UserConfigDir and os.UserCacheDir answer macOS's Library
// folders instead, and refuse a relative variable where the specification
// ignores it).
package shimenv

import (
	"os"
	"path/filepath"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/shim"
)

// XDGDir is an XDG base directory: the variable when it holds an absolute
// path (the specification says to ignore a relative one), else the default
// under the home directory.
func XDGDir(variable string, def ...string) string {
	if v := os.Getenv(variable); filepath.IsAbs(v) {
		return filepath.Clean(v)
	}
	return filepath.Join(append([]string{HomeDir()}, def...)...)
}

// HomeDir is $HOME, else the account's home.
func HomeDir() string {
	if h := os.Getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// PathsFromEnv reads the locations from the environment.
func PathsFromEnv() shim.Paths {
	p := shim.Paths{
		ShimDir:    os.Getenv("FLEETCOM_SHIM_DIR"),
		StoreDir:   filepath.Join(XDGDir("XDG_STATE_HOME", ".local", "state"), "fleetcom"),
		ConfigFile: filepath.Join(XDGDir("XDG_CONFIG_HOME", ".config"), "fleetcom", "config.toml"),
		CacheDir:   filepath.Join(XDGDir("XDG_CACHE_HOME", ".cache"), "fleetcom"),
	}
	if p.ShimDir == "" {
		p.ShimDir = filepath.Join(XDGDir("XDG_DATA_HOME", ".local", "share"), "fleetcom", "shims")
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
	return shim.Root{Dir: filepath.Join(XDGDir("XDG_CACHE_HOME", ".cache"), "fleetcom")}
}

// Options are the options every entry into the runtime uses: the
// locations from the environment, this process's standard files, and warn
// for fleetcom's own problems.
func Options(warn func(error)) shim.Options {
	return shim.Options{
		Paths:  PathsFromEnv(),
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Warn:   warn,
	}
}

// Finish turns a run's outcome into the exit status: err, if any, goes to
// report, and a child that died of a signal is re-raised on this process
// (the terminal is restored by then), so the parent shell sees the same
// death.
func Finish(st shim.Status, err error, report func(error)) int {
	if err != nil {
		report(err)
	}
	if st.Signal != 0 {
		shim.Reraise(st.Signal)
	}
	return st.Code
}

// Run is a program's shim mode: it runs the shim of agent a for the
// command line args and returns the exit status. Warnings of fleetcom's
// own machinery go to warn, a run's error to report.
func Run(a harness.Agent, args []string, warn, report func(error)) int {
	o := Options(warn)
	st, err := shim.Run(a, args, &o)
	return Finish(st, err, report)
}
