package rcfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Reading startup-file lines: what each puts in front of PATH, what it
// sources, whether it runs the init line.
func TestPrepends(t *testing.T) {
	h := Home{Dir: "/home/u", ZDotDir: "/home/u/z", Config: "/home/u/.config"}
	for _, tc := range []struct {
		shell, line string
		want        []string
	}{
		{"bash", `PATH="$HOME/.local/bin:$PATH"`, []string{"/home/u/.local/bin"}},
		{"bash", `    PATH="$HOME/bin:$PATH"`, []string{"/home/u/bin"}},
		{"bash", `export PATH=~/go/bin:"${HOME}/x":$PATH:/tail`, []string{"/home/u/go/bin", "/home/u/x"}},
		{"bash", `export PATH=$PATH:$HOME/after`, nil},
		{"bash", `    *) export PATH="$HOME/.cargo/bin:$PATH" ;;`, []string{"/home/u/.cargo/bin"}},
		{"bash", `PATH=/usr/local/bin:/usr/bin:/bin`, []string{"/usr/local/bin", "/usr/bin", "/bin"}},
		{"bash", `PATH="$PYENV_ROOT/bin:$PATH"`, nil},
		{"bash", `# PATH="$HOME/bin:$PATH"`, nil},
		{"bash", `echo done # PATH=/x:$PATH`, nil},
		{"zsh", `path=("$HOME/.local/bin" /opt/x $path)`, []string{"/home/u/.local/bin", "/opt/x"}},
		{"zsh", `path+=(/after)`, nil},
		{"zsh", `eval "$(/opt/homebrew/bin/brew shellenv)"`, []string{"/opt/homebrew/bin", "/opt/homebrew/sbin"}},
		{"fish", `set -gx PATH $HOME/.local/bin $PATH`, []string{"/home/u/.local/bin"}},
		{"fish", `set -gx PATH $PATH $HOME/after`, nil},
		{"fish", `set --prepend PATH ~/p`, []string{"/home/u/p"}},
		{"fish", `fish_add_path ~/.local/bin /opt/y`, []string{"/home/u/.local/bin", "/opt/y"}},
		{"fish", `fish_add_path -a /after`, nil},
		{"fish", `set -U fish_user_paths ~/u $fish_user_paths`, []string{"/home/u/u"}},
	} {
		if got := prepends(tc.line, tc.shell, h); !cmp.Equal(got, tc.want) {
			t.Errorf("%s %q: got %q, want %q", tc.shell, tc.line, got, tc.want)
		}
	}
}

func TestIsInitLine(t *testing.T) {
	for line, want := range map[string]bool{
		`eval "$(fleetcom init bash)"`:                                              true,
		`eval "$('/opt/x y/fleetcom' init zsh)"`:                                    true,
		`[ -x ~/.local/bin/fleetcom ] && eval "$(~/.local/bin/fleetcom init bash)"`: true,
		`fleetcom init fish | source`:                                               true,
		`# eval "$(fleetcom init bash)"`:                                            false,
		`alias fl=fleetcom`:                                                         false,
		`fleetcom initialize`:                                                       false,
	} {
		if got := IsInitLine(line); got != want {
			t.Errorf("IsInitLine(%q) = %v, want %v", line, got, want)
		}
	}
}

// writeHome writes startup files under a scratch home.
func writeHome(t *testing.T, files map[string]string) Home {
	t.Helper()
	home := t.TempDir()
	for name, content := range files {
		p := filepath.Join(home, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(content, "HOMEDIR", home)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Home{Dir: home, ZDotDir: home, Config: filepath.Join(home, ".config")}
}

// TestBlame follows sourced files in the order the shell reads them: a line
// before the init line is not the culprit, the last one after it is.
func TestBlame(t *testing.T) {
	debian, err := os.ReadFile("testdata/debian.profile")
	if err != nil {
		t.Fatal(err)
	}
	h := writeHome(t, map[string]string{
		".profile": string(debian),
		".bashrc":  "PATH=\"$HOME/.local/bin:$PATH\"\neval \"$(fleetcom init bash)\"\n",
	})
	local := filepath.Join(h.Dir, ".local", "bin")
	init, culprit, ok := Blame("bash", h, local)
	if !ok || culprit.Where() != filepath.Join(h.Dir, ".profile")+":22" || init.Where() != filepath.Join(h.Dir, ".bashrc")+":2" {
		t.Errorf("blame: %v, culprit %s, init %s", ok, culprit.Where(), init.Where())
	}
	if _, _, ok := Blame("bash", h, "/elsewhere"); ok {
		t.Error("blame names a line for a directory no line names")
	}
	got := Ahead("bash", h, Of("bash", h))
	if len(got) != 2 || got[1].Dir != local || got[1].N != 22 || got[0].Dir != filepath.Join(h.Dir, "bin") ||
		got[0].Chain != 0 || got[1].Chain != 0 {
		t.Errorf("ahead: %+v", got)
	}
	if f := After("bash", h, culprit); f != filepath.Join(h.Dir, ".profile") {
		t.Errorf("after %s: %s, want the user's own file", culprit.Where(), f)
	}
	if f := After("bash", h, Line{File: "/etc/profile", N: 3}); f != filepath.Join(h.Dir, ".bashrc") {
		t.Errorf("after a system file's line: %s, want the rc file", f)
	}

	// A line that both of bash's chains read, after the init line, is
	// listed for each: the init line must follow it in both.
	both := writeHome(t, map[string]string{
		".profile": ". HOMEDIR/.bashrc\n",
		".bashrc":  "eval \"$(fleetcom init bash)\"\nPATH=\"$HOME/bin:$PATH\"\n",
	})
	got = Ahead("bash", both, Of("bash", both))
	if len(got) != 2 || got[0].Chain != 0 || got[1].Chain != 1 || got[0].Where() != got[1].Where() || got[1].N != 2 {
		t.Errorf("ahead, a line of both chains: %+v", got)
	}

	z := writeHome(t, map[string]string{
		".zshenv":   "eval \"$(fleetcom init zsh)\"\n",
		".zprofile": "export PATH=\"$HOME/.local/bin:$PATH\"\n",
		".zshrc":    "source HOMEDIR/more.zsh\n",
		"more.zsh":  "path=(/opt/late $path)\n",
	})
	if _, culprit, ok := Blame("zsh", z, "/opt/late"); !ok || culprit.Where() != filepath.Join(z.Dir, "more.zsh")+":1" {
		t.Errorf("zsh blame through a sourced file: %v %s", ok, culprit.Where())
	}

	f := writeHome(t, map[string]string{
		".config/fish/conf.d/a.fish": "fleetcom init fish | source\n",
		".config/fish/config.fish":   "fish_add_path ~/.local/bin\n",
	})
	if _, culprit, ok := Blame("fish", f, filepath.Join(f.Dir, ".local", "bin")); !ok || culprit.N != 1 ||
		culprit.File != filepath.Join(f.Dir, ".config", "fish", "config.fish") {
		t.Errorf("fish blame after conf.d: %v %s", ok, culprit.Where())
	}
}

// BenchmarkBlame is what doctor's reading of the startup files costs: a
// Debian ~/.profile that sources a 200-line ~/.bashrc.
func BenchmarkBlame(b *testing.B) {
	debian, err := os.ReadFile("testdata/debian.profile")
	if err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	rc := strings.Repeat("alias ll='ls -l'  # a line of an ordinary rc file\n", 199) + "eval \"$(fleetcom init bash)\"\n"
	os.WriteFile(filepath.Join(home, ".profile"), debian, 0o644)
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o644)
	h := Home{Dir: home, ZDotDir: home, Config: filepath.Join(home, ".config")}
	local := filepath.Join(home, ".local", "bin")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, ok := Blame("bash", h, local); !ok {
			b.Fatal("no culprit")
		}
	}
}
