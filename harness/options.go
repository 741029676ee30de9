package harness

import (
	"slices"
	"strings"
)

// Launch options (opt-in). A conversation started as
// `claude --permission-mode acceptEdits --model opus` should come back with
// the same options, so with `[capture] options = true` an invocation made of
// options and option values only is captured too, and its options are
// replayed after the canonical resume form.
//
// Two rules decide what survives, with no table of option arities:
//   - options that select a conversation or a one-shot run are dropped,
//     per agent (Spec.Dropped), and so are those that can make the CLI
//     run a command (Spec.Commands): a line fleetcom prints or runs never
//     carries a command it did not write;
//   - a bare word survives only directly after a kept option, as its value.
//
// The value of a dropped option disappears by the second rule, options this
// code has never heard of survive, and a stale `--resume <id>` can never
// compound. The limits: a prompt written right after a boolean flag reads as
// that flag's value, and an option given several separate values keeps only
// the first.

// isOption reports an option token; "-" alone is a word (stdin) and "--"
// ends the options.
func isOption(a string) bool {
	return len(a) > 1 && a[0] == '-' && a != "--"
}

// optionName is the option's name without an attached "=value".
func optionName(a string) string {
	name, _, _ := strings.Cut(a, "=")
	return name
}

// OptionsOnly reports whether args are options and option values only: no
// subcommand, no prompt, nothing after "--", and every bare word directly
// follows an option that has no attached value. It also requires that none
// of them is a dropped option: those keep the narrow rules.
func OptionsOnly(a Agent, args []string) bool {
	if len(args) == 0 {
		return false
	}
	dropped := a.Dropped
	takesValue := false
	for _, arg := range args {
		switch {
		case arg == "--":
			return false
		case isOption(arg):
			if slices.Contains(dropped, optionName(arg)) {
				return false
			}
			takesValue = !strings.Contains(arg, "=")
		case takesValue:
			takesValue = false
		default:
			return false
		}
	}
	return true
}

// Surviving returns the options of args that a resume of a replays: it
// is applied when options are remembered and again when they are replayed.
func Surviving(a Agent, args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case arg == "--":
			return out
		case !isOption(arg):
			continue // a prompt or a subcommand; a kept option's value is taken below
		}
		name, value, attached := strings.Cut(arg, "=")
		if !attached && i+1 < len(args) && !isOption(args[i+1]) && args[i+1] != "--" {
			value = args[i+1]
		}
		if slices.Contains(a.Dropped, name) || runsCommand(a, name, value) {
			if !attached && i+1 < len(args) && !isOption(args[i+1]) && args[i+1] != "--" {
				i++ // its value goes with it
			}
			continue
		}
		out = append(out, arg)
		if !attached && i+1 < len(args) && !isOption(args[i+1]) && args[i+1] != "--" {
			out = append(out, args[i+1])
			i++
		}
	}
	return out
}

// runsCommand reports an option (with its value) that Spec.Commands names:
// the option alone ("--settings"), or the option with a value whose key
// begins as given ("-c notify": -c notify=[...], -c notify.x=...).
func runsCommand(a Agent, name, value string) bool {
	for _, c := range a.Commands {
		opt, key, keyed := strings.Cut(c, " ")
		if opt != name {
			continue
		}
		if !keyed {
			return true
		}
		k, _, _ := strings.Cut(value, "=")
		k = strings.TrimSpace(k)
		if k == key || strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}

// HasOption reports whether args give one of the named options.
func HasOption(args []string, names ...string) bool {
	for _, a := range args {
		if isOption(a) && slices.Contains(names, optionName(a)) {
			return true
		}
	}
	return false
}
