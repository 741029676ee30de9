package harness

import (
	"fmt"
	"strings"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// ResumeLine builds the canonical line that resumes id with agent a: the
// program word as typed, the agent's resume spelling with the quoted ID,
// then any remembered options that may be replayed (Surviving), each
// quoted. The ID and the program word are
// checked again here, so no caller can put an unchecked value on a command
// line, and every word is quoted for bash, zsh, dash and fish alike.
func ResumeLine(a Agent, program, id string, options []string) (string, error) {
	args, err := a.ResumeArgs(id)
	if err != nil {
		return "", err
	}
	if program == "" {
		program = a.Name
	}
	if baseName(program) != a.Name {
		return "", fmt.Errorf("program %q does not run %s", program, a.Name)
	}
	var b strings.Builder
	if safe.Program(program) {
		b.WriteString(program)
	} else {
		// A program word is quoted whenever it holds anything but path
		// characters: `x=1/claude` would otherwise read as an assignment.
		b.WriteString(safe.QuoteAlways(program))
	}
	for i, arg := range args {
		b.WriteByte(' ')
		if i == len(args)-1 {
			// The word holding the ID is always quoted, as the canonical
			// lines are written: claude --resume '<uuid>'.
			b.WriteString(quoteIDWord(arg, id))
		} else {
			b.WriteString(safe.Quote(arg))
		}
	}
	for _, o := range Surviving(a, options) {
		b.WriteByte(' ')
		b.WriteString(safe.Quote(o))
	}
	return b.String(), nil
}

// quoteIDWord quotes the last resume word: the ID alone ('<id>'), or a
// joined spelling with the ID quoted after its '=' (--resume='<id>').
func quoteIDWord(word, id string) string {
	if word == id {
		return safe.QuoteAlways(id)
	}
	prefix := strings.TrimSuffix(word, id)
	return safe.Quote(prefix) + safe.QuoteAlways(id)
}

// CdPrefix returns the `cd '<dir>' && ` prefix that moves a shell into dir,
// quoted for every shell fleetcom supports.
func CdPrefix(dir string) string {
	return "cd " + safe.QuoteAlways(dir) + " && "
}
