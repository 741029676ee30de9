package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// Colour is for people at a terminal only: never in a pipe or a file, and
// never when NO_COLOR is set to anything (no-color.org) or the terminal is
// dumb.

// colourOn reports whether w is a terminal that wants colour.
func colourOn(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false
	}
	return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// statusColour is the SGR sequence a doctor status is shown in: problems
// bold red, notes yellow, the rest green.
func statusColour(status string) string {
	switch status {
	case statusProblem:
		return "\x1b[1;31m"
	case statusNote:
		return "\x1b[33m"
	}
	return "\x1b[32m"
}

// paint wraps s in colour when on is set.
func paint(on bool, colour, s string) string {
	if !on {
		return s
	}
	return colour + s + "\x1b[0m"
}
