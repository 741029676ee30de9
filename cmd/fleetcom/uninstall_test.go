package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/testexec"
)

// install.sh --uninstall against a user's real startup files: what it may
// remove, what it must leave, and a disk that fails under it. The binary
// is built once and put where an install would put it, so no test here
// waits for install.sh to build.

// TestUninstall runs each case against one build of fleetcom.
func TestUninstall(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	needShell(t, "bash")
	built := buildFleetcom(t)
	for _, tc := range []struct {
		name string
		run  func(*testing.T, string)
	}{
		{"startup files", testUninstallStartupFiles},
		{"full disk", testUninstallFullDisk},
		{"not fleetcom", testUninstallNotFleetcom},
		{"purge", testUninstallPurge},
		{"purge foreign layout", testUninstallPurgeForeignLayout},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, built) })
	}
}

// uninstallWorld is a user with fleetcom installed in prefix (the binary
// and its shims), a scratch HOME and XDG directories.
type uninstallWorld struct {
	root, home, prefix, bin, shims string
	env                            []string
}

func newUninstallWorld(t *testing.T, built string) uninstallWorld {
	t.Helper()
	needShell(t, "bash")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	w := uninstallWorld{root: root, home: filepath.Join(tmp, "home"), prefix: filepath.Join(tmp, "pre fix")}
	w.bin = filepath.Join(w.prefix, "bin", "fleetcom")
	w.shims = filepath.Join(w.home, ".local", "share", "fleetcom", "shims")
	w.env = installEnv(t, tmp)
	data, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(w.bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testexec.WriteFile(w.bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(w.bin, "shims", "install")
	cmd.Env = w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("shims install: %v\n%s", err, out)
	}
	return w
}

// write puts a file under HOME (directories made as needed).
func (w uninstallWorld) write(t *testing.T, rel, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(w.home, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := testexec.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// uninstall runs install.sh --uninstall ARGS… in dir ("" for a scratch
// one) with extra environment, and returns its output and exit status.
func (w uninstallWorld) uninstall(t *testing.T, dir string, extra []string, args ...string) (string, int) {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	cmd := exec.Command(filepath.Join(w.root, "install.sh"), append([]string{"--uninstall", "--prefix", w.prefix}, args...)...)
	cmd.Dir, cmd.Env = dir, append(append([]string{}, w.env...), extra...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// testUninstallStartupFiles: every fleetcom init line, in every startup
// file of bash, zsh and fish, is removed when that is safe, whatever its
// spelling (the README's own included), and named with file and line when
// it is not; what is removed leaves files that parse; a symlinked rc stays
// a link to its target, which gets the new content, with its mode.
func testUninstallStartupFiles(t *testing.T, built string) {
	w := newUninstallWorld(t, built)
	exact := `eval "$('` + w.bin + `' init bash)"`
	bashrc := "export EDITOR=vi\n" +
		exact + "\n" +
		"if [ -x ~/.local/bin/fleetcom ]; then\n" +
		"  eval \"$(~/.local/bin/fleetcom init bash)\"\n" +
		"fi\n" +
		"[ -d /nonexistent ] &&\n" +
		"  eval \"$(fleetcom init bash)\"\n" +
		"alias fl=fleetcom\n" +
		"eval \"$(~/.local/bin/fleetcom init bash)\"   # the README's line\n" +
		"alias ll='ls -l'  # ünïcödé\n"
	target := w.write(t, "dotfiles/bashrc", bashrc, 0o600)
	if err := os.Symlink(filepath.Join("dotfiles", "bashrc"), filepath.Join(w.home, ".bashrc")); err != nil {
		t.Fatal(err)
	}
	profile := w.write(t, ".profile", "PATH=\"$HOME/bin:$PATH\"\n[ -n \"$BASH_VERSION\" ] && eval \"$('"+w.bin+"' init bash)\"\n", 0o644)
	zshrc := w.write(t, ".zshrc", "setopt autocd\nsource <(fleetcom init zsh)\nif [[ -o interactive ]]; then\n  eval \"$(fleetcom init zsh)\"\nfi\n", 0o644)
	fish := w.write(t, ".config/fish/config.fish", "set -x A 1\n'"+w.bin+"' init fish | source\n", 0o644)
	confd := w.write(t, ".config/fish/conf.d/fleetcom.fish", "type -q fleetcom; and fleetcom init fish | source\n", 0o644)

	out, code := w.uninstall(t, "", nil)
	if code != 0 {
		t.Fatalf("--uninstall exited %d:\n%s", code, out)
	}
	if fi, err := os.Lstat(filepath.Join(w.home, ".bashrc")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("~/.bashrc is no longer a symlink: %v", err)
	}
	wantBashrc := "export EDITOR=vi\n" +
		"if [ -x ~/.local/bin/fleetcom ]; then\n" +
		"  eval \"$(~/.local/bin/fleetcom init bash)\"\n" +
		"fi\n" +
		"[ -d /nonexistent ] &&\n" +
		"  eval \"$(fleetcom init bash)\"\n" +
		"alias fl=fleetcom\n" +
		"alias ll='ls -l'  # ünïcödé\n"
	wantFile(t, target, wantBashrc, 0o600)
	wantFile(t, profile, "PATH=\"$HOME/bin:$PATH\"\n", 0o644)
	if needShell(t, "zsh") != "" {
		// zsh takes an if with nothing in it, so both lines go.
		wantFile(t, zshrc, "setopt autocd\nif [[ -o interactive ]]; then\nfi\n", 0o644)
	}
	if needShell(t, "fish") != "" {
		wantFile(t, fish, "set -x A 1\n", 0o644)
		wantFile(t, confd, "", 0o644)
	}
	for _, want := range []string{
		"removed the fleetcom line " + filepath.Join(w.home, ".bashrc") + ":2: " + exact,
		"removed the fleetcom line " + filepath.Join(w.home, ".bashrc") + ":9: ",
		filepath.Join(w.home, ".bashrc") + ":4 still runs fleetcom init, left in place (the file would not parse without it",
		filepath.Join(w.home, ".bashrc") + ":7 still runs fleetcom init, left in place (it continues the line before it)",
		filepath.Join(w.home, ".bashrc") + ":8 still names fleetcom: alias fl=fleetcom",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--uninstall output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{target, profile} {
		if b, err := exec.Command("bash", "-n", f).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse after --uninstall: %s", f, b)
		}
	}
	if leftovers, _ := filepath.Glob(filepath.Join(w.home, "*", ".*fleetcom-*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %q", leftovers)
	}
}

func wantFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil || string(got) != content {
		t.Errorf("%s after --uninstall:\n got %q (%v)\nwant %q", path, got, err, content)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm() != mode {
		t.Errorf("%s has mode %04o after --uninstall, want %04o", path, fi.Mode().Perm(), mode)
	}
}

// bigRC is an rc file of about 164 KB, the size of the one the full disk
// cut short, with the init line install.sh printed somewhere in it.
func bigRC(bin string) string {
	var b strings.Builder
	for i := 0; b.Len() < 164000; i++ {
		if i == 100 {
			b.WriteString(`eval "$('` + bin + `' init bash)"` + "\n")
		}
		fmt.Fprintf(&b, "export VAR_%05d=\"a value for line %d\"\n", i, i)
	}
	return b.String()
}

// testUninstallFullDisk: when the rc file cannot be rewritten whole, it is
// left exactly as it was, the run fails and names the line to delete. Two
// faults stand in for the disk: a tiny tmpfs in a private mount namespace
// (where the kernel allows one) and a file size limit (everywhere).
func testUninstallFullDisk(t *testing.T, built string) {
	check := func(t *testing.T, w uninstallWorld, rc, out string, code int, after []byte) {
		t.Helper()
		if code == 0 {
			t.Errorf("--uninstall exited 0 with the rc file unchanged:\n%s", out)
		}
		if string(after) != rc {
			t.Errorf("the rc file changed: %d bytes, was %d", len(after), len(rc))
		}
		if want := "delete line 101 by hand: " + `eval "$('` + w.bin + `' init bash)"`; !strings.Contains(out, want) {
			t.Errorf("--uninstall output lacks %q:\n%s", want, out)
		}
		if strings.Contains(out, "removed the fleetcom line") {
			t.Errorf("--uninstall claims to have removed the line:\n%s", out)
		}
	}

	t.Run("tmpfs", func(t *testing.T) {
		if _, err := exec.LookPath("unshare"); err != nil {
			t.Skip("needs unshare(1) from util-linux to mount a scratch filesystem")
		}
		if err := exec.Command("unshare", "--map-root-user", "--mount", "true").Run(); err != nil {
			t.Skipf("this kernel refuses a user mount namespace, so no scratch filesystem can be mounted: %v", err)
		}
		w := newUninstallWorld(t, built)
		rc := bigRC(w.bin)
		src := filepath.Join(t.TempDir(), "rc")
		os.WriteFile(src, []byte(rc), 0o644)
		result := filepath.Join(t.TempDir(), "rc.after")
		// HOME becomes a 256 KiB tmpfs holding the rc file only: no room
		// for a second copy of it.
		script := `mount -t tmpfs -o size=256k tmpfs "$HOME" && cp "$SRC" "$HOME/.bashrc" &&
"$INSTALL" --uninstall --prefix "$PREFIX" >"$OUT" 2>&1; echo $? >"$OUT.code"; ls -A "$HOME" >"$OUT.ls"; cp "$HOME/.bashrc" "$RESULT"`
		outFile := filepath.Join(t.TempDir(), "out")
		cmd := exec.Command("unshare", "--map-root-user", "--mount", "bash", "-c", script)
		cmd.Env = append(append([]string{}, w.env...), "SRC="+src, "RESULT="+result, "OUT="+outFile,
			"INSTALL="+filepath.Join(w.root, "install.sh"), "PREFIX="+w.prefix)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		out, _ := os.ReadFile(outFile)
		codeText, _ := os.ReadFile(outFile + ".code")
		var code int
		fmt.Sscan(string(codeText), &code)
		after, _ := os.ReadFile(result)
		check(t, w, rc, string(out), code, after)
		if ls, _ := os.ReadFile(outFile + ".ls"); string(ls) != ".bashrc\n" {
			t.Errorf("HOME holds more than .bashrc afterwards: %q", ls)
		}
		if !strings.Contains(string(out), "No space left on device") {
			t.Errorf("the error does not say why:\n%s", out)
		}
	})

	t.Run("file size limit", func(t *testing.T) {
		w := newUninstallWorld(t, built)
		rc := bigRC(w.bin)
		p := w.write(t, ".bashrc", rc, 0o644)
		// 100 KiB per file: less than the rewritten rc file needs.
		cmd := exec.Command("bash", "-c", `ulimit -f 100 && trap '' XFSZ && exec "$INSTALL" --uninstall --prefix "$PREFIX"`)
		cmd.Dir, cmd.Env = t.TempDir(), append(append([]string{}, w.env...), "INSTALL="+filepath.Join(w.root, "install.sh"), "PREFIX="+w.prefix)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		after, _ := os.ReadFile(p)
		check(t, w, rc, out.String(), code, after)
		if leftovers, _ := filepath.Glob(filepath.Join(w.home, ".*fleetcom-*")); len(leftovers) > 0 {
			t.Errorf("temporary files left: %q", leftovers)
		}
	})
}

// testUninstallNotFleetcom: a PREFIX/bin/fleetcom that is not fleetcom's
// binary is neither run nor removed; the shims still go (the links that
// lead to a file named fleetcom or fleetcom-shim, and nothing else in their
// directory).
func testUninstallNotFleetcom(t *testing.T, built string) {
	w := newUninstallWorld(t, built)
	ran := filepath.Join(t.TempDir(), "ran")
	impostor := "#!/bin/sh\necho \"$@\" >> '" + ran + "'\n"
	if err := testexec.WriteFile(w.bin, []byte(impostor), 0o755); err != nil {
		t.Fatal(err)
	}
	mine := filepath.Join(w.shims, "mytool")
	if err := os.Symlink("/usr/bin/env", mine); err != nil {
		t.Fatal(err)
	}
	// A shim that leads to a fleetcom-shim goes too; a fleetcom-shim that
	// is not fleetcom's stays.
	shimBin := filepath.Join(filepath.Dir(w.bin), "fleetcom-shim")
	if err := testexec.WriteFile(shimBin, []byte(impostor), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(w.shims, "claude"))
	if err := os.Symlink(shimBin, filepath.Join(w.shims, "claude")); err != nil {
		t.Fatal(err)
	}
	out, code := w.uninstall(t, "", nil)
	if want := shimBin + " is not fleetcom's shim binary: left in place"; !strings.Contains(out, want) {
		t.Errorf("--uninstall output lacks %q:\n%s", want, out)
	}
	if got, err := os.ReadFile(shimBin); err != nil || string(got) != impostor {
		t.Errorf("--uninstall removed or changed %s: %v", shimBin, err)
	}
	if code != 0 {
		t.Errorf("--uninstall exited %d:\n%s", code, out)
	}
	if b, err := os.ReadFile(ran); err == nil {
		t.Errorf("--uninstall ran %s: %q", w.bin, b)
	}
	if got, err := os.ReadFile(w.bin); err != nil || string(got) != impostor {
		t.Errorf("--uninstall removed or changed %s: %v", w.bin, err)
	}
	if want := w.bin + " is not a fleetcom binary: left in place, not run"; !strings.Contains(out, want) {
		t.Errorf("--uninstall output lacks %q:\n%s", want, out)
	}
	for _, name := range append(agents.Names(), "fleetcom") {
		if _, err := os.Lstat(filepath.Join(w.shims, name)); err == nil {
			t.Errorf("the %s shim is still there", name)
		}
	}
	if _, err := os.Lstat(mine); err != nil {
		t.Errorf("--uninstall removed a link that is not fleetcom's: %v", err)
	}
}

// testUninstallPurge: --purge asks the binary where the store and cache
// are (so a relative XDG variable, which fleetcom ignores, is ignored here
// too), removes them only when they hold fleetcom's layout, and leaves no
// empty folder of fleetcom's behind.
func testUninstallPurge(t *testing.T, built string) {
	w := newUninstallWorld(t, built)
	store := filepath.Join(w.home, ".local", "state", "fleetcom")
	cache := filepath.Join(w.home, ".cache", "fleetcom")
	for _, d := range []string{"records", "locks", "dirs", "drift"} {
		os.MkdirAll(filepath.Join(store, d), 0o700)
	}
	w.write(t, ".cache/fleetcom/binaries.json", "{}", 0o600)
	os.MkdirAll(filepath.Join(cache, "1234-abcdef"), 0o700)
	w.write(t, ".config/fleetcom/config.toml", "[claude]\n", 0o600)
	// The user's project, named like fleetcom's folders, in the directory
	// install.sh runs in.
	project := t.TempDir()
	for _, rel := range []string{"fleetcom/go.mod", "state/fleetcom/notes.txt", "cache/fleetcom/keep.txt"} {
		p := filepath.Join(project, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("mine\n"), 0o644)
	}
	out, code := w.uninstall(t, project, []string{"XDG_STATE_HOME=.", "XDG_CACHE_HOME=cache"}, "--purge")
	if code != 0 {
		t.Fatalf("--uninstall --purge exited %d:\n%s", code, out)
	}
	for _, rel := range []string{"fleetcom/go.mod", "state/fleetcom/notes.txt", "cache/fleetcom/keep.txt"} {
		if _, err := os.Stat(filepath.Join(project, rel)); err != nil {
			t.Errorf("--purge took the user's %s: %v\n%s", rel, err, out)
		}
	}
	for _, gone := range []string{store, cache, filepath.Join(w.home, ".local", "share", "fleetcom")} {
		if _, err := os.Lstat(gone); err == nil {
			t.Errorf("%s is still there after --purge:\n%s", gone, out)
		}
	}
	if _, err := os.Stat(filepath.Join(w.home, ".config", "fleetcom", "config.toml")); err != nil {
		t.Errorf("--purge removed the user's config: %v", err)
	}
	for _, kept := range []string{filepath.Join(w.home, ".local", "share"), filepath.Join(w.home, ".cache")} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("--purge removed %s, which is not fleetcom's: %v", kept, err)
		}
	}
}

// testUninstallPurgeForeignLayout: a store or cache folder that does not
// hold fleetcom's layout stays, and the run says so.
func testUninstallPurgeForeignLayout(t *testing.T, built string) {
	w := newUninstallWorld(t, built)
	notes := w.write(t, ".local/state/fleetcom/notes.txt", "mine\n", 0o644)
	photo := w.write(t, ".cache/fleetcom/photo.jpg", "mine\n", 0o644)
	w.write(t, ".cache/fleetcom/binaries.json", "{}", 0o600)
	out, code := w.uninstall(t, "", nil, "--purge")
	if code != 0 {
		t.Fatalf("--uninstall --purge exited %d:\n%s", code, out)
	}
	for _, p := range []string{notes, photo} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("--purge removed %s: %v", p, err)
		}
	}
	for _, want := range []string{"holds photo.jpg, which is not fleetcom's: left in place", "holds no records/ and locks/"} {
		if !strings.Contains(out, want) {
			t.Errorf("--purge output lacks %q:\n%s", want, out)
		}
	}
}
