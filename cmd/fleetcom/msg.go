package main

import (
	"fmt"
	"io"
	"os"

	"github.com/fleetcom/fleetcom/internal/msg"
)

// All user-facing messages go through package msg, in one format:
// "fleetcom: error: …", "fleetcom: warning: …", "fleetcom: hint: …".

var stderr io.Writer = os.Stderr

func say(kind, text string) { msg.Say(stderr, kind, text) }

// printable escapes the control characters of s, newlines too: a value
// shown on one line (msg.Printable).
func printable(s string) string { return msg.Printable(s, false) }

// printableLines is printable keeping newlines: text of several lines.
func printableLines(s string) string { return msg.Printable(s, true) }

func errorf(format string, args ...any) { say("error", fmt.Sprintf(format, args...)) }
func warnf(format string, args ...any)  { say("warning", fmt.Sprintf(format, args...)) }
func hintf(format string, args ...any)  { say("hint", fmt.Sprintf(format, args...)) }

// report prints an error and, when it has one, its hint.
func report(err error) { msg.Report(stderr, err) }

func warning(err error) { warnf("%v", err) }
