package main

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/completions"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/store"
)

// The shell scripts in completions/ only present what this hidden command
// prints, so every rule of what to offer lives here, once:
//
//	fleetcom __complete [--] WORD... CURRENT
//
// prints one "value<TAB>description" line per candidate for CURRENT, the
// word being completed (possibly empty), or the single line ":dirs" when
// the shell should complete a directory name itself. It never prints a
// warning: a damaged store just offers fewer IDs.

// dirsDirective asks the shell to complete directory names.
const dirsDirective = ":dirs"

// candidate is one completion: the word and what it means.
type candidate struct{ value, desc string }

// flagInfo is one flag of a command as completion knows it.
type flagInfo struct {
	name string
	desc string
	dir  bool // takes a directory as its value
}

// cmdInfo is what completion knows of a command.
type cmdInfo struct {
	name  string
	desc  string
	flags []flagInfo
	raw   bool // arguments are a command line of their own: no flags
	// args offers the positional argument after pos, given the flags so far.
	args func(flags map[string]string, pos []string, ids idSource) []candidate
}

// idSource lists the saved sessions of a directory, optionally of one tool,
// in the order to offer them; with found, the conversations found in the
// tools' stores that no record knows follow them.
type idSource func(dir, tool string, found bool) []candidate

// completable lists the commands in the order `fleetcom <TAB>` offers them.
// Each flag set mirrors the command's parseFlags spec.
var completable = []cmdInfo{
	{name: "resume", desc: "print the line that resumes a saved conversation",
		flags: []flagInfo{{"-C", "look in this directory", true}, {"--exec", "run the line instead of printing it", false}},
		args:  resumeArgs},
	{name: "list", desc: "list saved conversations, newest first",
		flags: []flagInfo{{"-C", "list this directory", true}, {"--all", "list every directory", false}, {"--json", "print JSON", false}}},
	{name: "forget", desc: "drop the records of conversations", args: forgetArgs},
	{name: "prune", desc: "drop records whose conversation is gone",
		flags: []flagInfo{{"--dry-run", "only show what would be dropped", false}}},
	{name: "run", desc: "run a command string, recorded like a shim run", raw: true, args: runArgs},
	{name: "init", desc: "print shell code for your rc file", args: fixed(shellWords)},
	{name: "completion", desc: "print a shell completion script", args: fixed(shellWords)},
	{name: "shims", desc: "create or remove the shim symlinks",
		flags: []flagInfo{{"--dir", "the shim directory", true}},
		args: fixed(func() []candidate {
			return []candidate{{"install", "create or repair the shims"}, {"remove", "remove the shims"}}
		})},
	{name: "doctor", desc: "check shims, PATH, store and runtime directory",
		flags: []flagInfo{{"--json", "print the checks as JSON", false}}},
	{name: "version", desc: "print fleetcom's version"},
	{name: "help", desc: "show help for a command"}, // args set in init
}

func init() {
	// Set here: in the literal, completable would refer to itself.
	for i := range completable {
		if completable[i].name == "help" {
			completable[i].args = fixed(commandWords)
		}
	}
}

// globalFlags are offered for `fleetcom -<TAB>`.
var globalFlags = []candidate{{"--help", "show help"}, {"--version", "print fleetcom's version"}}

// toolNames describe the tools in completion menus; a tool missing here is
// offered with its bare name.
var toolNames = map[string]string{"claude": "Claude Code", "codex": "Codex", "grok": "Grok"}

func cmdComplete(args []string) (int, error) {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		args = []string{""}
	}
	w := bufio.NewWriter(stdout)
	for _, c := range complete(args, savedIDs) {
		w.WriteString(c.value)
		if c.desc != "" {
			w.WriteByte('\t')
			w.WriteString(c.desc)
		}
		w.WriteByte('\n')
	}
	return 0, w.Flush()
}

// complete returns the candidates for the last of words, the ones before it
// being what the user typed after "fleetcom".
func complete(words []string, ids idSource) []candidate {
	cur, done := words[len(words)-1], words[:len(words)-1]
	if len(done) == 0 {
		if strings.HasPrefix(cur, "-") {
			return filter(globalFlags, cur)
		}
		return filter(commandWords(), cur)
	}
	cmd, ok := lookupCommand(done[0])
	if !ok {
		return nil
	}
	flags := map[string]string{}
	var pos []string
	ended := cmd.raw
	for i := 1; i < len(done); i++ {
		a := done[i]
		switch {
		case ended || !strings.HasPrefix(a, "-") || a == "-":
			pos = append(pos, a)
		case a == "--":
			ended = true
		default:
			name, value, hasValue := strings.Cut(a, "=")
			f, known := cmd.flag(name)
			switch {
			case known && f.dir && !hasValue && i+1 == len(done):
				return []candidate{{value: dirsDirective}}
			case known && f.dir && !hasValue:
				i++
				flags[name] = done[i]
			default:
				flags[name] = value
			}
		}
	}
	if cmd.raw && len(pos) > 0 && pos[0] == "--" {
		pos = pos[1:]
	}
	if !ended && strings.HasPrefix(cur, "-") {
		var out []candidate
		for _, f := range cmd.flags {
			if _, used := flags[f.name]; !used {
				out = append(out, candidate{f.name, f.desc})
			}
		}
		return filter(out, cur)
	}
	if cmd.args == nil {
		return nil
	}
	return filter(cmd.args(flags, pos, ids), cur)
}

func lookupCommand(name string) (cmdInfo, bool) {
	i := slices.IndexFunc(completable, func(c cmdInfo) bool { return c.name == name })
	if i < 0 {
		return cmdInfo{}, false
	}
	return completable[i], true
}

func (c cmdInfo) flag(name string) (flagInfo, bool) {
	i := slices.IndexFunc(c.flags, func(f flagInfo) bool { return f.name == name })
	if i < 0 {
		return flagInfo{}, false
	}
	return c.flags[i], true
}

// filter keeps the candidates that begin with prefix.
func filter(cands []candidate, prefix string) []candidate {
	out := cands[:0:0]
	for _, c := range cands {
		if strings.HasPrefix(c.value, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// fixed offers words at the first position only.
func fixed(words func() []candidate) func(map[string]string, []string, idSource) []candidate {
	return func(_ map[string]string, pos []string, _ idSource) []candidate {
		if len(pos) > 0 {
			return nil
		}
		return words()
	}
}

func commandWords() []candidate {
	out := make([]candidate, len(completable))
	for i, c := range completable {
		out[i] = candidate{c.name, c.desc}
	}
	return out
}

func shellWords() []candidate {
	var out []candidate
	for _, s := range completions.Shells() {
		out = append(out, candidate{value: s})
	}
	return out
}

func toolWords() []candidate {
	var out []candidate
	for _, h := range harness.Tools() {
		name := toolNames[h.Name()]
		if name == "" {
			name = h.Name()
		}
		out = append(out, candidate{h.Name(), name + " sessions"})
	}
	return out
}

// resumeArgs offers the tools and the sessions of the directory, then after
// a tool only that tool's sessions.
func resumeArgs(flags map[string]string, pos []string, ids idSource) []candidate {
	switch {
	case len(pos) == 0:
		return append(toolWords(), ids(flags["-C"], "", true)...)
	case len(pos) == 1:
		if _, ok := harness.ByName(pos[0]); ok {
			return ids(flags["-C"], pos[0], true)
		}
	}
	return nil
}

// forgetArgs offers the current directory's records not named yet.
func forgetArgs(_ map[string]string, pos []string, ids idSource) []candidate {
	var out []candidate
	for _, c := range ids("", "", false) {
		if !slices.Contains(pos, c.value) {
			out = append(out, c)
		}
	}
	return out
}

// runArgs offers the tools as the program word of the command.
func runArgs(_ map[string]string, pos []string, _ idSource) []candidate {
	if len(pos) > 0 {
		return nil
	}
	return toolWords()
}

// savedIDs is the idSource over the session store and, with found, the
// tools' own stores. It reads the directory's index and records and, for
// Codex, brings the rollout index up to date (the only thing it writes); it
// reports nothing.
func savedIDs(dir, tool string, found bool) []candidate {
	if dir == "" {
		dir = "."
	} else if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/') {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, rest)
	}
	var recs []store.Record
	storeDir := resolvePaths().StoreDir
	if _, err := os.Stat(storeDir); err == nil {
		if st, err := store.Open(storeDir, store.Config{ResumeLine: resumeLine}); err == nil {
			recs, _ = st.Dir(dir)
		}
	}
	now := time.Now()
	out := sessionWords(recs, tool, now)
	if phys, err := physical(dir); found && err == nil {
		list, _ := findIn(phys, tool, knownKeys(recs))
		out = append(out, foundWords(list, now)...)
	}
	return out
}

// sessionWords turns a directory's records, newest first, into candidates:
// those that are or may still be resumable keep their order, and the ones
// known to be gone follow, marked.
func sessionWords(recs []store.Record, tool string, now time.Time) []candidate {
	var live, gone []candidate
	for _, r := range recs {
		if tool != "" && r.Tool != tool {
			continue
		}
		dead := !r.Resumable && r.Ended != nil
		desc := r.Tool + ", " + age(now.Sub(r.Updated))
		title := harness.CleanTitle(r.Title)
		if dead {
			title = strings.TrimSpace("(not resumable) " + title)
		}
		if title != "" {
			desc += ", " + title
		}
		c := candidate{r.ID, desc}
		if dead {
			gone = append(gone, c)
		} else {
			live = append(live, c)
		}
	}
	return append(live, gone...)
}
