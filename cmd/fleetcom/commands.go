package main

import (
	"fmt"
	"runtime"
	"strings"
	"sync"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// commandTable is the command line, in the order help and completion list
// it. Parsing, help and completion all read this one table. It is built on
// first use, not at start-up: a shim run that passes through never needs it.
func commandTable() []command {
	tableOnce.Do(func() { table = buildTable() })
	return table
}

var (
	tableOnce sync.Once
	table     []command
)

// buildTable is a function, not a variable's initial value, because the
// entries refer to handlers that refer to the table.
func buildTable() []command {
	return []command{
		{name: "resume", args: "[TOOL] [ID|PREFIX|NAME]",
			summary: "print the line that resumes a saved conversation",
			help: `Print the line that resumes a saved conversation. Without an ID, the newest
resumable conversation of DIR (default: the current directory), optionally of
one TOOL (` + agentList("or") + `). With an ID or a unique prefix of at least 4
characters, that conversation, whichever directory it belongs to; the line
then starts with "cd '<dir>' && " when that is not the current directory.

A NAME is the name the conversation was given in its tool:
` + namings() + `.
DIR's conversations are searched first, then every directory's records; case
is ignored when no name matches exactly. A name that fits more than one
conversation is an error listing them. The name only chooses the
conversation: the line names its ID. A line is printed only for a
conversation still in its tool's store.

Conversations started outside the shims count too, as found in the tools'
own stores: a prefix matches those of DIR, a full ID is looked up wherever
it belongs, and without an ID the newest one of DIR is the fallback when no
record is resumable. Resuming one adopts it: it is recorded once it is
checked to hold a message, to belong to its directory and not to be open in
another process.

A conversation running now (see fleetcom status) is never started a second
time: resume prints nothing, runs nothing, says where it runs and exits 1.
--switch goes to its tmux pane instead; --force prints or runs the line
anyway.

  eval "$(fleetcom resume)"
`,
			flags: []flag{
				{name: "-C", value: "DIR", dir: true, help: "look in DIR instead of the current directory"},
				{name: "--exec", help: "run the line instead of printing it, in the conversation's own directory, after checking the conversation still exists"},
				{name: "--json", help: "print the line, the directory and the record as JSON"},
				{name: "-i", help: "choose the conversation in a picker (fzf when installed), as fleetcom pick does"},
				{name: "--all", help: "with -i: pick among every directory's recorded conversations"},
				{name: "--force", help: "print or run the line even when the conversation is running now"},
				{name: "--switch", help: "when the conversation is running now in tmux, go to its pane"},
			},
			complete: completeResume, run: cmdResume},
		{name: "pick", args: "[NAME|FILTER]",
			summary: "choose a conversation in a picker and resume it",
			help: `Choose one of DIR's conversations (default: the current directory; --all:
every directory's records) in a picker, newest first, showing tool, age,
title (a conversation's name when it has one) and directory, then print its
line as resume does, or run it with --exec. A NAME or FILTER is typed into
the picker's filter as it opens. The picker is fzf, with a preview of the
conversation's first and last messages, when fzf is installed, else a small
built-in one: type to filter, arrows to move, Enter to choose, Esc to
cancel. As you type, the picker also offers the conversations whose prompts
and replies hold the filter, as 'fleetcom search' finds them (fzf marks them
"· said: …"). It needs a terminal.

Exit status: 0 when a conversation was chosen (with --exec: its CLI's
status); 1 when there is nothing to pick, or nothing matched the filter;
130 when the picker was cancelled (Esc, Ctrl-C); 2 without a terminal.

  eval "$(fleetcom pick)"
`,
			flags: pickFlags, run: cmdPick},
		{name: "search", args: "QUERY...",
			summary: "find conversations by what was said in them",
			help:    searchHelp, flags: searchFlags, run: cmdSearch},
		{name: "status", summary: "show the conversations running now, and which need you",
			help: statusHelp, flags: statusFlags, run: cmdStatus},
		{name: "ps", summary: "the same as status",
			help: statusHelp, flags: statusFlags, run: cmdStatus},
		{name: "restore", args: "[ID|PREFIX|NAME...]", summary: "bring back the conversations a crash, a reboot or a closed terminal cut short",
			help: restoreHelp, flags: restoreFlags, run: cmdRestore},
		{name: "list",
			summary: "list saved conversations, newest first",
			help: `List the conversations of DIR (default: the current directory), newest
first: the saved ones, and the ones found in the tools' own stores that no
record knows (in JSON: "discovered": true, "source": "fs"). A saved one that
is no longer in its tool's store is shown as gone. --all lists every
directory's. A conversation's title is its name when it was given one
(JSON: "name").

Runs quit before their first prompt hold nothing to resume: they are left
out unless --empty is given ('fleetcom prune' drops their records); --json
lists every record. A run that ended unseen (its shim killed, the machine
gone down) before its conversation reached its tool's store is shown as
lost (in JSON: "lost": true), never as running; prune drops it too.

On a terminal: a table with a header, IDs cut to unique prefixes, the
directory as ~/... under your home, and lines cut to its width. Piped: one
tab-separated line per conversation, the same columns with or without
--all: tool, ID, state (saved, found, running, gone, lost, empty), last activity
(RFC 3339), directory, title.
`,
			flags: []flag{
				{name: "-C", value: "DIR", dir: true, help: "list DIR instead of the current directory"},
				{name: "--all", help: "list every directory"},
				{name: "--json", help: "print records as a JSON array"},
				{name: "--empty", help: "also list runs quit before their first prompt"},
			},
			run: cmdList},
		{name: "forget", args: "ID|PREFIX|NAME...",
			summary: "drop the records of conversations",
			help: `Drop the records of the given conversations, named by ID, a unique prefix
or a name as resume takes them, and say which. A forgotten conversation that
is still in its tool's store stays forgotten: it is not found and adopted
again (resuming it by its full ID brings it back). Nothing changes if any
reference matches no conversation, or more than one.
`,
			complete: completeForget, run: cmdForget},
		{name: "prune",
			summary: "drop records whose conversation is gone",
			help: `Drop the records that hold nothing to resume: conversations gone from
their tool's own store, runs quit before their first prompt, and runs lost
before it (their shim killed). A run going on now keeps its record.
`,
			flags: []flag{{name: "--dry-run", help: "only show what would be dropped"}},
			run:   cmdPrune},
		{name: "export", args: "[TOOL] ID|PREFIX|NAME",
			summary: "write one conversation as a bundle, for another machine",
			help: `Write the conversation an ID or prefix names as one self-describing
bundle (its tool, ID, the tool's version, its directory, title and files as
stored) to standard output, or to FILE with -o. It works over a pipe:

  fleetcom export 3f2a | ssh box fleetcom import -C ~/src/proj
`,
			flags: []flag{
				{name: "-o", value: "FILE", help: "write the bundle to FILE instead of standard output"},
				{name: "-C", value: "DIR", dir: true, help: "look for a prefix among DIR's conversations"},
			},
			complete: completeResume, run: cmdExport},
		{name: "import", args: "[FILE|-]",
			summary: "file a bundle's conversation for a directory of this machine",
			help: `Read a bundle (from FILE, or standard input) and file its conversation in
this machine's tool home for DIR (default: the current directory): its files
where the tool looks for them, the fields that name a directory rewritten to
DIR, every other byte as it was; then record it, so 'fleetcom resume' in DIR
continues it. Importing the same bundle again changes nothing; a different
conversation with the same ID is never overwritten, nor is a second copy made
of one this machine holds already; a malformed bundle is refused as soon as
what is wrong is read, and changes nothing at all.
`,
			flags: []flag{{name: "-C", value: "DIR", dir: true, help: "file the conversation for DIR instead of the current directory"}},
			run:   cmdImport},
		{name: "move", args: "[TOOL] ID|PREFIX|NAME DIR",
			summary: "move conversations to another directory, as for a renamed project",
			help: `Move a conversation to DIR on this machine, or with --from OLD --to NEW
every conversation of a project directory that was renamed or moved. A
conversation that a running process has open is not moved: move names the
process. Everything the tool keeps of the conversation goes, whole (renamed
in place, or copied and read back across filesystems), with the fields that
name the directory rewritten; the new copy is checked with the tool's own
rules and recorded, and only then is the old copy removed, of it only what
was copied and has not changed since (--keep keeps it, but then two copies
share one ID, which the tools tell apart only by directory).
`,
			flags: []flag{
				{name: "--from", value: "OLD", dir: true, help: "move every conversation of OLD (which may no longer exist)"},
				{name: "--to", value: "NEW", dir: true, help: "with --from: the directory to move them to"},
				{name: "--keep", help: "keep the old copies"},
			},
			run: cmdMove},
		{name: "run", args: "[--] COMMAND...", raw: true,
			summary: "run a command string, recorded like a shim run",
			help: `Run a command string (the arguments joined by spaces) through $SHELL -c.
An accepted form (` + agentList("or") + `, or their canonical resume lines) is
instrumented and recorded like a shim run; anything else runs verbatim.
`,
			complete: completeRun, run: cmdRun},
		{name: "init", args: "SHELL",
			summary: "print shell code for your rc file",
			help: `Print shell code for your rc file: the shim directory first on PATH, and
again before every prompt (a prompt hook, in case a later startup file or a
version manager put another directory in front), the fr function and
completions. SHELL is one of ` + shellList() + `. For example, in ~/.bashrc:

  eval "$(fleetcom init bash)"
`,
			complete: fixed(shellWords), run: cmdInit},
		{name: "completion", args: "SHELL",
			summary:  "print a shell completion script",
			help:     "Print the completion script for SHELL, one of " + shellList() + ".\n",
			complete: fixed(shellWords), run: cmdCompletion},
		{name: "shims", args: "install|remove",
			summary: "create or remove the shim symlinks",
			help:    "Create or remove the " + agentList("and") + " shims: symlinks to the fleetcom-shim beside fleetcom, else to fleetcom itself.\n",
			flags: []flag{{name: "--dir", value: "DIR", dir: true,
				help: "the shim directory (default: $FLEETCOM_SHIM_DIR or $XDG_DATA_HOME/fleetcom/shims)"}},
			complete: fixed(func() []candidate {
				return []candidate{{"install", "create or repair the shims"}, {"remove", "remove the shims"}}
			}),
			run: cmdShims},
		{name: "index", summary: "bring the index of every conversation up to date, or say what it holds",
			help: indexHelp, flags: indexFlags, run: cmdIndex},
		{name: "doctor",
			summary: "check shims, PATH, store and runtime directory",
			help: `Check the shims, the real CLIs, the store and the runtime directory. Exits 0
only when everything is healthy, and prints a hint for each problem. When
another directory comes before the shims, it names the startup-file line
that put it there. Problems are in colour on a terminal, unless NO_COLOR is
set.
`,
			flags: []flag{{name: "--json", help: "print the checks as JSON"}},
			run:   cmdDoctor},
		{name: "version", summary: "print fleetcom's version",
			flags: []flag{{name: "--json", help: "print the version and the agent versions fleetcom was proven on as JSON"}},
			run:   cmdVersion},
		{name: "help", args: "[COMMAND]", summary: "show help for a command",
			complete: fixed(commandWords), run: cmdHelp},
		{name: "__complete", raw: true, hidden: true, run: cmdComplete},
		{name: "__preview", hidden: true, run: cmdPreview},
		{name: "__picktext", raw: true, hidden: true, run: cmdPickText},
		{name: "__man", hidden: true, run: cmdMan},
		{name: "__paths", hidden: true, run: cmdPaths},
		{name: "__ahead", hidden: true, run: cmdAhead},
		{name: "__sweep", hidden: true, run: cmdSweep},
		{name: "__reopen", hidden: true, run: cmdReopen},
	}
}

// agentList names the agents, joined like "a, b and c".
// namings is how each agent's users name a conversation, for the help: one
// indented line each.
func namings() string {
	var out []string
	for _, a := range agents.All() {
		if a.Naming != "" {
			out = append(out, "  "+a.Naming)
		}
	}
	return strings.Join(out, ",\n")
}

func agentList(conj string) string {
	names := agents.Names()
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

func cmdVersion(in input) error {
	if len(in.args) > 0 {
		return usagef("version takes no arguments")
	}
	if !in.has("--json") {
		fmt.Fprintf(stdout, "fleetcom %s\n", fleetcomVersion())
		return nil
	}
	type agent struct {
		Name   string   `json:"name"`
		Proven []string `json:"proven"`
	}
	v := struct {
		Version string  `json:"version"`
		Go      string  `json:"go"`
		Agents  []agent `json:"agents"`
	}{Version: fleetcomVersion(), Go: runtime.Version()}
	for _, a := range agents.All() {
		v.Agents = append(v.Agents, agent{a.Name, a.Proven})
	}
	return writeJSON(v)
}

func cmdHelp(in input) error {
	switch len(in.args) {
	case 0:
		fmt.Fprint(stdout, usageText())
	case 1:
		c, ok := lookup(in.args[0])
		if !ok || c.hidden {
			err := usageError{msg: fmt.Sprintf("no help for %q: not a command", in.args[0])}
			if s := suggest(in.args[0], shownCommands()); s != "" {
				err.hint = fmt.Sprintf("did you mean 'fleetcom help %s'?", s)
			}
			return err
		}
		fmt.Fprint(stdout, c.helpText())
	default:
		return usagef("help takes at most one command")
	}
	return nil
}
