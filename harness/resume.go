package harness

import (
	"fmt"
	"strings"
)

// Quote returns s as one POSIX shell word. Words made only of characters no
// shell interprets stay bare; everything else is single-quoted, with each ' in
// it written '\”.
func Quote(s string) string {
	if s != "" && bareWord(s) {
		return s
	}
	return QuoteAlways(s)
}

// QuoteAlways single-quotes s whatever it holds.
func QuoteAlways(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// bareWord reports whether s can be printed unquoted in a shell command.
func bareWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !safeByte(c) && c != '=' && c != ',' && c != ':' && c != '@' && c != '%' {
			return false
		}
	}
	return true
}

// ResumeLine builds the canonical line that resumes id with h: the program
// word as typed, the tool's resume spelling and the single-quoted ID, then
// any remembered options, each quoted. The ID is validated again here, so no
// caller can put an unchecked value on a command line.
func ResumeLine(h Harness, program, id string, options []string) (string, error) {
	if err := CheckID(id); err != nil {
		return "", err
	}
	if program == "" {
		program = h.Name()
	}
	if baseName(program) != h.Name() {
		return "", fmt.Errorf("program %q does not run %s", program, h.Name())
	}
	args, err := h.ResumeArgs(id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if safeProgram(program) {
		b.WriteString(program)
	} else {
		// A program word is quoted whenever it holds anything but path
		// characters: `x=1/claude` would otherwise read as an assignment.
		b.WriteString(QuoteAlways(program))
	}
	for _, a := range args {
		b.WriteByte(' ')
		if a == id {
			b.WriteString(QuoteAlways(a))
		} else {
			b.WriteString(Quote(a))
		}
	}
	for _, o := range options {
		b.WriteByte(' ')
		b.WriteString(Quote(o))
	}
	return b.String(), nil
}

// CdPrefix returns the `cd '<dir>' && ` prefix that moves a shell into dir.
func CdPrefix(dir string) string {
	return "cd " + QuoteAlways(dir) + " && "
}
