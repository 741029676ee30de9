package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

var stdout io.Writer = os.Stdout

// usageError is bad usage or invalid input: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// notFound is "nothing found" or a failed precondition: exit status 1.
type notFound struct {
	msg  string
	hint string
}

func (e notFound) Error() string { return e.msg }
func (e notFound) Hint() string  { return e.hint }

// commands maps each subcommand to its handler; help texts live in help.go.
var commands = map[string]func(args []string) (int, error){
	"resume":     cmdResume,
	"list":       cmdList,
	"forget":     cmdForget,
	"prune":      cmdPrune,
	"run":        cmdRun,
	"init":       cmdInit,
	"completion": cmdCompletion,
	"shims":      cmdShims,
	"doctor":     cmdDoctor,
	"version":    cmdVersion,
	"help":       cmdHelp,
	"__complete": cmdComplete,
}

// command runs the fleetcom command line and returns the exit status.
func command(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usageText)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "--help":
		name = "help"
	case "-v", "--version":
		name = "version"
	}
	handler, ok := commands[name]
	if !ok {
		errorf("unknown command %q", name)
		hintf("run 'fleetcom help' for the list of commands")
		return 2
	}
	if wantsHelp(args[1:]) && name != "run" && name != "help" && name != "__complete" {
		fmt.Fprint(stdout, helpFor(name))
		return 0
	}
	code, err := handler(args[1:])
	if err != nil {
		report(err)
		switch err.(type) {
		case usageError:
			return 2
		case notFound:
			return 1
		}
		if code == 0 {
			code = 1
		}
	}
	return code
}

// wantsHelp reports a -h or --help among the arguments.
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "--help" {
			return true
		}
	}
	return false
}

// flagSpec describes a command's flags: the value is true for flags that
// take an argument.
type flagSpec map[string]bool

// parseFlags separates flags from positional arguments, which may be
// interleaved. "-C DIR", "-C=DIR" and "--flag" forms are accepted; "--"
// ends the flags.
func parseFlags(args []string, spec flagSpec) (map[string]string, []string, error) {
	flags := map[string]string{}
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(pos, args[i+1:]...), nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		takes, known := spec[name]
		if !known {
			return nil, nil, usagef("unknown flag %s", name)
		}
		switch {
		case takes && hasValue:
			flags[name] = value
		case takes:
			if i+1 >= len(args) {
				return nil, nil, usagef("flag %s needs a value", name)
			}
			i++
			flags[name] = args[i]
		case hasValue:
			return nil, nil, usagef("flag %s takes no value", name)
		default:
			flags[name] = "true"
		}
	}
	return flags, pos, nil
}

func cmdVersion(args []string) (int, error) {
	if len(args) > 0 {
		return 2, usagef("version takes no arguments")
	}
	fmt.Fprintf(stdout, "fleetcom %s\n", version)
	return 0, nil
}
