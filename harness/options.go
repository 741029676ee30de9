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
//     per agent (Spec.Dropped);
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

// Surviving returns the options of args that a resume of a replays.
func Surviving(a Agent, args []string) []string {
	dropped := a.Dropped
	var out []string
	valueNext := false
	for _, arg := range args {
		switch {
		case arg == "--":
			return out
		case isOption(arg):
			if slices.Contains(dropped, optionName(arg)) {
				valueNext = false
				continue
			}
			out = append(out, arg)
			valueNext = !strings.Contains(arg, "=")
		case valueNext:
			out = append(out, arg)
			valueNext = false
		}
	}
	return out
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
