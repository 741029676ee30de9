package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// installEnv is a fresh user for install.sh: scratch HOME and XDG dirs,
// a PATH of go and the system directories only (no agent CLI), and the
// developer's Go caches and settings (a cold build cache would rebuild the
// world).
func installEnv(t *testing.T, tmp string) []string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	goVars := []string{"GOENV", "GOCACHE", "GOMODCACHE", "GOPATH"}
	out, err := exec.Command("go", append([]string{"env"}, goVars...)...).Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k != "HOME" && k != "SHELL" && k != "PATH" && !strings.HasPrefix(k, "XDG_") && !strings.HasPrefix(k, "FLEETCOM_") {
			env = append(env, kv)
		}
	}
	for i, v := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		env = append(env, goVars[i]+"="+v)
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(filepath.Join(tmp, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	return append(env, "HOME="+home, "SHELL=/bin/bash", "PATH="+filepath.Dir(goBin)+":/usr/bin:/bin",
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_RUNTIME_DIR="+filepath.Join(tmp, "run"))
}

// TestInstallScript installs from this checkout into a scratch prefix
// twice, then runs claude through the shim, as a new user would.
func TestInstallScript(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	needShell(t, "bash")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	env := installEnv(t, tmp)
	prefix := filepath.Join(tmp, "pre fix")
	bin := filepath.Join(prefix, "bin", "fleetcom")
	shimBin := filepath.Join(prefix, "bin", "fleetcom-shim")
	shims := filepath.Join(tmp, "home", ".local", "share", "fleetcom", "shims")

	install := func(argv ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(root, "install.sh"), "--prefix", prefix)
		if len(argv) > 0 {
			cmd = exec.Command(argv[0], append(argv[1:], filepath.Join(root, "install.sh"), "--prefix", prefix)...)
		}
		cmd.Dir, cmd.Env = t.TempDir(), env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("install.sh: %v\n%s", err, out)
		}
		return string(out)
	}
	out := install()
	for _, want := range []string{
		"installed " + bin + "\n",
		"installed " + shimBin + "\n",
		`eval "$('` + bin + `' init bash)"`,
		"none of " + strings.Join(agents.Names(), ", ") + " is installed yet",
		"ok       claude.path: the shim comes first on PATH",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("install.sh output lacks %q:\n%s", want, out)
		}
	}
	// The agents' shims lead to fleetcom-shim, the fleetcom link to fleetcom.
	links := map[string]os.FileInfo{}
	for _, tool := range append(agents.Names(), "fleetcom") {
		link, want := filepath.Join(shims, tool), shimBin
		if tool == "fleetcom" {
			want = bin
		}
		if target, err := os.Readlink(link); err != nil || target != want {
			t.Fatalf("shim %s: %q, %v; want a link to %s", tool, target, err, want)
		}
		links[tool], _ = os.Lstat(link)
	}
	for _, b := range []string{bin, shimBin} {
		f, err := elf.Open(b)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s is dynamically linked", b)
			}
		}
		f.Close()
	}

	// Run again, with the init line in place, a Debian ~/.profile and
	// every agent's CLI in ~/.local/bin (where Claude Code's native
	// installer puts claude): it says the line is there instead of asking
	// for it, and warns once that ~/.profile puts ~/.local/bin, and the
	// CLIs in it, first, with the line that fixes it and where it goes.
	home := filepath.Join(tmp, "home")
	initLine := `eval "$('` + bin + `' init bash)"`
	debian, err := os.ReadFile("../../internal/rcfile/testdata/debian.profile")
	if err != nil {
		t.Fatal(err)
	}
	localBin := filepath.Join(home, ".local", "bin")
	os.MkdirAll(localBin, 0o755)
	files := map[string]string{".bashrc": "export EDITOR=vi\n" + initLine + "\n", ".profile": string(debian)}
	for _, name := range agents.Names() {
		files[filepath.Join(".local", "bin", name)] = "#!/bin/sh\n"
	}
	for name, content := range files {
		if err := testexec.WriteFile(filepath.Join(home, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	profile := filepath.Join(home, ".profile")
	fix := `[ -z "$BASH_VERSION" ] || eval "$('` + bin + `' init bash)"`
	out = install()
	for _, want := range []string{
		filepath.Join(home, ".bashrc") + ":2 already runs fleetcom init",
		"install.sh: warning: until its first prompt, a shell runs these agent CLIs unrecorded:\n" +
			"    " + profile + ":22 puts " + localBin + " in front of the shims after the init line: " + strings.Join(agents.Names(), ", ") + "\n" +
			"  to fix it, add this line at the end of " + profile + ", then open a new shell:\n" +
			"    " + fix + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("install.sh, run again, lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "warning:"); n != 1 {
		t.Errorf("install.sh, run again, warns %d times, want once:\n%s", n, out)
	}
	if strings.Contains(out, "Add this line") {
		t.Errorf("install.sh asks for the rc line that is already there:\n%s", out)
	}
	// The fix, done as the warning says, puts the shims first in a login
	// shell before its first prompt, and the warning goes.
	f, err := os.OpenFile(profile, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(fix + "\n")
	f.Close()
	login := append(append([]string{}, env...), "BIN="+bin)
	for _, name := range agents.Names() {
		if got := runShell(t, tmp, login, "bash", "-lc", "command -v "+name); got != filepath.Join(shims, name)+"\n" {
			t.Errorf("after the warning's fix, a login bash runs %q for %s", got, name)
		}
	}
	if got := runShell(t, tmp, login, "bash", "-c", `"$BIN" __ahead bash`); got != "" {
		t.Errorf("after the fix, install.sh would still warn:\n%s", got)
	}
	os.Remove(profile)
	for _, name := range agents.Names() {
		os.Remove(filepath.Join(localBin, name))
	}
	for tool, before := range links {
		after, err := os.Lstat(filepath.Join(shims, tool))
		if err != nil || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
			t.Errorf("a second install replaced the %s shim", tool)
		}
	}
	if leftovers, _ := filepath.Glob(filepath.Join(prefix, "bin", ".fleetcom*")); len(leftovers) > 0 {
		t.Errorf("temporary files left in the bin dir: %q", leftovers)
	}

	// A real claude later on PATH; the rc line puts the shims first.
	real := filepath.Join(tmp, "real")
	argvLog := filepath.Join(tmp, "argv")
	fake := "#!/bin/sh\nprintf '%s\\n' \"hop=${FLEETCOM_CLAUDE_HOP:+set}\" \"$@\" >\"$ARGV_LOG\"\n"
	if err := os.MkdirAll(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testexec.WriteFile(filepath.Join(real, "claude"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	runEnv := append(env, "ARGV_LOG="+argvLog, "BIN="+bin, "PATH="+real+":/usr/bin:/bin")
	script := `eval "$("$BIN" init bash)" && claude -p hi 'two words'`
	if out := runShell(t, tmp, runEnv, "bash", "--norc", "--noprofile", "-c", script); out != "" {
		t.Errorf("claude through the shim printed %q", out)
	}
	got, err := os.ReadFile(argvLog)
	if want := "hop=set\n-p\nhi\ntwo words\n"; err != nil || string(got) != want {
		t.Errorf("the real claude got %q (%v), want %q: argv unchanged, through the shim", got, err, want)
	}

	// After the two documented steps, fleetcom itself runs in every shell,
	// with the binary's directory not on PATH at all: the line install.sh
	// prints for that shell is all it takes.
	lines := map[string]string{
		"bash": `eval "$("$BIN" init bash)"`,
		"zsh":  `eval "$("$BIN" init zsh)"`,
		"fish": `"$BIN" init fish | source`,
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		needShell(t, shell)
		argv := []string{shell, "-c", lines[shell] + "; fleetcom version; command -v fleetcom"}
		if shell == "fish" {
			argv = []string{"fish", "--no-config", "-c", strings.ReplaceAll(lines[shell], `"$BIN"`, "$BIN") + "; fleetcom version; command -v fleetcom"}
		}
		out := runShell(t, tmp, runEnv, argv...)
		if !strings.HasPrefix(out, "fleetcom ") || !strings.Contains(out, filepath.Join(shims, "fleetcom")) {
			t.Errorf("%s: after the init line, fleetcom gave %q", shell, out)
		}
	}

	// man fleetcom finds the page the install put beside the shims.
	if _, err := exec.LookPath("man"); err == nil {
		out := runShell(t, tmp, runEnv, "bash", "-c", `eval "$("$BIN" init bash)" && man -w fleetcom`)
		if !strings.HasSuffix(strings.TrimSpace(out), "fleetcom.1") {
			t.Errorf("man -w fleetcom after the init line: %q", out)
		}
	} else if os.Getenv("CI") == "true" {
		t.Error("man is not installed, and .ci/run installs it")
	}

	// --uninstall takes away what install put in place and the rc line it
	// asked for, and keeps the saved sessions; --purge takes them too.
	rc := filepath.Join(home, ".bashrc")
	os.WriteFile(rc, []byte("export EDITOR=vi\n"+initLine+"\nalias ll='ls -l'\n"), 0o644)
	state := filepath.Join(home, ".local", "state", "fleetcom")
	for _, d := range []string{"records", "dirs", "locks"} { // as store.Open makes it
		os.MkdirAll(filepath.Join(state, d), 0o700)
	}
	uninstall := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(filepath.Join(root, "install.sh"), append([]string{"--uninstall", "--prefix", prefix}, args...)...)
		cmd.Dir, cmd.Env = t.TempDir(), env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("install.sh --uninstall: %v\n%s", err, out)
		}
		return string(out)
	}
	out = uninstall()
	for _, gone := range []string{bin, shimBin, filepath.Join(shims, "claude"), filepath.Join(shims, "fleetcom"), filepath.Join(prefix, "share", "man", "man1", "fleetcom.1")} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("%s is still there after --uninstall", gone)
		}
	}
	if got, _ := os.ReadFile(rc); string(got) != "export EDITOR=vi\nalias ll='ls -l'\n" {
		t.Errorf("~/.bashrc after --uninstall: %q", got)
	}
	if _, err := os.Stat(state); err != nil || !strings.Contains(out, "kept the saved sessions") {
		t.Errorf("--uninstall did not keep the saved sessions: %v\n%s", err, out)
	}
	install()
	uninstall("--purge")
	if _, err := os.Stat(state); err == nil {
		t.Error("--uninstall --purge kept the saved sessions")
	}
}

func TestInstallScriptUsage(t *testing.T) {
	needShell(t, "bash")
	script, err := filepath.Abs("../../install.sh")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(script); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Fatalf("install.sh is not executable: %v", err)
	}
	tmp := t.TempDir()
	env := []string{"HOME=" + tmp, "PATH=/usr/bin:/bin"}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(script, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("--help"); err != nil || !strings.Contains(out, "Usage: ./install.sh [--prefix DIR]") {
		t.Errorf("install.sh --help: %v\n%s", err, out)
	}
	// sh (dash here) and zsh start it again in bash.
	for _, shell := range []string{"sh", "zsh"} {
		if _, err := exec.LookPath(shell); err != nil {
			continue
		}
		cmd := exec.Command(shell, script, "--help")
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "Usage: ./install.sh [--prefix DIR]") {
			t.Errorf("%s install.sh --help: %v\n%s", shell, err, out)
		}
	}
	// Read from a pipe there is no file to start again: it says what to do.
	cmd := exec.Command("sh")
	cmd.Env, cmd.Stdin = env, strings.NewReader("FLEETCOM_X=1\n. "+script+"\n")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "install.sh needs bash") {
		t.Errorf("install.sh sourced by sh: %v\n%s", err, out)
	}
	if out, err := run("--bogus"); err == nil || !strings.Contains(out, "unknown argument: --bogus") {
		t.Errorf("install.sh --bogus: %v\n%s", err, out)
	}
	if out, err := run("--prefix"); err == nil || !strings.Contains(out, "--prefix needs a directory") {
		t.Errorf("install.sh --prefix: %v\n%s", err, out)
	}
	// No go on PATH (it is not in /usr/bin here): a clear error, nothing built.
	if _, err := os.Stat("/usr/bin/go"); err == nil {
		t.Skip("go is in /usr/bin: cannot hide it")
	}
	out, err := run("--prefix", tmp)
	if err == nil || !strings.Contains(out, "install.sh: error: go is not installed or not on PATH") {
		t.Errorf("install.sh without go: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(tmp, "bin")); err == nil {
		t.Errorf("install.sh without go created %s/bin", tmp)
	}
}
