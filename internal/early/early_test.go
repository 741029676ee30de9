// An external test package: what the tests import does not count against
// the package's own imports.
package early_test

import (
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
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

// mayImport is what package early may depend on beyond the runtime's own
// packages, on Linux amd64 and arm64, where its init runs: none of them
// initialises anything that costs, and each is initialised before
// internal/godebug, which every program has (package time imports it) and
// whose init is the costliest of the first ones (doc.go). Widen it only
// with a measurement.
var mayImport = []string{
	"cmp", "errors", "internal/reflectlite", "internal/unsafeheader", "iter", "path", "slices", "strconv",
	"unicode/utf8",
}

func TestImports(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, arch := range []string{"amd64", "arm64"} {
		deps := func(pkg string) []string {
			cmd := exec.Command("go", "list", "-deps", pkg)
			cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+arch)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list -deps %s: %v", pkg, err)
			}
			return strings.Fields(string(out))
		}
		allowed := append(deps("runtime"), mayImport...)
		for _, p := range deps("github.com/fleetcom/fleetcom/internal/early") {
			if p != "github.com/fleetcom/fleetcom/internal/early" && !slices.Contains(allowed, p) {
				t.Errorf("on linux/%s package early depends on %s, which is not in mayImport: its init may now run after internal/godebug's (doc.go)", arch, p)
			}
		}
	}
}

// TestFramesSmall holds every function of the package to a small stack
// frame. The inits run on a goroutine whose stack starts at 2 KiB, of which
// the runtime keeps some 900 bytes as its guard. A frame that does not fit
// (a 4 KiB buffer as a local, which escape analysis puts there) makes the
// runtime copy the stack on the pass-through, decoding the stack maps of
// every frame: 2.7 % of the whole command on path (a) (bench/pair, 400
// rounds). The compiler prints each function's frame size.
func TestFramesSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	out, err := exec.Command("go", "build", "-o", os.DevNull, "-gcflags=-S", "github.com/fleetcom/fleetcom/internal/early").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-S: %v\n%s", err, out)
	}
	const most = 1024
	seen := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) < 5 || fields[1] != "STEXT" {
			continue
		}
		for _, f := range fields {
			hex, ok := strings.CutPrefix(f, "locals=0x")
			if !ok {
				continue
			}
			seen++
			if n, err := strconv.ParseUint(hex, 16, 32); err != nil || n > most {
				t.Errorf("%s has a frame of %s bytes of locals, more than %d: the inits' stack would grow", fields[0], hex, most)
			}
		}
	}
	if seen == 0 {
		t.Fatalf("the compiler printed no frame sizes:\n%s", out)
	}
}

// world is a machine with candidates for one agent: real ones, this test
// program under the agent's name, a shim directory (by its path and by a
// link to it), the default shim directory, and things that are not
// programs.
type world struct {
	root, home string
	dir        map[string]string // by role
}

func newWorld(t *testing.T, name string) world {
	t.Helper()
	root := t.TempDir()
	w := world{root: root, home: filepath.Join(root, "home"), dir: map[string]string{}}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, role := range []string{"real1", "real2", "self", "shims", "plain", "dir", "cwd", "home/.local/share/fleetcom/shims"} {
		d := filepath.Join(root, role)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		w.dir[role] = d
	}
	w.dir["home shims"] = w.dir["home/.local/share/fleetcom/shims"]
	for _, role := range []string{"real1", "real2", "shims", "home shims", "cwd"} {
		if err := os.WriteFile(filepath.Join(w.dir[role], name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(exe, filepath.Join(w.dir["self"], name)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir["plain"], name), []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(w.dir["dir"], name), 0o755); err != nil {
		t.Fatal(err)
	}
	w.dir["shimlink"] = filepath.Join(root, "shimlink")
	if err := os.Symlink(w.dir["shims"], w.dir["shimlink"]); err != nil {
		t.Fatal(err)
	}
	return w
}

// path is a PATH of the directories of the roles given ("" for an empty
// entry).
func (w world) path(roles ...string) string {
	var dirs []string
	for _, r := range roles {
		dirs = append(dirs, w.dir[r])
	}
	return strings.Join(dirs, ":")
}

// Each rule of the lookup, with the control that shows the rule is what
// skips the candidate: the first tool on PATH that is an executable file,
// not this program, not in the shim directory (FLEETCOM_SHIM_DIR, else the
// default under XDG_DATA_HOME or HOME), told apart by what the files are.
func TestPlanFindsTheRealCLI(t *testing.T) {
	a := agents.All()[0]
	w := newWorld(t, a.Name)
	t.Chdir(w.dir["cwd"])
	shimDir := func(role string) string { return "FLEETCOM_SHIM_DIR=" + w.dir[role] }
	cases := []struct {
		name string
		path string
		env  []string
		want string // the role of the binary found; "" for none (the shim decides)
	}{
		{"the first real one", w.path("real1", "real2"), nil, "real1"},
		{"not this program", w.path("self", "real2"), nil, "real2"},
		{"this program alone", w.path("self"), nil, ""},
		{"not in the shim directory", w.path("shims", "real2"), []string{shimDir("shims")}, "real2"},
		{"the shim directory alone", w.path("shims"), []string{shimDir("shims")}, ""},
		{"the shim directory by a link on PATH", w.path("shimlink", "real2"), []string{shimDir("shims")}, "real2"},
		{"the shim directory set by a link", w.path("shims", "real2"), []string{shimDir("shimlink")}, "real2"},
		{"control: another shim directory", w.path("shims", "real2"), []string{shimDir("home shims")}, "shims"},
		{"the default shim directory", w.path("home shims", "real2"), nil, "real2"},
		{"the default under XDG_DATA_HOME", w.path("home shims", "real2"),
			[]string{"XDG_DATA_HOME=" + filepath.Join(w.home, ".local/share")}, "real2"},
		{"control: XDG_DATA_HOME elsewhere", w.path("home shims", "real2"),
			[]string{"XDG_DATA_HOME=" + w.root}, "home shims"},
		{"control: a relative XDG_DATA_HOME is ignored", w.path("home shims", "real2"),
			[]string{"XDG_DATA_HOME=elsewhere"}, "real2"},
		{"not a file that is not executable", w.path("plain", "real2"), nil, "real2"},
		{"not a directory", w.path("dir", "real2"), nil, "real2"},
		{"an empty entry is the current directory", ":" + w.path("real2"), nil, "."},
		{"a missing directory", "/nonexistent:" + w.path("real2"), nil, "real2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := append([]string{"HOME=" + w.home, "PATH=" + c.path}, c.env...)
			argv := []string{a.Name, "-p", "hi"}
			real, out, ok := early.Plan(argv, env)
			want := filepath.Join(w.dir[c.want], a.Name)
			switch {
			case c.want == "" && ok:
				t.Fatalf("Plan passed it to %s; the shim must decide", real)
			case c.want == "":
				return
			case c.want == ".":
				want = a.Name // filepath.Join(".", name), as the shim has it
			}
			if !ok || real != want {
				t.Fatalf("Plan = %q, %v; want %s", real, ok, want)
			}
			hop := fmt.Sprintf("%s=%d:1:%s:%s", a.HopVar(), os.Getpid(), argsPrint("-p", "hi"), want)
			if wantEnv := append(slices.Clip(env), hop); !slices.Equal(out, wantEnv) {
				t.Errorf("environment %q, want %q", out, wantEnv)
			}
		})
	}
}

// argsPrint is the hop record's fingerprint of arguments (shim/find.go).
func argsPrint(args ...string) string {
	h := fnv.New64a()
	for _, a := range args {
		h.Write([]byte(a))
		h.Write([]byte{0})
	}
	return strconv.FormatUint(h.Sum64(), 36)
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
	cfgDir := filepath.Join(dir, "config dir")
	if err := os.MkdirAll(filepath.Join(cfgDir, "fleetcom", "config.toml"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfgFIFO := filepath.Join(dir, "config fifo")
	if err := os.MkdirAll(filepath.Join(cfgFIFO, "fleetcom"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(cfgFIFO, "fleetcom", "config.toml"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, a := range agents.All() {
		// The controls: with nothing in the way, a prompt is passed on, and
		// so are options only when there is no config to ask for them.
		prompt := []string{a.Name, "hi"}
		for _, argv := range [][]string{prompt, {a.Name, "--version"}} {
			if path, env, ok := early.Plan(argv, base); !ok || path != filepath.Join(dir, a.Name) ||
				len(env) != 3 || !strings.HasPrefix(env[2], a.HopVar()+"=") {
				t.Fatalf("Plan(%q) = %q, %q, %v, want %s passed on (if the agent is new: go generate ./internal/early)",
					argv, path, env, ok, filepath.Join(dir, a.Name))
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
			{"a config that is a directory", prompt, append(base, "XDG_CONFIG_HOME="+cfgDir)},
			{"a config that is a FIFO", prompt, append(base, "XDG_CONFIG_HOME="+cfgFIFO)},
		}
		for _, c := range cases {
			if path, _, ok := early.Plan(c.argv, c.env); ok {
				t.Errorf("%s: Plan passed %q to %s", c.name, c.argv, path)
			}
		}
	}
}

// TestPlanSkipsTheOtherProgram: an install is fleetcom and fleetcom-shim
// side by side, and a link to either one is a shim, never the real CLI:
// fleetcom-shim passes over a claude that leads to the fleetcom beside it.
// The control names that file otherwise, and the link is then a candidate
// like any other program.
func TestPlanSkipsTheOtherProgram(t *testing.T) {
	if os.Getenv("EARLY_SIBLING_CHILD") == "1" {
		real, _, ok := early.Plan([]string{"claude", "-p", "hi"}, os.Environ())
		fmt.Printf("real=%s ok=%v\n", real, ok)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	for _, sibling := range []string{"fleetcom", "fleetcom-old"} {
		root := t.TempDir()
		inst, other, real := filepath.Join(root, "inst"), filepath.Join(root, "other"), filepath.Join(root, "real")
		for _, d := range []string{inst, other, real} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		me := filepath.Join(inst, "fleetcom-shim")
		files := map[string][]byte{me: data, filepath.Join(inst, sibling): []byte("#!/bin/sh\n"), filepath.Join(real, "claude"): []byte("#!/bin/sh\n")}
		for p, b := range files {
			if err := os.WriteFile(p, b, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(filepath.Join(inst, sibling), filepath.Join(other, "claude")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(me, "-test.run=^TestPlanSkipsTheOtherProgram$")
		cmd.Env = []string{"EARLY_SIBLING_CHILD=1", "HOME=" + root, "PATH=" + other + ":" + real,
			"FLEETCOM_SHIM_DIR=" + filepath.Join(root, "shims")}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		want := "real=" + filepath.Join(real, "claude") + " ok=true\n"
		if sibling != "fleetcom" {
			want = "real=" + filepath.Join(other, "claude") + " ok=true\n"
		}
		if !strings.HasPrefix(string(out), want) {
			t.Errorf("beside %s: %q, want %q", sibling, out, want)
		}
	}
}
