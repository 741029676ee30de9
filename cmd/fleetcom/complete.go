package main

import (
	"bufio"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/completions"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/store"
)

// The shell scripts in completions/ only present what this hidden command
// prints, so every rule of what to offer lives here, once, and reads the
// same command table as parsing and help:
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

// idSource lists the saved sessions of a directory, optionally of one tool,
// in the order to offer them, those which lists (catalog.WithFound: the
// conversations found in the tools' stores that no record knows too). With
// a word begun (prefix), only the sessions whose ID begins with it, then
// the names that do.
type idSource func(dir, tool string, which catalog.Listing, prefix string) []candidate

// completeMax is how many of a directory's conversations completion
// offers, the newest: a shell shows no more usefully, and a directory of
// ten thousand would otherwise cost all of them on every TAB. A word begun
// finds an older one by its ID or name.
const completeMax = 200

// globalFlags are offered for `fleetcom -<TAB>`.
var globalFlags = []candidate{{"--help", "show help"}, {"--version", "print fleetcom's version"}}

func cmdComplete(in input) error {
	args := in.args
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
	return w.Flush()
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
	cmd, ok := lookup(done[0])
	if !ok || cmd.hidden {
		return nil
	}
	in := input{flags: map[string]string{}, cur: cur}
	ended := cmd.raw
	for i := 1; i < len(done); i++ {
		a := done[i]
		switch {
		case ended || !strings.HasPrefix(a, "-") || a == "-":
			in.args = append(in.args, a)
		case a == "--":
			ended = true
		default:
			name, value, hasValue := strings.Cut(a, "=")
			f, known := cmd.flag(name)
			switch {
			case known && f.value != "" && !hasValue && i+1 == len(done):
				if f.dir {
					return []candidate{{value: dirsDirective}}
				}
				return nil
			case known && f.value != "" && !hasValue:
				i++
				in.flags[name] = done[i]
			default:
				in.flags[name] = value
			}
		}
	}
	if cmd.raw && len(in.args) > 0 && in.args[0] == "--" {
		in.args = in.args[1:]
	}
	if !ended && strings.HasPrefix(cur, "-") {
		var out []candidate
		for _, f := range cmd.flags {
			if !in.has(f.name) {
				out = append(out, candidate{f.name, f.help})
			}
		}
		return filter(out, cur)
	}
	if cmd.complete == nil {
		return nil
	}
	return filter(cmd.complete(in, in.args, ids), cur)
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
func fixed(words func() []candidate) func(input, []string, idSource) []candidate {
	return func(_ input, pos []string, _ idSource) []candidate {
		if len(pos) > 0 {
			return nil
		}
		return words()
	}
}

func commandWords() []candidate {
	var out []candidate
	for _, c := range commandTable() {
		if !c.hidden {
			out = append(out, candidate{c.name, c.summary})
		}
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
	for _, a := range agents.All() {
		out = append(out, candidate{a.Name, a.Display + " sessions"})
	}
	return out
}

// completeResume offers the tools and the sessions of the directory, then
// after a tool only that tool's sessions. Names are offered once a word is
// begun: with nothing typed yet they would double the list.
func completeResume(in input, pos []string, ids idSource) []candidate {
	switch {
	case len(pos) == 0:
		return append(toolWords(), ids(in.get("-C"), "", catalog.WithFound, in.cur)...)
	case len(pos) == 1:
		if _, ok := agents.Named(pos[0]); ok {
			return ids(in.get("-C"), pos[0], catalog.WithFound, in.cur)
		}
	}
	return nil
}

// completeForget offers the current directory's records not named yet.
func completeForget(_ input, pos []string, ids idSource) []candidate {
	var out []candidate
	for _, c := range ids("", "", catalog.RecordsOnly, "") {
		if !slices.Contains(pos, c.value) {
			out = append(out, c)
		}
	}
	return out
}

// completeRun offers the tools as the program word of the command.
func completeRun(_ input, pos []string, _ idSource) []candidate {
	if len(pos) > 0 {
		return nil
	}
	return toolWords()
}

// savedIDs is the idSource over the session store and, with WithFound, the
// tools' own stores. It reads the directory's index and records and brings
// discovery's caches up to date (the only thing it writes); it reports
// nothing.
func savedIDs(dir, tool string, which catalog.Listing, prefix string) []candidate {
	if dir == "" {
		dir = "."
	} else if rest, ok := strings.CutPrefix(dir, "~"); ok && (rest == "" || rest[0] == '/') {
		dir = filepath.Join(homeDir(), rest)
	}
	phys, err := physical(dir)
	if err != nil {
		return nil
	}
	// A store that does not exist yet is not created by a completion.
	var st *store.Store
	if storeDir := resolvePaths().StoreDir; fileExists(storeDir) {
		st, _ = store.Open(storeDir, store.Config{Valid: agents.ValidID})
	}
	cat := newCatalog(st)
	// Sized once: grown by appending, the entries of a full answer would
	// be copied eight times into fresh memory.
	entries := make([]catalog.Entry, 0, completeMax)
	_ = cat.EachDir(phys, tool, which, func(e catalog.Entry) bool {
		if strings.HasPrefix(e.ID, prefix) || prefix != "" && strings.HasPrefix(e.Name, prefix) {
			entries = append(entries, e)
		}
		return len(entries) < completeMax
	})
	words := sessionWords(entries, time.Now())
	if prefix != "" {
		words = append(words, nameWords(entries, time.Now())...)
	}
	return words
}

// nameWords offers the names of a directory's resumable conversations, each
// once, described by what it names.
func nameWords(entries []catalog.Entry, now time.Time) []candidate {
	var out []candidate
	seen := map[string]bool{}
	live := liveNow(resolvePaths().LiveDir)
	for _, e := range entries {
		if s := stateIn(live, e); e.Name == "" || seen[e.Name] || (s != "saved" && s != "found") {
			continue
		}
		seen[e.Name] = true
		out = append(out, candidate{e.Name, e.Tool + ", " + age(now.Sub(e.Activity())) + ", " + e.ID[:min(8, len(e.ID))]})
	}
	return out
}

// sessionWords turns a directory's entries, newest first, into candidates:
// those that are or may still be resumable keep their order, and found
// ones follow.
func sessionWords(entries []catalog.Entry, now time.Time) []candidate {
	var live, found []candidate
	// The live files are read once: resolving the paths from the
	// environment for each of 200 entries cost a TAB some 30 page faults.
	runs := liveNow(resolvePaths().LiveDir)
	for _, e := range entries {
		// Each description is one concatenation, not three: a TAB makes
		// 200 of them.
		var sep, title string
		if title = harness.CleanTitle(e.Shown()); title != "" {
			sep = ", "
		}
		switch stateIn(runs, e) {
		case "found":
			if sep != "" {
				sep = ": "
			}
			found = append(found, candidate{e.ID, e.Tool + ", " + age(now.Sub(e.Activity())) + ", found" + sep + title})
		case "saved", "running":
			var running string
			if len(runs) > 0 && runs[e.Tool+"-"+e.ID] {
				running = ", running now"
			}
			live = append(live, candidate{e.ID, e.Tool + ", " + age(now.Sub(e.Activity())) + running + sep + title})
		}
		// Gone and empty conversations are not offered: resuming them
		// would start the CLI on nothing.
	}
	return append(live, found...)
}
