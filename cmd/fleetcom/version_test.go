package main

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestResolveVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, c := range []struct {
		name, linked string
		bi           *debug.BuildInfo
		want         string
	}{
		{"ldflags win", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.1"}}, "v1.2.3"},
		{"go install pkg@version", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}, "v0.2.0"},
		{"a clone build, stamped from git", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.1-0.20261201120000-abcdef123456+dirty"}}, "v0.2.1-0.20261201120000-abcdef123456+dirty"},
		{"devel with a commit", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("ABCDEF1234567890", "true")}, "dev-abcdef123456+dirty"},
		{"devel, clean", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("abc", "false")}, "dev-abc"},
		{"nothing known", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build info", "", nil, "dev"},
	} {
		if got := resolveVersion(c.linked, c.bi, c.bi != nil); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// The version a build prints: the link-time one, else "dev" for a build Go
// recorded nothing about (-buildvcs=false, as install.sh builds).
func TestVersionBuilt(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"-ldflags", "-X main.version=v9.8.7"}, "fleetcom v9.8.7\n"},
		{[]string{"-buildvcs=false"}, "fleetcom dev\n"},
	} {
		bin := filepath.Join(dir, "fleetcom")
		build := exec.Command("go", append(append([]string{"build", "-o", bin}, c.flags...), ".")...)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %v: %v\n%s", c.flags, err, out)
		}
		out, err := exec.Command(bin, "version").Output()
		if err != nil || string(out) != c.want {
			t.Errorf("built with %v: %q, %v; want %q", c.flags, out, err, c.want)
		}
		if out, _ := exec.Command(bin, "version", "--json").Output(); !strings.Contains(string(out), `"version": "`+strings.Fields(c.want)[1]+`"`) {
			t.Errorf("version --json: %s", out)
		}
	}
}
