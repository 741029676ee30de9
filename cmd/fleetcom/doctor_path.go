package main

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/fleetcom/fleetcom/internal/rcfile"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// The PATH checks of doctor: which binary each name runs, and, when another
// directory comes before the shims, which line of the startup files put it
// there and what fixes it.

// checkOnPath wants the first tool on PATH to be this fleetcom (for an
// agent, a shim: a link to one of ours, this fleetcom or the fleetcom-shim
// beside it), as a shell would pick it.
func checkOnPath(tool string, ours []os.FileInfo, exe, shimDir string) doctorCheck {
	c := doctorCheck{Name: tool + ".path", Status: statusProblem}
	first := ""
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" {
			dir = "."
		}
		cand := filepath.Join(dir, tool)
		if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			first = cand
			if isOurs(ours, fi) {
				c.Status, c.Path, c.Detail = statusOK, cand, "the shim comes first on PATH ("+cand+")"
				if tool == "fleetcom" {
					c.Detail = "fleetcom runs this binary (" + cand + ")"
				}
				return c
			}
			break
		}
	}
	front := ""
	switch {
	case first == "" && tool == "fleetcom":
		c.Detail = "fleetcom is not on PATH: typing fleetcom would say command not found"
	case first == "":
		c.Detail = "no " + tool + " on PATH: the shim directory is not on it"
	case tool == "fleetcom":
		c.Path, c.Detail = first, "fleetcom on PATH is "+first+", another binary than this one"
		front = filepath.Dir(first)
	default:
		c.Path, c.Detail = first, first+" comes before the shim on PATH"
		front = filepath.Dir(first)
	}
	c.Detail, c.Hint, c.cause = pathFix(c.Detail, front, shimDir, exe)
	return c
}

// checkFleetcomOnPath wants `fleetcom` typed at a prompt to run this
// binary. The shim directory holds a fleetcom link for that, so a shim
// directory on PATH without it (an install older than the link) needs the
// shims installed again rather than another rc line.
func checkFleetcomOnPath(shimDir string, self os.FileInfo, exe, me string) doctorCheck {
	c := checkOnPath("fleetcom", []os.FileInfo{self}, exe, shimDir)
	if c.Status == statusOK {
		return c
	}
	if _, err := os.Lstat(filepath.Join(shimDir, "fleetcom")); err != nil && onPath(shimDir) {
		c.Hint = me + " shims install"
	}
	return c
}

// pathFix explains a shim that does not come first and names the fix that
// works for it: where the init line already is, never "add it" again.
//   - Another directory, front, is ahead of a shim directory that is on
//     PATH: the startup line that put it there after the init line is named,
//     and the init line goes after it.
//   - A later line replaces the prompt hook: the init line goes below it.
//   - The init line is there but did not run here: a new shell runs it.
//   - There is no init line: add one.
//
// The cause is set in the first case only.
func pathFix(detail, front, shimDir, exe string) (string, string, pathCause) {
	shell, h := userShell(), shellHome()
	if front != "" && onPath(shimDir) {
		if init, culprit, ok := rcfile.Blame(shell, h, front); ok {
			file := rcfile.After(shell, h, culprit)
			why := culprit.Where() + " puts " + front + " in front after the init line (" + init.Where() + ")"
			return detail + ": " + why, "add this line at the end of " + file + ", then open a new shell: " + initLineFor(shell, file, exe),
				pathCause{front, why}
		}
	}
	lines := rcfile.InitLines(shell, h)
	if len(lines) == 0 {
		return detail, initHint(exe), pathCause{}
	}
	if l, ok := rcfile.HookDropped(shell, h); ok {
		return detail, "move the init line (" + lines[len(lines)-1].Where() + ") below " + l.Where() +
			", which replaces the prompt hook that keeps the shims first, then open a new shell", pathCause{}
	}
	return detail, "open a new shell: the init line (" + lines[len(lines)-1].Where() + ") puts the shims first at every prompt", pathCause{}
}

// pathCause is the startup-file line behind a PATH problem: the directory
// it puts in front of the shims, and the words that say so.
type pathCause struct{ dir, why string }

// oneCause folds, for the text report, the PATH checks that one startup
// line breaks into the first of them: one problem, named by each check,
// under which the one fix stands. rest are the checks after first.
func oneCause(first doctorCheck, rest []doctorCheck) doctorCheck {
	names, tools := []string{first.Name}, []string{strings.TrimSuffix(first.Name, ".path")}
	for _, c := range rest {
		if c.cause == first.cause {
			names = append(names, c.Name)
			tools = append(tools, strings.TrimSuffix(c.Name, ".path"))
		}
	}
	if len(names) > 1 {
		first.Name = strings.Join(names, ", ")
		first.Detail = strings.Join(tools, ", ") + " in " + first.cause.dir + " come before the shims on PATH: " + first.cause.why
	}
	return first
}

// shellHome is what the user's startup files expand against.
func shellHome() rcfile.Home {
	return rcfile.NewHome(homeDir(), xdgDir("XDG_CONFIG_HOME", ".config"), os.Getenv("ZDOTDIR"))
}

// userShell is the login shell doctor gives advice for.
func userShell() string {
	switch s := filepath.Base(os.Getenv("SHELL")); s {
	case "zsh", "fish":
		return s
	}
	return "bash"
}

// initLineFor is the init line for file: in ~/.profile, which sh reads
// too, only bash runs it.
func initLineFor(shell, file, exe string) string {
	switch {
	case shell == "fish":
		return safe.Quote(exe) + " init fish | source"
	case shell == "bash" && filepath.Base(file) == ".profile":
		return `[ -z "$BASH_VERSION" ] || eval "$(` + safe.Quote(exe) + ` init bash)"`
	}
	return `eval "$(` + safe.Quote(exe) + ` init ` + shell + `)"`
}

// onPath reports whether dir is one of PATH's directories.
func onPath(dir string) bool {
	di, err := os.Stat(dir)
	if err != nil {
		return false
	}
	for _, p := range filepath.SplitList(os.Getenv("PATH")) {
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, di) {
			return true
		}
	}
	return false
}

// initHint names the rc-file line for the user's shell.
func initHint(exe string) string {
	switch userShell() {
	case "zsh":
		return `add this line to ~/.zshrc and open a new shell: eval "$(` + safe.Quote(exe) + ` init zsh)"`
	case "fish":
		return "add this line to ~/.config/fish/config.fish and open a new shell: " + safe.Quote(exe) + " init fish | source"
	}
	return `add this line to ~/.bashrc and open a new shell: eval "$(` + safe.Quote(exe) + ` init bash)"`
}

// isOurs reports whether fi is one of ours (nil entries are none).
func isOurs(ours []os.FileInfo, fi os.FileInfo) bool {
	for _, o := range ours {
		if o != nil && os.SameFile(o, fi) {
			return true
		}
	}
	return false
}
