// An external test package: the package itself must keep importing nothing.
package early_test

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/early"
)

// The table is the agent list, field for field: an agent added or changed
// there must be changed here too.
func TestTableIsTheList(t *testing.T) {
	all := agents.All()
	if len(early.Agents) != len(all) {
		t.Fatalf("early knows %d agents, the list %d: go generate ./internal/early", len(early.Agents), len(all))
	}
	for i, a := range all {
		e := early.Agents[i]
		if e.Name != a.Name || !slices.Equal(e.Resume, a.Resume.Words) || e.Joined != a.Resume.Joined ||
			!slices.Equal(e.Dropped, a.Dropped) {
			t.Errorf("early.Agents[%d] = %+v, the list has %s: resume %q joined %v, dropped %q (go generate ./internal/early)",
				i, e, a.Name, a.Resume.Words, a.Resume.Joined, a.Dropped)
		}
	}
}

func FuzzCleanIsFilepaths(f *testing.F) {
	for _, s := range []string{"", ".", "/", "//", "a/b", "/a/../..", "../a/..", "a/./b/", "///a//b/.././c/", ".."} {
		f.Add(s, "bin")
	}
	f.Fuzz(func(t *testing.T, p, q string) {
		if got, want := early.Clean(p), filepath.Clean(p); got != want {
			t.Errorf("Clean(%q) = %q, filepath says %q", p, got, want)
		}
		if got, want := early.Join(p, q), filepath.Join(p, q); got != want {
			t.Errorf("Join(%q, %q) = %q, filepath says %q", p, q, got, want)
		}
		if got, want := early.Join(p, "", q), filepath.Join(p, "", q); got != want {
			t.Errorf("Join(%q, \"\", %q) = %q, filepath says %q", p, q, got, want)
		}
	})
}

func FuzzArgsPrintIsFNV(f *testing.F) {
	f.Add("--model", "hi")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, a, b string) {
		h := fnv.New64a()
		for _, s := range []string{a, b} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
		if got, want := early.ArgsPrint([]string{a, b}), strconv.FormatUint(h.Sum64(), 36); got != want {
			t.Errorf("ArgsPrint(%q, %q) = %s, want %s", a, b, got, want)
		}
	})
}

// What the pass-through leaves to the shim, whatever the files say.
func TestPlanLeavesToTheShim(t *testing.T) {
	dir := t.TempDir()
	for _, name := range agents.Names() {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	base := []string{"HOME=" + dir, "PATH=" + dir}
	cfg := filepath.Join(dir, "config")
	if err := os.MkdirAll(filepath.Join(cfg, "fleetcom"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfgOptions := filepath.Join(dir, "config options")
	if err := os.MkdirAll(filepath.Join(cfgOptions, "fleetcom"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgOptions, "fleetcom", "config.toml"), []byte("[capture]\noptions = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, a := range agents.All() {
		// The controls: with nothing in the way, a prompt is passed on, and
		// so are options only when there is no config to ask for them.
		prompt := []string{a.Name, "hi"}
		for _, argv := range [][]string{prompt, {a.Name, "--version"}} {
			if path, env, ok := early.Plan(argv, base); !ok || path != filepath.Join(dir, a.Name) ||
				len(env) != 3 || !strings.HasPrefix(env[2], a.HopVar()+"=") {
				t.Fatalf("Plan(%q) = %q, %q, %v", argv, path, env, ok)
			}
		}
		toml := "[" + a.Name + "]\nbin = \"/x\"\n"
		if err := os.WriteFile(filepath.Join(cfg, "fleetcom", "config.toml"), []byte(toml), 0o644); err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			name string
			argv []string
			env  []string
		}{
			{"no arguments", []string{a.Name}, base},
			{"not an agent", []string{"fleetcom", "hi"}, base},
			{"a directory's name", []string{a.Name + "/", "hi"}, base},
			{"the resume form", append([]string{a.Name}, a.Resume.Args("0f0f0f0f-0000-4000-8000-000000000000")...), base},
			{"the resume form, any ID", append([]string{a.Name}, a.Resume.Args("x y")...), base},
			{"options only, a config that may capture them", []string{a.Name, "--model", "opus"},
				append(base, "XDG_CONFIG_HOME="+cfgOptions)},
			{"a hop record", prompt, append(base, a.HopVar()+"=")},
			{"a binary set", prompt, append(base, a.BinVar()+"=/bin/true")},
			{"no home", prompt, base[1:]},
			{"a key twice", prompt, append(base, "A=1", "A=2")},
			{"an empty entry", prompt, append(base, "")},
			{"no PATH", prompt, base[:1]},
			{"a config that may name a binary", prompt, append(base, "XDG_CONFIG_HOME="+cfg)},
		}
		for _, c := range cases {
			if path, _, ok := early.Plan(c.argv, c.env); ok {
				t.Errorf("%s: Plan passed %q to %s", c.name, c.argv, path)
			}
		}
	}
}
