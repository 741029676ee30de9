package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/rcfile"
)

// What install.sh asks the binary instead of guessing: where fleetcom keeps
// its files (the same rules as every other command, so a relative XDG
// variable is ignored here as everywhere) and which agents it knows, as
// NUL-terminated fields, so no path can break them; and what to say when a
// shell's startup files will put agent CLIs in front of the shims.

// cmdPaths prints name=value records: bin, shims, data, store, cache,
// config, runtime (only when fleetcom chose it), and agent once per agent.
func cmdPaths(in input) error {
	if len(in.args) > 0 {
		return usagef("__paths takes no arguments")
	}
	p := resolvePaths()
	exe, err := selfPath()
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	shims, err := filepath.Abs(p.ShimDir)
	if err != nil {
		return err
	}
	rec := func(k, v string) { fmt.Fprintf(stdout, "%s=%s\x00", k, v) }
	rec("bin", exe)
	rec("shims", shims)
	rec("data", filepath.Join(xdgDir("XDG_DATA_HOME", ".local", "share"), "fleetcom"))
	rec("store", p.StoreDir)
	rec("cache", p.CacheDir)
	rec("config", filepath.Dir(p.ConfigFile))
	if !p.Runtime.Explicit {
		rec("runtime", p.Runtime.Dir)
	}
	for _, name := range agents.Names() {
		rec("agent", name)
	}
	return nil
}

// cmdAhead prints, for SHELL, the warning install.sh shows when startup
// lines put a directory holding agent CLIs in front of the shims after the
// init line (or after the rc file it belongs in), as one message: the
// lines, the CLIs each hides, and the fix. It prints nothing when no line
// does that.
func cmdAhead(in input) error {
	shell, err := shellArg("__ahead", in.args)
	if err != nil {
		return err
	}
	exe, err := selfPath()
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, printableLines(aheadWarning(shell, shellHome(), exe))) // it names paths read from files
	return nil
}

// aheadWarning is cmdAhead's message for the fleetcom at exe: its first
// line follows "warning: ", the others stand indented under it. The init
// line goes at the end of the file of the last line that hides a CLI, in
// each chain of startup files where one does.
func aheadWarning(shell string, h rcfile.Home, exe string) string {
	self, _ := os.Stat(exe)
	_, shimFile := shimBeside(exe)
	ours := []os.FileInfo{self, shimFile}
	var lines, files []string
	last := map[int]rcfile.Line{}
	for _, p := range rcfile.Ahead(shell, h, rcfile.Of(shell, h)) {
		if tools := agentsIn(p.Dir, ours); len(tools) > 0 {
			line := "    " + p.Where() + " puts " + p.Dir + " in front of the shims after the init line: " + strings.Join(tools, ", ")
			if !slices.Contains(lines, line) { // read in both of bash's chains
				lines = append(lines, line)
			}
			last[p.Chain] = p.Line
		}
	}
	if len(lines) == 0 {
		return ""
	}
	for _, chain := range slices.Sorted(maps.Keys(last)) {
		if f := rcfile.After(shell, h, last[chain]); !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	var b strings.Builder
	b.WriteString("until its first prompt, a shell runs these agent CLIs unrecorded:\n")
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	for i, f := range files {
		what, then := "  to fix it, add this line", ""
		if i > 0 {
			what = "  and this one"
		}
		if i == len(files)-1 {
			then = ", then open a new shell"
		}
		fmt.Fprintf(&b, "%s at the end of %s%s:\n    %s\n", what, f, then, initLineFor(shell, f, exe))
	}
	return b.String()
}

// agentsIn names the agents whose program is in dir: an executable file
// that is not one of ours (a shim).
func agentsIn(dir string, ours []os.FileInfo) []string {
	var out []string
	for _, name := range agents.Names() {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 && !isOurs(ours, fi) {
			out = append(out, name)
		}
	}
	return out
}
