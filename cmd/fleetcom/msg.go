package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// All user-facing messages go through here, in one format:
// "fleetcom: error: …", "fleetcom: warning: …", "fleetcom: hint: …".

var stderr io.Writer = os.Stderr

func say(kind, msg string) {
	msg = strings.TrimSuffix(msg, ".")
	fmt.Fprintf(stderr, "fleetcom: %s: %s\n", kind, printable(msg, true))
}

// printable escapes the control characters of s (ESC, CR, BEL, C1 codes,
// bidi overrides…), keeping newlines when lines is set. Messages carry text
// read from files (a directory a tool recorded, a folder name), which must
// never reach the terminal as commands.
func printable(s string, lines bool) string {
	clean := true
	for _, r := range s {
		if needsEscape(r, lines) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if needsEscape(r, lines) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func needsEscape(r rune, lines bool) bool {
	if r == '\n' {
		return !lines
	}
	return unicode.IsControl(r) || r == utf8.RuneError || unicode.Is(unicode.Bidi_Control, r)
}

func errorf(format string, args ...any) { say("error", fmt.Sprintf(format, args...)) }
func warnf(format string, args ...any)  { say("warning", fmt.Sprintf(format, args...)) }
func hintf(format string, args ...any)  { say("hint", fmt.Sprintf(format, args...)) }

// hinter is an error that knows the command that fixes it.
type hinter interface{ Hint() string }

// report prints an error and, when it has one, its hint.
func report(err error) {
	errorf("%v", err)
	var h hinter
	if errors.As(err, &h) && h.Hint() != "" {
		hintf("%s", h.Hint())
	}
}

func warning(err error) { warnf("%v", err) }
