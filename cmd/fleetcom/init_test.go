package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// TestInitShells sources `fleetcom init SHELL` twice in each real shell,
// starting from a PATH that holds the shim directory twice and not first:
// afterwards it is on PATH exactly once, first, and completion is loaded.
func TestInitShells(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
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
	if !strings.Contains(out, "__fleetcom_dir="+safe.Quote(shims)+" ") {
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

// fr, defined by the init code, resumes like eval "$(fleetcom resume)" but
// fails visibly when there is nothing to resume, in every shell.
func TestFrInEveryShell(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	bin := buildFleetcom(t)
	home := t.TempDir()
	state := filepath.Join(home, "state")
	log := filepath.Join(home, "ran.log")
	real := fakeRealClaude(t, log)
	project := filepath.Join(home, "project")
	empty := filepath.Join(home, "empty")
	os.MkdirAll(project, 0o755)
	os.MkdirAll(empty, 0o755)
	ids := putSessions(t, filepath.Join(state, "fleetcom"), project, []session{{"claude", "a title", time.Minute}})
	// putSessions records conversations as resumable; give this one a
	// transcript so the truth agrees.
	writeTranscript(t, filepath.Join(home, ".claude"), project, ids[0])
	env := append(shellEnv(home, state), "PATH="+real+":/usr/bin:/bin", "FLEETCOM_SHIM_DIR="+filepath.Join(home, "shims"), "BIN="+bin)
	init := map[string]string{"bash": `eval "$("$BIN" init bash)"`, "zsh": `eval "$("$BIN" init zsh)"`, "fish": `$BIN init fish | source`}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			path := needShell(t, shell)
			run := func(dir string) (string, error) {
				cmd := exec.Command(path, "-c", init[shell]+"; fr; echo status=$"+map[bool]string{true: "status", false: "?"}[shell == "fish"])
				cmd.Dir, cmd.Env = dir, env
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			os.Remove(log)
			out, _ := run(empty)
			if !strings.Contains(out, "fleetcom: error: no resumable session") || !strings.Contains(out, "status=1") {
				t.Errorf("fr with nothing to resume: %q", out)
			}
			out, _ = run(project)
			got, _ := os.ReadFile(log)
			if want := project + "|--resume " + ids[0] + "\n"; string(got) != want || !strings.Contains(out, "status=0") {
				t.Errorf("fr ran %q (want %q), output %q", got, want, out)
			}
		})
	}
}

// writeTranscript gives a claude conversation a transcript with a message.
func writeTranscript(t *testing.T, home, cwd, id string) {
	t.Helper()
	p := claudeTranscriptPath(home, cwd, id)
	os.MkdirAll(filepath.Dir(p), 0o755)
	line, _ := json.Marshal(map[string]any{"type": "user", "sessionId": id, "cwd": cwd,
		"message": map[string]any{"role": "user", "content": "a title"}})
	if err := os.WriteFile(p, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestInitPromptHook: the init code registers one prompt hook however often
// it is sourced, after the hooks already there (bash's PROMPT_COMMAND as a
// string, with a trailing ";", or as an array; zsh's precmd_functions; a
// fish_prompt handler). The hook puts the shim directory back in front,
// once, keeps $? for the prompt, and leaves a PATH that already starts
// with it alone.
func TestInitPromptHook(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	bin := filepath.Join(selfAs(t, "fleetcom"), "fleetcom")
	home := t.TempDir()
	shims := filepath.Join(home, "shim dir*[x]")
	env := append(shellEnv(home, filepath.Join(home, "state")), "FLEETCOM="+bin, "FLEETCOM_SHIM_DIR="+shims, "SHIMS="+shims)
	const posixChecks = `
PATH="/a:$SHIMS:/b*[x]:$SHIMS"; false; __fleetcom_path; echo "status $? path $PATH"
PATH="$SHIMS:/c"; __fleetcom_path; echo "first $PATH"
PATH=""; __fleetcom_path; echo "empty $PATH"
`
	want := "status 1 path " + shims + ":/a:/b*[x]\nfirst " + shims + ":/c\nempty " + shims + "\n"
	scripts := map[string][]string{
		"bash": {"bash", "--norc", "--noprofile", "-c", `PROMPT_COMMAND='history -a;'
eval "$("$FLEETCOM" init bash)"; eval "$("$FLEETCOM" init bash)"
[[ $PROMPT_COMMAND == $'history -a;\n__fleetcom_path' ]] || declare -p PROMPT_COMMAND
PROMPT_COMMAND=(x y); eval "$("$FLEETCOM" init bash)"; eval "$("$FLEETCOM" init bash)"
[[ ${PROMPT_COMMAND[*]} == 'x y __fleetcom_path' ]] || declare -p PROMPT_COMMAND
set -u; unset PROMPT_COMMAND; eval "$("$FLEETCOM" init bash)"
[[ $PROMPT_COMMAND == __fleetcom_path ]] || declare -p PROMPT_COMMAND` + posixChecks},
		"zsh": {"zsh", "-f", "-c", `precmd_functions=(mine)
eval "$("$FLEETCOM" init zsh)"; eval "$("$FLEETCOM" init zsh)"
[[ ${precmd_functions[*]} == 'mine __fleetcom_path _fleetcom_compdef' ]] || print -r -- "precmd: $precmd_functions"` + posixChecks},
		"fish": {"fish", "--no-config", "-c", `"$FLEETCOM" init fish | source; "$FLEETCOM" init fish | source
test (functions --handlers-type event | string match -c '*__fleetcom_path*') = 1; or functions --handlers-type event
set PATH /b; emit fish_prompt; test "$PATH[1]" = $SHIMS; or echo "no fish_prompt handler"
set PATH /a $SHIMS '/b*[x]' $SHIMS; false; __fleetcom_path; set -l st $status; echo "status $st path "(string join : $PATH)
set PATH $SHIMS /c; __fleetcom_path; echo "first "(string join : $PATH)
set PATH; __fleetcom_path; echo "empty "(string join : $PATH)`},
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			needShell(t, shell)
			if got := runShell(t, home, env, scripts[shell]...); got != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
