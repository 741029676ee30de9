package main

import "fmt"

const usageText = `fleetcom keeps claude, codex and grok conversations resumable.

Usage:
  fleetcom resume [TOOL] [ID|PREFIX] [-C DIR] [--exec]
  fleetcom list [-C DIR] [--all] [--json]
  fleetcom forget ID...
  fleetcom prune [--dry-run]
  fleetcom run [--] COMMAND...
  fleetcom init bash|zsh|fish
  fleetcom completion bash|zsh|fish
  fleetcom shims install|remove [--dir DIR]
  fleetcom doctor [--json]
  fleetcom version
  fleetcom help [COMMAND]

Run 'fleetcom help COMMAND' for details.
`

var helps = map[string]string{
	"resume": `Usage: fleetcom resume [TOOL] [ID|PREFIX] [-C DIR] [--exec]

Print the line that resumes a saved conversation. Without an ID, the newest
resumable conversation of DIR (default: the current directory), optionally of
one TOOL (claude, codex, grok). With an ID or a unique prefix of at least 4
characters, that conversation, whichever directory it belongs to; the line
then starts with "cd '<dir>' && " when that is not the current directory.

Conversations started outside the shims count too, as found in the tools'
own stores: a prefix matches those of DIR, a full ID is looked up wherever
it belongs, and without an ID the newest one of DIR is the fallback when no
record is resumable. Resuming one adopts it: it is recorded once it is
checked to hold a message, to belong to its directory and not to be open in
another process.

  eval "$(fleetcom resume)"

  -C DIR   look in DIR instead of the current directory
  --exec   run the line instead of printing it, in the conversation's own
           directory, after checking the conversation still exists
`,
	"list": `Usage: fleetcom list [-C DIR] [--all] [--json]

List saved conversations of DIR (default: the current directory), newest
first, then the ones found in the tools' own stores that no record knows,
marked "(found)" (in JSON: "discovered": true, "source": "fs"). --all lists
records only.

  -C DIR   list DIR instead of the current directory
  --all    list every directory
  --json   print records as a JSON array
`,
	"forget": `Usage: fleetcom forget ID...

Drop the records of the given conversations. Nothing changes if any ID is
unknown.
`,
	"prune": `Usage: fleetcom prune [--dry-run]

Drop records whose conversation is gone from the tool's own store.

  --dry-run  only show what would be dropped
`,
	"run": `Usage: fleetcom run [--] COMMAND...

Run a command string (the arguments joined by spaces) through $SHELL -c.
An accepted form (claude, codex, grok, or their canonical resume lines) is
instrumented and recorded like a shim run; anything else runs verbatim.
`,
	"init": `Usage: fleetcom init bash|zsh|fish

Print shell code for your rc file: the shim directory first on PATH and
completions. For example, in ~/.bashrc:

  eval "$(fleetcom init bash)"
`,
	"completion": `Usage: fleetcom completion bash|zsh|fish

Print the completion script for a shell.
`,
	"shims": `Usage: fleetcom shims install|remove [--dir DIR]

Create or remove the claude, codex and grok shims (symlinks to fleetcom).

  --dir DIR  the shim directory (default: $FLEETCOM_SHIM_DIR or
             $XDG_DATA_HOME/fleetcom/shims)
`,
	"doctor": `Usage: fleetcom doctor [--json]

Check the shims, the real CLIs, the store and the runtime directory. Exits 0
only when everything is healthy, and prints a hint for each problem.

  --json   print the checks as JSON
`,
	"version": "Usage: fleetcom version\n",
	"help":    "Usage: fleetcom help [COMMAND]\n",
}

// helpFor returns a command's help text.
func helpFor(name string) string {
	if h, ok := helps[name]; ok {
		return h
	}
	return usageText
}

func cmdHelp(args []string) (int, error) {
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, usageText)
	case 1:
		if _, ok := helps[args[0]]; !ok {
			return 2, usagef("no help for %q: not a command", args[0])
		}
		fmt.Fprint(stdout, helpFor(args[0]))
	default:
		return 2, usagef("help takes at most one command")
	}
	return 0, nil
}
