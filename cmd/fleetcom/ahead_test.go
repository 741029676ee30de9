package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/rcfile"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// aheadWarning, the one warning install.sh prints (issue 30, item 11): each
// line that puts agent CLIs first with the CLIs it hides, and the init line
// at the end of each file it must go in, one per chain of bash's startup
// files that needs it.
func TestAheadWarning(t *testing.T) {
	names := agents.Names()
	home := t.TempDir()
	exe := filepath.Join(home, "pre fix", "fleetcom")
	h := rcfile.Home{Dir: home, ZDotDir: home, Config: filepath.Join(home, ".config")}
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(home, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("pre fix/fleetcom", "#!/bin/sh\n")
	// Shims (this fleetcom under the agents' names) hide nothing.
	os.MkdirAll(filepath.Join(home, "shims"), 0o755)
	for _, name := range names {
		os.Symlink(exe, filepath.Join(home, "shims", name))
	}
	write(".bashrc", "eval \"$(fleetcom init bash)\"\nPATH=\"$HOME/shims:$PATH\"\n")
	write(".profile", ". \"$HOME/.bashrc\"\nPATH=\"$HOME/.local/bin:$PATH\"\n")
	if got := aheadWarning("bash", h, exe); got != "" {
		t.Errorf("with no CLI put first, a warning:\n%s", got)
	}

	// ~/.bashrc puts ~/bin first after its init line, in both chains;
	// ~/.profile puts ~/.local/bin first after it has read ~/.bashrc.
	write(".bashrc", "eval \"$(fleetcom init bash)\"\nPATH=\"$HOME/bin:$PATH\"\n")
	write("bin/"+names[0], "#!/bin/sh\n")
	for _, name := range names[1:] {
		write(".local/bin/"+name, "#!/bin/sh\n")
	}
	write(".local/bin/README", "not a program\n")
	quoted := safe.Quote(exe)
	want := "until its first prompt, a shell runs these agent CLIs unrecorded:\n" +
		"    " + home + "/.bashrc:2 puts " + home + "/bin in front of the shims after the init line: " + names[0] + "\n" +
		"    " + home + "/.profile:2 puts " + home + "/.local/bin in front of the shims after the init line: " + strings.Join(names[1:], ", ") + "\n" +
		"  to fix it, add this line at the end of " + home + "/.profile:\n" +
		"    [ -z \"$BASH_VERSION\" ] || eval \"$(" + quoted + " init bash)\"\n" +
		"  and this one at the end of " + home + "/.bashrc, then open a new shell:\n" +
		"    eval \"$(" + quoted + " init bash)\"\n"
	if got := aheadWarning("bash", h, exe); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}

	// With no init line yet, what comes after ~/.bashrc, where install.sh
	// asks for it: the fix goes in ~/.profile only.
	write(".bashrc", "PATH=\"$HOME/bin:$PATH\"\n")
	want = "until its first prompt, a shell runs these agent CLIs unrecorded:\n" +
		"    " + home + "/.profile:2 puts " + home + "/.local/bin in front of the shims after the init line: " + strings.Join(names[1:], ", ") + "\n" +
		"  to fix it, add this line at the end of " + home + "/.profile, then open a new shell:\n" +
		"    [ -z \"$BASH_VERSION\" ] || eval \"$(" + quoted + " init bash)\"\n"
	if got := aheadWarning("bash", h, exe); got != want {
		t.Errorf("with no init line yet, got:\n%s\nwant:\n%s", got, want)
	}
}

// `fleetcom __ahead` names directories read from the user's files: their
// control characters reach the terminal escaped, never as commands.
func TestAheadEscapes(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("ZDOTDIR", "")
	odd := "b\x1b]0;pwned\x07in"
	if err := os.MkdirAll(filepath.Join(home, odd), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, odd, agents.Names()[0]), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte("eval \"$(fleetcom init bash)\"\nPATH=\"$HOME/"+odd+":$PATH\"\n"), 0o644)
	var out bytes.Buffer
	defer func(w io.Writer) { stdout = w }(stdout)
	stdout = &out
	if err := cmdAhead(input{args: []string{"bash"}}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); strings.ContainsAny(got, "\x1b\x07") || !strings.Contains(got, `b\x1b]0;pwned\ain`) {
		t.Errorf("__ahead printed %q", got)
	}
}
