package fleet

import "strings"

// Launch options that widen what an agent may do without asking: restore
// names them before it starts a conversation with them again, since a
// restore starts several agents at once and the user may not be watching
// each one. Read from each CLI's --help at the versions fleetcom is proven
// on, older spellings kept.
//
// This is agent knowledge, and belongs with each agent's description in
// harness; it is here, in this one table, until that description has room
// for it. Nothing else reads it.
var widening = map[string][]widener{
	"claude": {
		{name: "--dangerously-skip-permissions"},
		{name: "--allow-dangerously-skip-permissions"},
		{name: "--permission-mode", values: []string{"bypassPermissions", "acceptEdits", "auto"}},
		{name: "--allowedTools"}, {name: "--allowed-tools"},
	},
	"codex": {
		{name: "--dangerously-bypass-approvals-and-sandbox"}, {name: "--yolo"},
		{name: "--full-auto"},
		{name: "--dangerously-bypass-hook-trust"},
		{name: "--sandbox", values: []string{"danger-full-access"}},
		{name: "-s", values: []string{"danger-full-access"}},
		{name: "--ask-for-approval", values: []string{"never"}},
		{name: "-a", values: []string{"never"}},
		{name: "--config", values: []string{"approval_policy=never", "sandbox_mode=danger-full-access"}},
		{name: "-c", values: []string{"approval_policy=never", "sandbox_mode=danger-full-access"}},
	},
	"gemini": {
		{name: "--yolo"}, {name: "-y"},
		{name: "--approval-mode", values: []string{"yolo", "auto_edit"}},
		{name: "--allowed-tools"},
		{name: "--skip-trust"},
	},
	"copilot": {
		{name: "--allow-all"}, {name: "--yolo"},
		{name: "--allow-all-tools"}, {name: "--allow-all-paths"}, {name: "--allow-all-urls"},
		{name: "--allow-tool"}, {name: "--allow-url"},
	},
	"grok": {
		{name: "--always-approve"},
		{name: "--permission-mode", values: []string{"bypassPermissions", "acceptEdits", "auto"}},
		{name: "--allow"}, {name: "--allowedTools"},
	},
	"opencode": {
		{name: "--auto"},
	},
}

// widener is one option that widens permissions: by itself, or with one of
// values (compared without quotes or spaces).
type widener struct {
	name   string
	values []string
}

// Widening returns the options among opts (a launch's options, as a
// record remembers them) that widen what tool's agent may do without
// asking, each with its value when it takes one: "--permission-mode
// bypassPermissions".
func Widening(tool string, opts []string) []string {
	var out []string
	for i := 0; i < len(opts); i++ {
		name, value, joined := strings.Cut(opts[i], "=")
		if !strings.HasPrefix(name, "-") {
			continue
		}
		for _, w := range widening[tool] {
			if w.name != name {
				continue
			}
			if w.values == nil {
				out = append(out, opts[i])
				break
			}
			shown := opts[i]
			if !joined && i+1 < len(opts) && !strings.HasPrefix(opts[i+1], "-") {
				value, shown = opts[i+1], opts[i]+" "+opts[i+1]
			}
			if matches(w.values, value) {
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
