package harness

import (
	"encoding/json"
	"path"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// What an agent's installer left beside its binary says about it, read
// without running anything: a shim run starts exactly one process, the CLI
// the user typed, so its version has to come from files. Measured on the
// installs the real-CLI suite makes and on the CLIs' own installers:
//
//   - npm (all three): the command resolves into a package whose
//     package.json names it under "bin" and carries "version":
//     @anthropic-ai/claude-code/bin/claude.exe, @openai/codex/bin/codex.js,
//     @xai-official/grok/bin/grok-native (bin/grok links to it).
//   - Grok's own installer: $GROK_HOME/bin/grok links to grok-<version>.
//   - Claude Code's native installer: ~/.local/bin/claude links to
//     ~/.local/share/claude/versions/<version>.
//   - A package manager's keg, <name>/<version>/…/<file> (Homebrew's
//     Cellar and Caskroom lay binaries out so; not measured here).
//
// A binary none of these describe (a wrapper script, a build from source)
// has no version until `fleetcom doctor` asks it (probe.go).

// Installed is what the files say about one binary.
type Installed struct {
	Version string // "" when nothing names it
	Package string // the npm package that ships it, "" when none does
	// Named: the binary's own file name carries the version, the way
	// the CLI's own installer names it (grok-<version>).
	Named bool
}

// maxManifest bounds what is read of a package.json; the CLIs' are about
// 1 KiB.
const maxManifest = 64 << 10

// maxVersionLen bounds a version read from files.
const maxVersionLen = 64

// ReadInstalled reads what the files around bin, the binary of the agent
// called name, say of it.
func ReadInstalled(name, bin string) Installed {
	resolved, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return Installed{}
	}
	base := filepath.Base(resolved)
	if v, ok := strings.CutPrefix(base, name+"-"); ok && isVersion(v) {
		return Installed{Version: v, Named: true}
	}
	if isVersion(base) && filepath.Base(filepath.Dir(resolved)) == "versions" {
		return Installed{Version: base}
	}
	// The package that ships it sits at most two folders up (bin/, then
	// the package), and so does a keg's version folder.
	dir := filepath.Dir(resolved)
	for range 3 {
		if in, ok := readManifest(name, dir, resolved); ok {
			return in
		}
		if v := filepath.Base(dir); isVersion(v) && filepath.Base(filepath.Dir(dir)) == name {
			return Installed{Version: v}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return Installed{}
}

// readManifest reads dir/package.json and reports whether it is the
// manifest of the package whose command name resolves to the binary.
func readManifest(name, dir, resolved string) (Installed, bool) {
	data, err := safe.ReadFile(filepath.Join(dir, "package.json"), maxManifest, 0)
	if err != nil {
		return Installed{}, false
	}
	var m struct {
		Name    string          `json:"name"`
		Version string          `json:"version"`
		Bin     json.RawMessage `json:"bin"`
	}
	if json.Unmarshal(data, &m) != nil {
		return Installed{}, false
	}
	// "bin" maps command names to files, or is one file named after the
	// package.
	var target string
	var bins map[string]string
	if json.Unmarshal(m.Bin, &bins) == nil {
		target = bins[name]
	} else if json.Unmarshal(m.Bin, &target) != nil || path.Base(m.Name) != name {
		target = ""
	}
	if target == "" {
		return Installed{}, false
	}
	if got, err := filepath.EvalSymlinks(filepath.Join(dir, filepath.FromSlash(target))); err != nil || got != resolved {
		return Installed{}, false
	}
	in := Installed{Package: m.Name}
	if isVersion(m.Version) {
		in.Version = m.Version
	}
	return in, true
}

// isVersion reports whether s is one whole version number, as findVersion
// reads them from --version.
func isVersion(s string) bool {
	return s != "" && len(s) <= maxVersionLen && findVersion([]byte(s)) == s
}
