package fleet

import (
	"strings"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// Widening returns the options among opts (a launch's options, as a
// record remembers them) that widen what tool's agent may do without
// asking (its Spec.Widening), each with its value when it takes one:
// "--permission-mode bypassPermissions". restore names them before it
// starts a conversation with them again, since it starts several agents at
// once and the user may not be watching each one.
func Widening(tool string, opts []string) []string {
	a, ok := agents.Named(tool)
	if !ok {
		return nil
	}
	var out []string
	for i := 0; i < len(opts); i++ {
		name, value, joined := strings.Cut(opts[i], "=")
		if !strings.HasPrefix(name, "-") {
			continue
		}
		for _, w := range a.Spec.Widening {
			if w.Option != name {
				continue
			}
			if w.Values == nil {
				out = append(out, opts[i])
				break
			}
			shown := opts[i]
			if !joined && i+1 < len(opts) && !strings.HasPrefix(opts[i+1], "-") {
				value, shown = opts[i+1], opts[i]+" "+opts[i+1]
			}
			if matches(w.Values, value) {
				out = append(out, shown)
			}
			break
		}
	}
	return out
}

// matches reports value among values, quotes and spaces aside.
func matches(values []string, value string) bool {
	v := strings.Map(func(r rune) rune {
		if r == '"' || r == '\'' || r == ' ' {
			return -1
		}
		return r
	}, value)
	for _, w := range values {
		if v == w {
			return true
		}
	}
	return false
}
