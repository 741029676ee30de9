package harness

import (
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// The accepted command boundary is deliberately narrow: a bare program word,
// or the program word followed by the tool's resume spelling and one ID as
// the final argument. Everything else (prompts, flags, alternate spellings,
// subcommands, shell syntax) is opaque, so instrumentation can never bind to a
// different command than the one that was recognised.

// DetectArgv classifies a shim's argv. The program word is argv[0] as the
// shim received it; its basename must be the tool's name.
func DetectArgv(a Agent, argv []string) (Form, bool) {
	if len(argv) == 0 || baseName(argv[0]) != a.Name {
		return Form{}, false
	}
	f, ok := a.Detect(argv[1:])
	if !ok {
		return Form{}, false
	}
	f.Program = argv[0]
	return f, true
}

// DetectCommand classifies a command string as `fleetcom run` receives it.
// Words are separated by spaces only. The program word may be a path whose
// last element is the name of an agent (as named finds them) and which
// holds no shell syntax; a resume ID is the final word, bare or in single
// quotes.
func DetectCommand(s string, named func(name string) (Agent, bool)) (Agent, Form, bool) {
	words, ends := splitSpaces(s)
	if len(words) == 0 || !safe.Program(words[0]) {
		return Agent{}, Form{}, false
	}
	a, ok := named(baseName(words[0]))
	if !ok {
		return Agent{}, Form{}, false
	}
	args := words[1:]
	if len(args) > 0 {
		args[len(args)-1] = unquoteID(args[len(args)-1])
	}
	f, ok := a.Detect(args)
	if !ok {
		return Agent{}, Form{}, false
	}
	f.Program = words[0]
	f.end = ends[0]
	return a, f, true
}

// InstrumentCommand inserts an accepted command string's instrumentation
// right after its program word, each argument shell-quoted, leaving the rest
// of the string as it was.
func InstrumentCommand(s string, f Form, in Instrumentation) string {
	if len(in.Args) == 0 || f.end <= 0 || f.end > len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:f.end])
	for _, a := range in.Args {
		b.WriteByte(' ')
		b.WriteString(safe.Quote(a))
	}
	b.WriteString(s[f.end:])
	return b.String()
}

// splitSpaces splits s on runs of ASCII spaces and returns the words with the
// byte offset just past each one.
func splitSpaces(s string) (words []string, ends []int) {
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				words = append(words, s[start:i])
				ends = append(ends, i)
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return words, ends
}

// unquoteID removes one pair of single quotes around the last word, or
// around what follows the '=' of a joined resume spelling (--resume='<id>',
// as the canonical line writes it); anything else is returned unchanged
// (and then fails the grammar if it is not a bare ID). Nothing inside the
// quotes is unescaped: an ID never needs it.
func unquoteID(w string) string {
	if len(w) >= 2 && w[0] == '\'' && w[len(w)-1] == '\'' {
		return w[1 : len(w)-1]
	}
	if i := strings.IndexByte(w, '='); i > 0 && !strings.ContainsRune(w[:i], '\'') {
		if v := w[i+1:]; len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
			return w[:i+1] + v[1:len(v)-1]
		}
	}
	return w
}

// baseName is the last slash-separated element of a program word.
func baseName(w string) string {
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		return w[i+1:]
	}
	return w
}
