package harness

import "strings"

// Launch options (opt-in). A conversation started as
// `claude --permission-mode acceptEdits --model opus` should come back with
// the same options, so with `[capture] options = true` an invocation made of
// options and option values only is captured too, and its options are
// replayed after the canonical resume form.
//
// Two rules decide what survives, with no table of option arities:
//   - options that select a conversation or a one-shot run are dropped,
//     per tool (Dropped);
//   - a bare word survives only directly after a kept option, as its value.
//
// The value of a dropped option disappears by the second rule, options this
// code has never heard of survive, and a stale `--resume <id>` can never
// compound. The limits: a prompt written right after a boolean flag reads as
// that flag's value, and an option given several separate values keeps only
// the first.

// Dropped returns the option names that select a conversation or a one-shot
// run for h; they never survive into a resume line.
func Dropped(h Harness) []string {
	switch h.Name() {
	case "claude":
		return []string{"--resume", "-r", "--continue", "-c", "--session-id", "--fork-session", "-p", "--print"}
	case "codex":
		// resume, fork and exec are subcommands: bare words, which the
		// second rule drops with the ID or prompt after them.
		return []string{"--last"}
	case "grok":
		return []string{"--resume", "-r", "--continue", "-c", "--session-id", "-p", "--prompt"}
	}
	return nil
}

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
func OptionsOnly(h Harness, args []string) bool {
	if len(args) == 0 {
		return false
	}
	dropped := Dropped(h)
	takesValue := false
	for _, a := range args {
		switch {
		case a == "--":
			return false
		case isOption(a):
			if contains(dropped, optionName(a)) {
				return false
			}
			takesValue = !strings.Contains(a, "=")
		case takesValue:
			takesValue = false
		default:
			return false
		}
	}
	return true
}

// Surviving returns the options of args that a resume of h replays.
func Surviving(h Harness, args []string) []string {
	dropped := Dropped(h)
	var out []string
	valueNext := false
	for _, a := range args {
		switch {
		case a == "--":
			return out
		case isOption(a):
			if contains(dropped, optionName(a)) {
				valueNext = false
				continue
			}
			out = append(out, a)
			valueNext = !strings.Contains(a, "=")
		case valueNext:
			out = append(out, a)
			valueNext = false
		}
	}
	return out
}

// hasOption reports whether args give one of the named options.
func hasOption(args []string, names ...string) bool {
	for _, a := range args {
		if isOption(a) && contains(names, optionName(a)) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
