package copilot

import (
	"bytes"
	"encoding/json"

	"github.com/fleetcom/fleetcom/harness"
)

// Copilot's hooks, given to one run as a plugin: `--plugin-dir DIR` with
// DIR/plugin.json holding them inline (measured on 1.0.102: a plugin.json
// with a "hooks" object is enough; Copilot asks no trust for a plugin's
// hooks, loads them for that run only, and runs them with the run's
// environment, in the plugin's folder). The folder is a stable asset of the
// capture root: Copilot keeps a data folder per plugin path
// (~/.copilot/plugin-data/_direct/<hash>), so one path means one such
// folder, not one per run. Every hook is gated on $FLEETCOM_CAPTURE_FILE: a
// Copilot that loads the plugin outside fleetcom's run does nothing with it.
//
// Measured in the TUI: SessionStart fires at the first prompt (not at
// start-up) with the session's ID, source "new" or "resume", and again at
// the first prompt after /clear with the new session's ID; UserPromptSubmit
// as a prompt is sent; Notification (notification_type permission_prompt)
// as a permission prompt shows; PostToolUse once a tool ran; Stop when the
// turn ends; SessionEnd (reason user_exit, complete) when a session ends,
// /clear included. Hooks of one event run at the same time as another's,
// so each hook writes its one line with one write. Interrupting a turn
// (Esc twice) fires none of them: the state stays working until the next
// event, and the session's log records it ("abort").
//
// SessionStart and SessionEnd write a fixed line with the session's ID
// (and the end's reason) taken out of the payload by the shell, never the
// payload itself, which carries the first prompt, of any size. The others
// write a fixed line naming their event.

// pluginAsset and captureAsset are the plugin's file in a
// folder of its own: the full one, and SessionStart alone for a run whose
// user turned state hooks off ([copilot] hooks = false).
const (
	pluginAsset  = "copilot-plugin/plugin.json"
	captureAsset = "copilot-capture/plugin.json"
)

// hookLine is the part of a capture line States reads.
type hookLine struct {
	Event  string `json:"hook_event_name"`
	Type   string `json:"notification_type"`
	Reason string `json:"reason"`
}

// States implements Stater over the lines the plugin's hooks append.
func (copilot) States(data []byte) []harness.StateEvent {
	var out []harness.StateEvent
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(line) == 0 || !bytes.Contains(line, []byte(`"hook_event_name"`)) {
			continue
		}
		var e hookLine
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		switch e.Event {
		case "SessionStart", "UserPromptSubmit", "PostToolUse":
			// SessionStart comes with the first prompt: a turn begins.
			out = append(out, harness.StateEvent{State: harness.Working})
		case "Notification":
			switch e.Type {
			case "permission_prompt":
				out = append(out, harness.StateEvent{State: harness.NeedsYou, Why: "permission request"})
			case "elicitation_dialog":
				out = append(out, harness.StateEvent{State: harness.NeedsYou, Why: "question"})
			}
		case "Stop":
			out = append(out, harness.StateEvent{State: harness.Waiting})
		case "SessionEnd":
			out = append(out, harness.StateEvent{State: harness.Waiting, Ended: true, Why: harness.PrintableWord(e.Reason)})
		}
	}
	return out
}

// NeedsYouFrom implements harness.NeedsYouTeller.
func (copilot) NeedsYouFrom(_ string, hooks harness.HookPolicy) string {
	if hooks == harness.HooksOff {
		return ""
	}
	return "the hooks fleetcom gives each run (Notification permission_prompt)"
}
