package main

import (
	goflag "flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/termtest"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// The test binary plays every program the scripts need: fleetcom itself
// (also under the shim names, through symlinks), and the fake agent CLIs.
func TestMain(m *testing.M) {
	if _, ok := agents.Named(filepath.Base(os.Args[0])); ok {
		// Reached through a shim symlink: behave exactly as the shim.
		os.Exit(run(os.Args))
	}
	roles := map[string]func(){"fleetcom": func() { os.Exit(run(os.Args)) }}
	for role, f := range fakes {
		roles[role] = func() { os.Exit(f.main()) }
	}
	testscript.Main(widened{m}, roles)
}

// TestEveryAgentHasAFake: a registered agent without a fake would leave its
// script tests running against nothing.
func TestEveryAgentHasAFake(t *testing.T) {
	for _, name := range agents.Names() {
		ok := false
		for _, f := range fakes {
			ok = ok || f.tool == name && f.dir == "real"
		}
		if !ok {
			t.Errorf("no fake of %s is installed as its real CLI: add fake%s_test.go registering one", name, name)
		}
	}
	for role, f := range fakes {
		if _, ok := agents.Named(f.tool); !ok {
			t.Errorf("fake %s stands for %q, which is not a registered agent", role, f.tool)
		}
	}
}

// widened runs the tests with -parallel at four times GOMAXPROCS unless
// -parallel was given. The parallel tests here (every script, the shell
// and install tests) spend their time waiting for the shells, terminals
// and processes they start, not computing: GOMAXPROCS at a time, the
// package outlasted go test's ten minutes under the race detector on a
// loaded 2-core machine while it used a quarter of the CPU time.
type widened struct{ m *testing.M }

func (w widened) Run() int {
	goflag.Parse()
	given := false
	goflag.Visit(func(f *goflag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		goflag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	// Run is reached only in the process that runs the tests, never in
	// the roles testscript starts this binary in.
	testexec.DefaultHangup()
	return w.m.Run()
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		Setup:               setupScript,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"pty": cmdPTY, "until": cmdUntil, "records": cmdRecords},
		RequireExplicitExec: true,
	})
}

// setupScript gives each script a user of its own: a home and XDG
// directories with spaces in their paths, the shims installed first on
// PATH, and "real" CLIs later on PATH that run the fakes.
func setupScript(env *testscript.Env) error {
	work := env.WorkDir
	home := filepath.Join(work, "home dir")
	vars := map[string]string{
		"HOME":              home,
		"XDG_CONFIG_HOME":   filepath.Join(home, ".config"),
		"XDG_STATE_HOME":    filepath.Join(home, ".local", "state"),
		"XDG_DATA_HOME":     filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME":    filepath.Join(home, ".cache"),
		"XDG_RUNTIME_DIR":   filepath.Join(work, "run"),
		"FLEETCOM_SHIM_DIR": filepath.Join(work, "shims"),
		"FAKE_ARGV_LOG":     filepath.Join(work, "argv.log"),
		"REAL":              filepath.Join(work, "real"),
		"TERM":              "xterm-256color",
		// A script's tmux server is its own, and is gone when it ends.
		"TMUX_TMPDIR": filepath.Join(work, ".tmux"),
	}
	for k, v := range vars {
		env.Setenv(k, v)
	}
	if err := os.MkdirAll(filepath.Join(home, "project dir"), 0o755); err != nil {
		return err
	}
	if err := os.Mkdir(vars["XDG_RUNTIME_DIR"], 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(vars["TMUX_TMPDIR"], 0o700); err != nil {
		return err
	}
	env.Defer(func() { termtest.KillDefault(vars["TMUX_TMPDIR"]) })
	if err := installFakes(work, vars["REAL"]); err != nil {
		return err
	}
	if err := linkShims(vars["FLEETCOM_SHIM_DIR"], env.Getenv("PATH")); err != nil {
		return err
	}
	env.Setenv("PATH", vars["FLEETCOM_SHIM_DIR"]+string(os.PathListSeparator)+vars["REAL"]+
		string(os.PathListSeparator)+env.Getenv("PATH"))
	return nil
}

// installFakes writes the "real" CLIs, real/<agent>, and each other fake in
// the directory under work it asks for (work/community/grok): scripts that
// run the fakes, which are symlinks in work/fakes to the test binary named
// after their role. Each script sits in an npm package, as the real CLIs are
// installed (e2e/README.md), and the command is a link into it, as
// node_modules/.bin holds: fleetcom reads a CLI's version, and which grok it
// is, from the package, never by running it.
func installFakes(work, real string) error {
	fakeDir := filepath.Join(work, "fakes")
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(fakeDir, 0o755); err != nil {
		return err
	}
	npm := filepath.Join(fakeDir, "npm", "node_modules")
	for role, f := range fakes {
		path := filepath.Join(work, f.dir, f.tool)
		if f.dir == "real" {
			path = filepath.Join(real, f.tool)
		}
		target := filepath.Join(fakeDir, role)
		pkg := f.pkg
		if _, err := os.Lstat(target); err != nil {
			if err := os.Symlink(exe, target); err != nil {
				return err
			}
		}
		dir := filepath.Join(npm, filepath.FromSlash(pkg.name))
		file := filepath.Join(dir, filepath.FromSlash(pkg.bin))
		manifest := fmt.Sprintf(`{"name":%q,"version":%q,"bin":{"%s":%q}}`, pkg.name, pkg.version, filepath.Base(path), pkg.bin)
		script := "#!/bin/sh\nexec '" + target + "' \"$@\"\n"
		for _, err := range []error{
			os.MkdirAll(filepath.Dir(file), 0o755),
			os.WriteFile(filepath.Join(dir, "package.json"), []byte(manifest), 0o644),
			testexec.WriteFile(file, []byte(script), 0o755),
			os.MkdirAll(filepath.Dir(path), 0o755),
		} {
			if err != nil {
				return err
			}
		}
		if err := os.Symlink(file, path); err != nil && !os.IsExist(err) {
			return err
		}
	}
	return nil
}

// linkShims points every agent's shim in dir at the test binary: at the
// copy of it a script runs as fleetcom when the script's PATH has one, as
// shims installed by `fleetcom shims install` are the fleetcom on PATH
// (status counts a run only under a shim that is a fleetcom).
func linkShims(dir string, path ...string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	for _, p := range path {
		for _, d := range filepath.SplitList(p) {
			if fc := filepath.Join(d, "fleetcom"); filepath.IsAbs(d) && isExecutable(fc) {
				exe = fc
				break
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, tool := range agents.Names() {
		if err := os.Symlink(exe, filepath.Join(dir, tool)); err != nil {
			return err
		}
	}
	return nil
}

// isExecutable reports a regular file someone may execute.
func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// cmdRecords is the testscript command `records N`: the store holds exactly
// N records. Found conversations are listed beside records, so a script
// that means "nothing was recorded" counts the store's files instead.
func cmdRecords(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: records N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("records: %v", err)
	}
	names, _ := filepath.Glob(filepath.Join(ts.Getenv("XDG_STATE_HOME"), "fleetcom", "records", "*.json"))
	if len(names) != want {
		ts.Fatalf("records: the store holds %d, want %d: %v", len(names), want, names)
	}
}
