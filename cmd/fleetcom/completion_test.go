package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/completions"
	"github.com/fleetcom/fleetcom/harness/agents"
)

// The completion scripts run in the real shells, driven as a user's <TAB>
// would drive them: bash through its completion function, zsh through a
// completion widget on a pseudo-terminal, fish through `complete -C`.

// buildFleetcom builds the fleetcom binary into a directory whose name has
// a space and a quote in it, so every script must quote its path.
func buildFleetcom(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bin dir's", "fleetcom")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// needShell skips the test when a shell is missing, except in CI, which
// installs them all: there a missing shell is a failure.
func needShell(t *testing.T, shell string) string {
	t.Helper()
	p, err := exec.LookPath(shell)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed, and .ci/run installs it", shell)
		}
		t.Skipf("%s is not installed: not tested here (.ci/run installs it)", shell)
	}
	return p
}

// shellEnv is a user's environment with the store in state.
func shellEnv(home, state string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_STATE_HOME=" + state,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local/share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "TERM=dumb", "LANG=C.UTF-8"}
}

// runShell runs a shell with a time limit and returns its stdout.
func runShell(t *testing.T, dir string, env []string, argv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), shellWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var errs strings.Builder
	cmd.Stderr = &errs
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", argv[0], err, out, errs.String())
	}
	return string(out)
}

// shellWait bounds one shell the tests run. It only ends a shell that hung:
// beside a CPU hog, under the race detector, a zsh loading compinit took
// more than 30 s.
const shellWait = 3 * time.Minute

// bashDriver loads the script as an rc file would and calls the function
// `complete -p` names, with COMP_* set for the words given ($1 onwards,
// the last one being completed); it prints COMPREPLY, one per line.
const bashDriver = `eval "$("$FLEETCOM" completion bash)" || exit 1
spec=$(complete -p fleetcom)
case $spec in *"-o nosort"*) ;; *) echo "not nosort: $spec" >&2; exit 1 ;; esac
fn=${spec#*-F }; fn=${fn%% *}
COMP_WORDS=(fleetcom "$@")
COMP_CWORD=$#
COMP_LINE="fleetcom $*"
COMP_POINT=${#COMP_LINE}
COMPREPLY=()
"$fn" fleetcom "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"
`

// zshSetup runs in an interactive zsh on a pseudo-terminal. Its compadd
// records every match a completion offers, with the line the menu shows
// for it, and TAB runs the completion and then marks the file as done.
const zshSetup = `PS1= RPS1=
autoload -Uz compinit && compinit -u -D
eval "$("$FLEETCOM" completion zsh)"
compadd() {
  if (( ${@[(I)-[OAD]]} )); then builtin compadd "$@"; return; fi
  local -a __m __d
  local i=${@[(i)-d]} k
  (( i < $# )) && __d=("${(@P)${@[i+1]}}")
  builtin compadd -A __m -D __d "$@"
  # _describe -V reaches compadd as -V GROUP or, since zsh 5.9, -o nosort.
  (( ${@[(I)-V]} || ${@[(I)nosort]} )) && print -r -- "#unsorted" >>$OUT
  for k in {1..$#__m}; do print -r -- "$__m[k]"$'\t'"$__d[k]" >>$OUT; done
  builtin compadd "$@"
}
__capture() { : >|$OUT; zle complete-word; : >|$OUT.done }
zle -N __capture
bindkey '^I' __capture
print READY
`

// zshDriver starts zsh on a pseudo-terminal once, and for each line given
// types it and TAB, prints what the completion recorded and "#end", and
// clears the line (^U).
const zshDriver = `zmodload zsh/zpty || exit 3
zpty z zsh -f -i
zpty -w z "source ${(q)SETUP}"
zpty -r z __ '*READY*'
for line; do
  rm -f $OUT.done
  zpty -w -n z "$line"$'\t'
  for i in {1..400}; do [[ -e $OUT.done ]] && break; sleep 0.02; done
  [[ -e $OUT.done ]] || { print -u2 "no completion ran for: $line"; exit 4; }
  cat $OUT
  print -r -- "#end"
  zpty -w -n z $'\C-u'
done
zpty -d z
`

// candidates returns what a shell offers for each query: the words after
// "fleetcom", the last being completed. Each answer is a list of
// "value<TAB>description" lines (bash has no descriptions; zsh's are the
// menu lines). zsh answers all queries in one session: it starts slowly.
func candidates(t *testing.T, shell, bin, dir string, env []string, queries ...[]string) [][]string {
	t.Helper()
	env = append(env, "FLEETCOM="+bin)
	lines := func(out string) []string { return strings.Split(strings.TrimSuffix(out, "\n"), "\n") }
	var answers [][]string
	switch shell {
	case "bash":
		for _, q := range queries {
			argv := append([]string{"bash", "--norc", "--noprofile", "-c", bashDriver, "bash"}, q...)
			answers = append(answers, bashLines(lines(runShell(t, dir, env, argv...))))
		}
	case "fish":
		for _, q := range queries {
			env := append(env, "LINE=fleetcom "+strings.Join(q, " "))
			script := `"$FLEETCOM" completion fish | source; complete -C "$LINE"`
			answers = append(answers, lines(runShell(t, dir, env, "fish", "--no-config", "-c", script)))
		}
	case "zsh":
		tmp := t.TempDir()
		setup := filepath.Join(tmp, "setup.zsh")
		if err := os.WriteFile(setup, []byte(zshSetup), 0o600); err != nil {
			t.Fatal(err)
		}
		env = append(env, "SETUP="+setup, "OUT="+filepath.Join(tmp, "out"))
		argv := []string{"zsh", "-f", "-c", zshDriver, "zsh"}
		for _, q := range queries {
			argv = append(argv, "fleetcom "+strings.Join(q, " "))
		}
		for _, a := range strings.SplitAfter(runShell(t, dir, env, argv...), "#end\n") {
			if a != "" {
				answers = append(answers, lines(strings.TrimSuffix(a, "#end\n")))
			}
		}
	}
	if len(answers) != len(queries) {
		t.Fatalf("%s: %d answers to %d queries: %q", shell, len(answers), len(queries), answers)
	}
	return answers
}

func TestCompletionShells(t *testing.T) {
	t.Parallel() // shells and processes: it waits more than it works
	bin := buildFleetcom(t)
	home, state := t.TempDir(), t.TempDir()
	project := filepath.Join(home, "project dir")
	// Directories made out of order: completion offers them sorted.
	subs := []string{"sub dir", "sub c", "sub a", "sub e", "sub b"}
	for _, d := range subs {
		if err := os.MkdirAll(filepath.Join(project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(subs)
	ids := putSessions(t, filepath.Join(state, "fleetcom"), project, []session{
		{"claude", "fix the flaky test", 26 * time.Hour},
		{"codex", `fix C:\new\dir`, 3 * time.Hour},
		{"claude", "", 5 * time.Minute},
	})
	putSessions(t, filepath.Join(state, "fleetcom"), home, []session{{"grok", "not here", time.Minute}})
	// No agent's store holds them: they are offered as runs going on.
	for i, tool := range []string{"claude", "codex", "claude"} {
		liveRun(t, state, tool, ids[i], project)
	}
	env := shellEnv(home, state)
	newest := []string{ids[2], ids[1], ids[0]}

	prefix := ids[1][:6]
	queries := [][]string{
		{"resume", ""},
		{"resume", "claude", ""},
		{"resume", prefix},
		{"resu"},
		{"resume", "-"},
		{"resume", "-C", "su"},
	}
	for _, shell := range completions.Shells() {
		t.Run(shell, func(t *testing.T) {
			needShell(t, shell)
			answers := candidates(t, shell, bin, project, env, queries...)
			lines := answers[0]
			if shell == "zsh" && lines[0] != "#unsorted" {
				t.Errorf("zsh: the matches are not in an unsorted group: the menu would sort them")
			}
			vals, descs := split(lines)
			nAgents := len(agents.Names())
			want := append(agents.Names(), newest...)
			if diff := cmp.Diff(want, vals); diff != "" {
				t.Fatalf("fleetcom resume <TAB> (-want +got):\n%s\nfull output:\n%s", diff, strings.Join(lines, "\n"))
			}
			{
				// Running now, as their live files say, each says so.
				for i, want := range []string{"claude, 5m, running now", `codex, 3h, running now, fix C:`, "claude, 26h, running now, fix the f"} {
					if !strings.Contains(descs[nAgents+i], want) {
						t.Errorf("%s: description of %s is %q, want it to hold %q", shell, vals[nAgents+i], descs[nAgents+i], want)
					}
				}
				if !strings.Contains(descs[0], "Claude Code") {
					t.Errorf("%s: description of claude is %q", shell, descs[0])
				}
			}
			for i, want := range [][]string{{ids[2], ids[0]}, {ids[1]}, {"resume"}, {"-C", "--exec", "--json", "-i", "--all", "--force", "--switch"}} {
				if vals, _ := split(answers[1+i]); !cmp.Equal(vals, want) {
					t.Errorf("fleetcom %s<TAB>: %q, want %q", strings.Join(queries[1+i], " "), vals, want)
				}
			}
			// The directories, sorted (zsh offers the names quoted for its
			// command line, bash and fish with a slash).
			vals, _ = split(answers[5])
			var dirs []string
			for _, v := range vals {
				d := strings.TrimSuffix(strings.ReplaceAll(v, `\ `, " "), "/")
				// zsh's _directories offers the list through more than
				// one compadd: each name counts once.
				if !slices.Contains(dirs, d) {
					dirs = append(dirs, d)
				}
			}
			if !cmp.Equal(dirs, subs) {
				t.Errorf("fleetcom resume -C su<TAB>: %q, want the directories %q in that order", vals, subs)
			}
		})
	}
}

// bashEntry is a candidate as bash lists it: the value, padded, then the
// description in parentheses.
var bashEntry = regexp.MustCompile(`^(\S+) +\((.*)\) *$`)

// bashLines turns what bash lists into "value<TAB>description" lines. With
// more than one candidate every one that has a description shows it; a
// single candidate is its bare value, which is what bash inserts.
func bashLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if m := bashEntry.FindStringSubmatch(l); m != nil && len(lines) > 1 {
			l = m[1] + "\t" + m[2]
		}
		out[i] = l
	}
	return out
}

// split separates "value<TAB>description" lines, skipping zsh's marks.
func split(lines []string) (vals, descs []string) {
	for _, l := range lines {
		if l == "#unsorted" {
			continue
		}
		v, d, _ := strings.Cut(l, "\t")
		vals, descs = append(vals, v), append(descs, d)
	}
	return vals, descs
}

func TestCompletionCommand(t *testing.T) {
	for _, shell := range completions.Shells() {
		out, _ := captureOutput(t, func() {
			if err := cmdCompletion(input{args: []string{shell}}); err != nil {
				t.Errorf("completion %s: %v", shell, err)
			}
		})
		if strings.Contains(out, completions.Placeholder) || !strings.Contains(out, "__complete") {
			t.Errorf("completion %s: placeholder left or no call of __complete:\n%s", shell, out)
		}
	}
	for _, args := range [][]string{{}, {"tcsh"}, {"bash", "zsh"}} {
		if err := cmdCompletion(input{args: args}); exitCode(err) != exitUsage {
			t.Errorf("completion %q: %v, want a usage error", args, err)
		}
	}
}
