package main

import (
	"fmt"
	"strings"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// The manual page is made from the same command table as help, usage and
// completion: `fleetcom __man` prints it as roff, and install.sh and
// `fleetcom shims install` put it where man looks.

func cmdMan(in input) error {
	if len(in.args) > 0 {
		return usagef("__man takes no arguments")
	}
	fmt.Fprint(stdout, manPage())
	return nil
}

// manPage renders fleetcom(1).
func manPage() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w(".TH FLEETCOM 1 \"\" \"fleetcom %s\" \"User Commands\"\n", roff(fleetcomVersion()))
	w(".SH NAME\nfleetcom \\- keep %s conversations resumable\n", roff(agentList("and")))
	w(".SH SYNOPSIS\n")
	for _, c := range commandTable() {
		if !c.hidden {
			w(".nf\n%s\n.fi\n", roff(c.usage()))
		}
	}
	w(".SH DESCRIPTION\n")
	w("%s\n", roff(`fleetcom puts small shims named like the agent CLIs first on PATH. A shim
recognises the bare command and the canonical resume line, adds a little
instrumentation, runs the real CLI on a terminal of its own and records the
conversation's ID for the directory it ran in; anything else passes through
untouched. fleetcom resume then prints, or runs, the line that continues a
conversation.`))
	w(".SH COMMANDS\n")
	for _, c := range commandTable() {
		if c.hidden {
			continue
		}
		w(".SS %s\n", roff(c.name))
		w(".nf\n%s\n.fi\n", roff(c.usage()))
		for _, para := range strings.Split(strings.TrimSpace(c.help), "\n\n") {
			if strings.HasPrefix(para, "  ") {
				w(".PP\n.RS\n.nf\n%s\n.fi\n.RE\n", roff(strings.TrimPrefix(para, "  ")))
				continue
			}
			w(".PP\n%s\n", roff(para))
		}
		for _, f := range c.flags {
			left := f.name
			if f.value != "" {
				left += " " + f.value
			}
			w(".TP\n.B %s\n%s\n", roff(left), roff(f.help))
		}
	}
	w(".SH ENVIRONMENT\n")
	env := [][2]string{
		{"FLEETCOM_SHIM_DIR", "the shim directory (default: $XDG_DATA_HOME/fleetcom/shims)"},
		{"FLEETCOM_RUNTIME_DIR", "the private root of the capture namespaces (default: fleetcom under $XDG_RUNTIME_DIR, else under the cache directory)"},
		{"FLEETCOM_FZF", "the fzf the picker runs, or - for the built-in picker"},
		{"XDG_STATE_HOME, XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME, XDG_RUNTIME_DIR", "where the store, config, shims, caches and namespaces live"},
	}
	for _, a := range agents.All() {
		env = append(env, [2]string{a.BinVar(), "the real " + a.Name + " to run, instead of the first one on PATH"},
			[2]string{a.HomeVar, a.HomeHelp()})
	}
	for _, e := range env {
		w(".TP\n.B %s\n%s\n", roff(e[0]), roff(e[1]))
	}
	w(".SH FILES\n")
	for _, f := range [][2]string{
		{"$XDG_STATE_HOME/fleetcom/", "the session store: one record per conversation (private: 0700 folders, 0600 files)"},
		{"$XDG_STATE_HOME/fleetcom/live/", "one live file per running shim, read by status and restore"},
		{"$XDG_CACHE_HOME/fleetcom/index/", "the index of every conversation, read by list, resume, pick, search and completion; rebuilt when lost"},
		{"$XDG_RUNTIME_DIR/fleetcom/", "the runtime root: a run's capture files (FLEETCOM_RUNTIME_DIR overrides it; $XDG_CACHE_HOME/fleetcom without a runtime directory)"},
		{"$XDG_CONFIG_HOME/fleetcom/config.toml", "optional settings: [capture], [notify], [status], [index], [restore], and per agent its bin and hooks"},
	} {
		w(".TP\n.I %s\n%s\n", roff(f[0]), roff(f[1]))
	}
	w(".SH EXIT STATUS\n")
	w("%s\n", roff("0 done; 1 nothing found or a precondition failed (nothing ran); 2 bad usage or invalid input (an ambiguous prefix or name too); 127 no real CLI; 130 a picker cancelled. As a shim, and with --exec, the CLI's own status."))
	w(".SH SEE ALSO\n")
	var see []string
	for _, a := range agents.All() {
		see = append(see, ".BR "+a.Name+" (1)")
	}
	w("%s\n", strings.Join(see, ",\n"))
	return b.String()
}

// roff escapes text for a roff document: backslashes, and a leading dot or
// quote that roff would take for a request.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}
