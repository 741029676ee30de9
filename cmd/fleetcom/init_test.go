package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// TestInitShells sources `fleetcom init SHELL` twice in each real shell,
// starting from a PATH that holds the shim directory twice and not first:
// afterwards it is on PATH exactly once, first, and completion is loaded.
func TestInitShells(t *testing.T) {
	bin := buildFleetcom(t)
	home := t.TempDir()
	shims := filepath.Join(home, "shim dir's $HOME")
	env := append(shellEnv(home, filepath.Join(home, "state")), "FLEETCOM="+bin, "FLEETCOM_SHIM_DIR="+shims, "SHIMS="+shims)
	const rest = "/usr/local/bin:/usr/bin:/bin"
	want := shims + ":" + rest + "\n"

	scripts := map[string][]string{
		"bash": {"bash", "--norc", "--noprofile", "-c", `PATH="/usr/local/bin:$SHIMS:/usr/bin:/bin:$SHIMS"
eval "$("$FLEETCOM" init bash)"
eval "$("$FLEETCOM" init bash)"
complete -p fleetcom >/dev/null || echo "no completion"
[ -z "${__fleetcom_dir+set}" ] || echo "variable left behind"
printf '%s\n' "$PATH"`},
		// zsh without compinit yet: completion registers once it has run.
		"zsh": {"zsh", "-f", "-c", `PATH="/usr/local/bin:$SHIMS:/usr/bin:/bin:$SHIMS"
eval "$("$FLEETCOM" init zsh)"
eval "$("$FLEETCOM" init zsh)"
autoload -Uz compinit && compinit -u -D
for f in $precmd_functions; do $f; done
[[ $_comps[fleetcom] == _fleetcom ]] || echo "no completion"
print -r -- "$PATH"`},
		"fish": {"fish", "--no-config", "-c", `set PATH /usr/local/bin $SHIMS /usr/bin /bin $SHIMS
"$FLEETCOM" init fish | source
"$FLEETCOM" init fish | source
complete -c fleetcom | string match -q '*__fleetcom_complete*'; or echo "no completion"
set -q __fleetcom_dir; and echo "variable left behind"
string join : $PATH`},
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			needShell(t, shell)
			if got := runShell(t, home, env, scripts[shell]...); got != want {
				t.Errorf("PATH after sourcing init twice:\n got %q\nwant %q", got, want)
			}
		})
	}

	t.Run("zsh compinit first", func(t *testing.T) {
		needShell(t, "zsh")
		got := runShell(t, home, env, "zsh", "-f", "-c", `autoload -Uz compinit && compinit -u -D
eval "$("$FLEETCOM" init zsh)"
print -r -- $_comps[fleetcom]`)
		if got != "_fleetcom\n" {
			t.Errorf("completion function registered: %q", got)
		}
	})
}

func TestInitCommand(t *testing.T) {
	shims := filepath.Join(t.TempDir(), "it's here")
	t.Setenv("FLEETCOM_SHIM_DIR", shims)
	out, _ := captureOutput(t, func() {
		if err := cmdInit(input{args: []string{"bash"}}); err != nil {
			t.Errorf("init bash: %v", err)
		}
	})
	if !strings.Contains(out, "__fleetcom_dir="+safe.Quote(shims)+"\n") {
		t.Errorf("init bash does not set the quoted shim dir:\n%s", out)
	}
	if !strings.Contains(out, "complete -o nosort -F _fleetcom fleetcom") {
		t.Errorf("init bash does not load completions:\n%s", out)
	}
	exe, _ := os.Executable()
	if !strings.Contains(out, exe) {
		t.Errorf("init bash does not name fleetcom by its path %s", exe)
	}
	for _, args := range [][]string{{}, {"csh"}, {"--shell", "bash"}} {
		var code int
		captureOutput(t, func() { code = dispatch(append([]string{"init"}, args...)) })
		if code != exitUsage {
			t.Errorf("init %q: exit %d, want a usage error", args, code)
		}
	}
}
