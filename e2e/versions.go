package e2e

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Which versions of each CLI a run drives, from FLEETCOM_E2E_VERSIONS.
const (
	versionsPinned = "pinned" // the default: the table's Pinned
	versionsLatest = "latest" // what the registry serves as latest now
	versionsBoth   = "both"   // both; once when they are the same
)

// versionMode reads FLEETCOM_E2E_VERSIONS.
func versionMode() (string, error) {
	switch m := os.Getenv("FLEETCOM_E2E_VERSIONS"); m {
	case "":
		return versionsPinned, nil
	case versionsPinned, versionsLatest, versionsBoth:
		return m, nil
	default:
		return "", fmt.Errorf("FLEETCOM_E2E_VERSIONS=%q: want pinned, latest or both", m)
	}
}

// required reports whether what would otherwise skip (no npm, no registry,
// no fleetcom build) must fail instead: in CI, or when asked for.
func required() bool {
	return os.Getenv("CI") == "true" || os.Getenv("FLEETCOM_E2E_REQUIRE") == "1"
}

var versionRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*$`)

// compareVersions orders dotted numeric versions: -1, 0 or 1.
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(as), len(bs)); i++ {
		var x, y int
		if i < len(as) {
			x, _ = strconv.Atoi(as[i])
		}
		if i < len(bs) {
			y, _ = strconv.Atoi(bs[i])
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Behaviour is something a CLI does from one version on, measured. Since is
// the first version it was measured on; versions between that and the one
// before it were not looked at. A test asks Real.Has and asserts the
// behaviour of its own version, so a version that moves fails as that named
// test, with the screen, rather than as a timeout.
type Behaviour struct {
	CLI   string
	Name  string
	Since string
	What  string
}

// Behaviours is every version-dependent fact a test asserts.
var Behaviours = []Behaviour{
	{"claude", "resume-any-dir", "2.1.332",
		"claude --resume <id> from another directory continues the conversation; before, No conversation found, exit 1"},
	{"claude", "hint-echoes-flags", "2.1.332",
		"the exit hint repeats the launch options that pass its filter: claude <options> --resume <id>; before, claude --resume <id>"},
	{"claude", "agents-json", "2.1.332",
		"claude agents --json lists the running sessions, each with its status: busy, idle or waiting; before, no such command"},
	{"claude", "auto-mode", "2.1.332",
		"auto is the default permission mode; with defaultMode \"default\" in settings.json a dialog asks at start whether to make auto the default"},
	{"claude", "hint-env", "2.1.332",
		"CLAUDE_CODE_RELAUNCH_RESUME_HINT_FLAGS replaces the echoed options and CLAUDE_CODE_RESUME_HINT_COMMAND the program in the exit hint; before, both ignored"},
}

// Real is one installed version of one CLI.
type Real struct {
	CLI     CLI
	Version string
	Label   string // pinned, latest, or pinned=latest
	Bin     string // the directory holding the command
}

// Has reports whether this version shows a behaviour of Behaviours.
func (r Real) Has(name string) bool {
	for _, b := range Behaviours {
		if b.CLI == r.CLI.Name && b.Name == name {
			return compareVersions(r.Version, b.Since) >= 0
		}
	}
	panic("e2e: no behaviour " + name + " of " + r.CLI.Name + " in Behaviours")
}

// Path is the command's absolute path.
func (r Real) Path() string { return r.Bin + "/" + r.CLI.Name }

func (r Real) String() string { return fmt.Sprintf("%s %s (%s)", r.CLI.Name, r.Version, r.Label) }
