package main

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/early"
	"github.com/fleetcom/fleetcom/internal/testexec"
	"github.com/fleetcom/fleetcom/shim"
)

// earlyWorld is a machine with several candidates for each agent on PATH:
// real ones, ones that are not executable or not files, this program under
// the agent's name, a shim directory (by its path and by a link to it), and
// config files that do or may name a binary.
type earlyWorld struct {
	root, home, cwd string
	pathDirs        []string // PATH entries to draw from
	configHomes     []string // values for XDG_CONFIG_HOME
	shimDirs        []string // values for FLEETCOM_SHIM_DIR
}

func newEarlyWorld(t *testing.T) earlyWorld {
	t.Helper()
	root := t.TempDir()
	w := earlyWorld{root: root, home: filepath.Join(root, "home"), cwd: filepath.Join(root, "cwd")}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	mk := func(dir string) string {
		p := filepath.Join(root, dir)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk("home")
	mk("cwd")
	real1, real2, noexec, dirs, self := mk("real1"), mk("real2"), mk("noexec"), mk("dirs"), mk("self")
	shims := mk("home/.local/share/fleetcom/shims")
	for _, name := range agents.Names() {
		for _, d := range []string{real1, real2, w.cwd} {
			if err := testexec.WriteFile(filepath.Join(d, name), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(noexec, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		mk(filepath.Join("dirs", name))
		for _, d := range []string{self, shims} {
			if err := os.Symlink(exe, filepath.Join(d, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink(shims, filepath.Join(root, "shimlink")); err != nil {
		t.Fatal(err)
	}
	shimsCopy := mk("shimscopy")
	for _, name := range agents.Names() {
		if err := testexec.WriteFile(filepath.Join(shimsCopy, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.pathDirs = []string{real1, real2 + "/", noexec, dirs, self, shims, filepath.Join(root, "shimlink"), shimsCopy,
		"", ".", "real1", "../real2", root + "//real1/./", root + "/self/../real2", "/nonexistent", "relative/none"}
	// Config homes: none, one without a bin, one naming a bin, one that
	// may spell it with an escape, one asking for options, a directory in
	// the file's place, a relative value (ignored, like an unset one).
	cfg := func(name, body string) string {
		d := mk(filepath.Join("cfg", name, "fleetcom"))
		if body != "" {
			if err := os.WriteFile(filepath.Join(d, "config.toml"), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return filepath.Dir(d)
	}
	dirCfg := cfg("dir", "")
	mk("cfg/dir/fleetcom/config.toml")
	var bins, escaped strings.Builder
	for _, name := range agents.Names() {
		fmt.Fprintf(&bins, "[%s]\nbin = %q\n", name, filepath.Join(real2, name))
		fmt.Fprintf(&escaped, "[%s]\n\"\\u0062in\" = \"/x\"\n", name)
	}
	w.configHomes = []string{
		"", cfg("none", ""), cfg("plain", "[notify]\nenabled = true\n"), cfg("bin", bins.String()),
		cfg("escape", escaped.String()), cfg("options", "[capture]\noptions = true\n"),
		cfg("broken", "[[[\n"), dirCfg, "relative/cfg", cfg("dots", "") + "/../dots/.",
	}
	w.shimDirs = []string{"", shims, filepath.Join(root, "shimlink"), shimsCopy, "/nonexistent"}
	return w
}

// Whatever package early passes through before the program starts, the
// shim would have passed through too: the same binary, and the same
// environment apart from nothing. Random worlds of PATH entries, config
// files, shim directories and command lines, against shim.PassThrough
// with the paths this program resolves.
func TestEarlyPassesOnlyWhatTheShimPasses(t *testing.T) {
	w := newEarlyWorld(t)
	t.Chdir(w.cwd)
	keys := []string{"PATH", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "FLEETCOM_SHIM_DIR"}
	for _, name := range agents.Names() {
		a, _ := agents.Named(name)
		keys = append(keys, a.HopVar(), a.BinVar())
	}
	for _, k := range keys {
		t.Setenv(k, "") // restored at the end
	}
	words := []string{"-p", "hi", "--print", "--resume", "resume", "-s", "--resume=x", "--model", "opus",
		"--model=opus", "--", "-", "exec", "--last", "-c", "--version", "0f0f0f0f-0000-4000-8000-000000000000",
		"ses_01HZY", "mcp", "list", "-r", "--continue"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	passed, compared := 0, 0
	for i := range 4000 {
		for _, k := range keys {
			os.Unsetenv(k)
		}
		name := pick(agents.Names())
		a, _ := agents.Named(name)
		var path []string
		for range 1 + rng.IntN(4) {
			path = append(path, pick(w.pathDirs))
		}
		set := map[string]string{"PATH": strings.Join(path, ":")}
		if rng.IntN(10) > 0 {
			set["HOME"] = w.home
		}
		if c := pick(w.configHomes); c != "" {
			set["XDG_CONFIG_HOME"] = c
		}
		if rng.IntN(4) == 0 {
			set["XDG_DATA_HOME"] = pick([]string{filepath.Join(w.home, ".local/share"), "rel", w.root})
		}
		if d := pick(w.shimDirs); d != "" {
			set["FLEETCOM_SHIM_DIR"] = d
		}
		if rng.IntN(8) == 0 {
			set[a.BinVar()] = pick([]string{"", filepath.Join(w.root, "real2", name)})
		}
		if rng.IntN(8) == 0 {
			set[a.HopVar()] = pick([]string{"", "1:1:x:", "garbage"})
		}
		for k, v := range set {
			os.Setenv(k, v)
		}
		argv := []string{pick([]string{name, name, "/somewhere/" + name, name + "/"})}
		for range rng.IntN(4) {
			argv = append(argv, pick(words))
		}
		env := os.Environ()
		real, out, ok := early.Plan(argv, env)
		if !ok {
			continue
		}
		passed++
		o := shimOptions()
		want, wantEnv, wantOK := shim.PassThrough(a, argv, &o)
		compared++
		if !wantOK || real != want || !slices.Equal(out, wantEnv) {
			t.Fatalf("case %d: argv %q, env %v\nearly: %s %q\nshim:  %s %q (passes: %v)",
				i, argv, set, real, out[len(out)-1], want, last(wantEnv), wantOK)
		}
	}
	// The pass-through must take the common cases, or this proves nothing.
	if passed < 500 {
		t.Errorf("early passed %d of 4000 commands through; the worlds are meant to give it more", passed)
	}
	t.Logf("early passed %d of 4000 commands on; all matched the shim", passed)
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

func last(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[len(list)-1]
}

// Through a real exec: a shim passes a prompt on before its packages start
// (GODEBUG=inittrace=1 lists each package as its init ends: the runtime's,
// and not os), and the real CLI gets the arguments and the hop record the
// shim would set. With a config that names a binary the program starts as
// usual and runs the one named.
func TestEarlyPassThroughExecs(t *testing.T) {
	w := newEarlyWorld(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a := agents.All()[0]
	shims := filepath.Join(w.root, "shims under test")
	real := filepath.Join(w.root, "real cli")
	for _, d := range []string{shims, real} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(exe, filepath.Join(shims, a.Name)); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nprintf 'pid=%s args=%s hop=%s\\n' \"$$\" \"$*\" \"$" + a.HopVar() + "\"\n"
	for _, p := range []string{filepath.Join(real, a.Name), filepath.Join(w.root, "real2", a.Name)} {
		if err := testexec.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(configHome string) (stdout, stderr string) {
		cmd := exec.Command(filepath.Join(shims, a.Name), "hi there")
		cmd.Env = []string{"PATH=" + shims + ":" + real + ":/usr/bin:/bin", "HOME=" + w.home,
			"XDG_CONFIG_HOME=" + configHome, "FLEETCOM_SHIM_DIR=" + shims, "GODEBUG=inittrace=1"}
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v\n%s%s", err, out.String(), errb.String())
		}
		return out.String(), errb.String()
	}
	out, trace := run(w.configHomes[1])
	var pid int
	if _, err := fmt.Sscanf(out, "pid=%d args=", &pid); err != nil {
		t.Fatalf("the real CLI printed %q", out)
	}
	wantHop := fmt.Sprintf("%d:1:%s:%s", pid, argsPrint("hi there"), filepath.Join(real, a.Name))
	if want := fmt.Sprintf("pid=%d args=hi there hop=%s\n", pid, wantHop); out != want {
		t.Errorf("the real CLI printed\n%s want\n%s", out, want)
	}
	if !strings.Contains(trace, "init runtime @") || strings.Contains(trace, "init os @") {
		t.Errorf("the program was not passed on before its packages started:\n%s", trace)
	}
	// Where early makes its own system calls, it runs before any package
	// that waits for sync: internal/godebug's is the costliest init there.
	if runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64" {
		if strings.Contains(trace, "init internal/godebug @") {
			t.Errorf("the program was passed on after internal/godebug's init:\n%s", trace)
		}
	}
	// A config naming a binary: the usual start, and the binary it names,
	// which the hop record does not list (it is not from PATH).
	out, trace = run(w.configHomes[3])
	if !strings.HasPrefix(out, "pid=") || !strings.Contains(out, "args=hi there hop=") ||
		!strings.HasSuffix(out, ":\n") || !strings.Contains(trace, "init os @") {
		t.Errorf("with bin in the config: printed %q, trace\n%s", out, trace)
	}
}
