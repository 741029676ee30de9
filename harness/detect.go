package harness

import "strings"

// The accepted command boundary is deliberately narrow: a bare program word,
// or the program word followed by the tool's resume spelling and one ID as
// the final argument. Everything else (prompts, flags, alternate spellings,
// subcommands, shell syntax) is opaque, so instrumentation can never bind to a
// different command than the one that was recognised.

// detectArgs is the argv form shared by every harness: args are what follows
// the program word, already unquoted by the caller's shell.
func detectArgs(tool, resumeWord string, args []string) (Form, bool) {
	switch {
	case len(args) == 0:
		return Form{Tool: tool}, true
	case len(args) == 2 && args[0] == resumeWord && ValidID(args[1]):
		return Form{Tool: tool, Resume: args[1]}, true
	}
	return Form{}, false
}

// DetectArgv classifies a shim's argv. The program word is argv[0] as the
// shim received it; its basename must be the tool's name.
func DetectArgv(h Harness, argv []string) (Form, bool) {
	if len(argv) == 0 || baseName(argv[0]) != h.Name() {
		return Form{}, false
	}
	f, ok := h.Detect(argv[1:])
	if !ok {
		return Form{}, false
	}
	f.Program = argv[0]
	return f, true
}

// DetectCommand classifies a command string as `fleetcom run` receives it.
// Words are separated by spaces only. The program word may be a path whose
// last element is a tool's name and which holds no shell syntax; a resume ID
// is the final word, bare or in single quotes.
func DetectCommand(s string) (Harness, Form, bool) {
	words, ends := splitSpaces(s)
	if len(words) == 0 || !safeProgram(words[0]) {
		return nil, Form{}, false
	}
	h, ok := ByName(baseName(words[0]))
	if !ok {
		return nil, Form{}, false
	}
	args := words[1:]
	if len(args) == 2 {
		args = []string{args[0], unquoteID(args[1])}
	}
	f, ok := h.Detect(args)
	if !ok {
		return nil, Form{}, false
	}
	f.Program = words[0]
	f.end = ends[0]
	return h, f, true
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
		b.WriteString(Quote(a))
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

// unquoteID removes one pair of single quotes around an ID; anything else is
// returned unchanged (and then fails validation if it is not a bare ID).
func unquoteID(w string) string {
	if len(w) == idLen+2 && w[0] == '\'' && w[len(w)-1] == '\'' {
		return w[1 : len(w)-1]
	}
	return w
}

// safeProgram reports whether a program word holds nothing a shell would
// interpret: letters, digits and / . _ + - only, and no trailing slash.
func safeProgram(w string) bool {
	if w == "" || w[len(w)-1] == '/' {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !safeByte(w[i]) {
			return false
		}
	}
	return true
}

func safeByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case c == '/', c == '.', c == '_', c == '+', c == '-':
		return true
	}
	return false
}

// baseName is the last slash-separated element of a program word.
func baseName(w string) string {
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		return w[i+1:]
	}
	return w
}
