package main

import (
	"runtime/debug"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=…" by
// install.sh (git describe) and by the release build (the tag). Left at
// "dev", the version comes from what the Go toolchain recorded instead.
var version = "dev"

// fleetcomVersion is the version `fleetcom version` prints: the one set
// at link time; else the main module's version Go stamps in the binary,
// which is the tag for `go install …/cmd/fleetcom@v1.2.3` and a
// pseudo-version (v1.2.4-0.<time>-<commit>, +dirty with local changes) for
// a build in a git clone; else "dev", with the commit when Go recorded one.
func fleetcomVersion() string {
	bi, ok := debug.ReadBuildInfo()
	return resolveVersion(version, bi, ok)
}

// resolveVersion decides the version from the link-time value and the
// build information, for fleetcomVersion and its tests.
func resolveVersion(linked string, bi *debug.BuildInfo, ok bool) string {
	if linked != "" && linked != "dev" {
		return linked
	}
	if !ok || bi == nil {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	rev = rev[:min(12, len(rev))]
	if dirty {
		rev += "+dirty"
	}
	return "dev-" + strings.ToLower(rev)
}
