package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// All user-facing messages go through here, in one format:
// "fleetcom: error: …", "fleetcom: warning: …", "fleetcom: hint: …".

var stderr io.Writer = os.Stderr

func say(kind, msg string) {
	msg = strings.TrimSuffix(msg, ".")
	fmt.Fprintf(stderr, "fleetcom: %s: %s\n", kind, msg)
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
