package codex

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
)

// Codex's hooks (stable in 0.171.0), given to one run as `-c hooks.<Event>=…`
// overrides: a config layer of their own ("session flags"), nothing written
// to the user's files. Measured on 0.171.0 (e2e/README.md, "Live state"):
//
//   - Codex runs a hook only once the user has trusted its exact definition.
//     A new one makes the TUI open "Hooks need review" before anything else;
//     trusting it records `[hooks.state."/<session-flags>/config.toml:
//     <event>:0:0"] trusted_hash = "sha256:…"` in the user's config.toml
//     (Codex writes it), and later runs with the same definition ask
//     nothing. Trust given with `-c hooks.state…` is ignored, and
//     --dangerously-bypass-hook-trust would run every untrusted hook, the
//     user's own included. So fleetcom gives Codex its hooks only once they
//     are trusted, unless the user asks for them ([codex] hooks = true), and
//     the definitions never change from run to run.
//   - SessionStart fires at the first prompt, not when the TUI starts, with
//     the thread's ID: the run's ID is then known before its first turn
//     ends. UserPromptSubmit, PermissionRequest (as the approval prompt
//     shows), PostToolUse, Stop and Interrupt (Esc, or a refused approval)
//     follow the turn; SessionEnd fires at /quit.
//
// The commands are the ones Claude's hooks use (claudehooks.go).

// hookEvents are the hooks a run gets, in the order they are given,
// each with the key Codex records its trust under.
var hookEvents = []struct{ name, key string }{
	{"SessionStart", "session_start"},
	{"UserPromptSubmit", "user_prompt_submit"},
	{"PermissionRequest", "permission_request"},
	{"PostToolUse", "post_tool_use"},
	{"Stop", "stop"},
	{"Interrupt", "interrupt"},
	{"SessionEnd", "session_end"},
}

// hookLayer names the session-flags layer in Codex's trust keys.
const hookLayer = "/<session-flags>/config.toml:"

// The two hook commands: one appends its payload as one line (the IDs and
// end reasons are in it), the other a fixed line naming its event.
const (
	hookPayloadCommand = `f=${FLEETCOM_CAPTURE_FILE:-}; if [ -n "$f" ] && [ -f "$f" ] && [ ! -h "$f" ]; then { tr -d '\r\n'; echo; } >>"$f"; else cat >/dev/null; fi; exit 0`
	hookEventPrefix    = `f=${FLEETCOM_CAPTURE_FILE:-}; cat >/dev/null; if [ -n "$f" ] && [ -f "$f" ] && [ ! -h "$f" ]; then echo '{"hook_event_name":"`
	hookEventSuffix    = `"}' >>"$f"; fi; exit 0`
)

// hookArgs are the -c overrides that give a run fleetcom's hooks.
func hookArgs() []string {
	args := make([]string, 0, 2*len(hookEvents))
	for _, e := range hookEvents {
		cmd := hookEventPrefix + e.name + hookEventSuffix
		if e.name == "SessionStart" || e.name == "SessionEnd" {
			cmd = hookPayloadCommand
		}
		args = append(args, "-c", "hooks."+e.name+`=[{hooks=[{type="command",command=`+tomlString(cmd)+`}]}]`)
	}
	return args
}

// hooksTrusted reports whether config.toml (data, decoded as doc)
// records the user's trust in every one of fleetcom's hooks, none of them
// disabled.
func hooksTrusted(data []byte, doc map[string]any) bool {
	if doc == nil || !bytes.Contains(data, []byte("<session-flags>")) {
		return false
	}
	state, ok := notifyLookup(doc, "hooks", "state").(map[string]any)
	if !ok {
		return false
	}
	for _, e := range hookEvents {
		entry, ok := state[hookLayer+e.key+":0:0"].(map[string]any)
		if !ok {
			return false
		}
		if h, ok := entry["trusted_hash"].(string); !ok || !strings.HasPrefix(h, "sha256:") {
			return false
		}
		if enabled, ok := entry["enabled"].(bool); ok && !enabled {
			return false
		}
	}
	return true
}

// hookEvent is the part of a capture line States and ParseCapture read.
type hookEvent struct {
	Event     string `json:"hook_event_name"`
	SessionID string `json:"session_id"`
	Reason    string `json:"reason"`
}

// States implements Stater over the lines hookArgs' hooks append;
// notify payloads (another shape) are not state events: they come for
// side threads too.
func (codex) States(data []byte) []harness.StateEvent {
	var out []harness.StateEvent
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(line) == 0 || !bytes.Contains(line, []byte(`"hook_event_name"`)) {
			continue
		}
		var e hookEvent
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		switch e.Event {
		case "UserPromptSubmit", "PostToolUse":
			out = append(out, harness.StateEvent{State: harness.Working})
		case "PermissionRequest":
			out = append(out, harness.StateEvent{State: harness.NeedsYou, Why: "approval request"})
		case "Stop", "Interrupt":
			out = append(out, harness.StateEvent{State: harness.Waiting})
		case "SessionEnd":
			out = append(out, harness.StateEvent{State: harness.Waiting, Ended: true, Why: harness.PrintableWord(e.Reason)})
		}
	}
	return out
}
