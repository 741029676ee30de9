package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// hookEvent is the part of a capture line States reads: a SessionStart or
// SessionEnd payload, or one of the fixed lines of the other hooks.
type hookEvent struct {
	Event   string          `json:"hook_event_name"`
	Type    string          `json:"notification_type"`
	Reason  string          `json:"reason"`
	AgentID json.RawMessage `json:"agent_id"`
}

// States implements Stater over the lines settingsDoc' hooks append.
func (claude) States(data []byte) []harness.StateEvent {
	var out []harness.StateEvent
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(line) == 0 || !bytes.Contains(line, []byte(`"hook_event_name"`)) {
			continue
		}
		var e hookEvent
		if json.Unmarshal(line, &e) != nil || e.AgentID != nil {
			continue // a sub-agent's own events are not the run's
		}
		if ev, ok := stateOf(e); ok {
			out = append(out, ev)
		}
	}
	return out
}

// stateOf maps one hook event to the state it puts the run in.
func stateOf(e hookEvent) (harness.StateEvent, bool) {
	switch e.Event {
	case "SessionStart":
		return harness.StateEvent{State: harness.Waiting}, true
	case "UserPromptSubmit", "PostToolUse", "PostToolUseFailure":
		// A tool that ran (or failed) was allowed: any prompt is answered.
		return harness.StateEvent{State: harness.Working}, true
	case "PermissionRequest":
		return harness.StateEvent{State: harness.NeedsYou, Why: "permission request"}, true
	case "Notification":
		switch e.Type {
		case "permission_prompt":
			return harness.StateEvent{State: harness.NeedsYou, Why: "permission request"}, true
		case "elicitation_dialog":
			return harness.StateEvent{State: harness.NeedsYou, Why: "question"}, true
		}
	case "Stop":
		return harness.StateEvent{State: harness.Waiting}, true
	case "SessionEnd":
		return harness.StateEvent{State: harness.Waiting, Ended: true, Why: harness.PrintableWord(e.Reason)}, true
	}
	return harness.StateEvent{}, false
}

// sessionFile is the part of <home>/sessions/<pid>.json View reads.
// Claude Code keeps one per running process (2.1.197 and 2.1.332): status
// "busy" while a turn runs, "idle" at the prompt, "waiting" when a
// permission prompt waits (with waitingFor), and statusUpdatedAt in
// milliseconds.
type sessionFile struct {
	PID       int    `json:"pid"`
	SessionID string `json:"sessionId"`
	Status    string `json:"status"`
	Updated   int64  `json:"statusUpdatedAt"`
}

// View implements Viewer: Claude's own record of process pid.
func (claude) View(home string, pid int) (harness.State, time.Time, bool) {
	if pid <= 0 || home == "" {
		return "", time.Time{}, false
	}
	b, err := safe.ReadFile(filepath.Join(home, "sessions", strconv.Itoa(pid)+".json"), 64<<10, 0)
	if err != nil {
		return "", time.Time{}, false
	}
	return viewOf(b, pid)
}

// viewOf reads one session file of process pid.
func viewOf(b []byte, pid int) (harness.State, time.Time, bool) {
	var f sessionFile
	if json.Unmarshal(b, &f) != nil || f.PID != pid || f.Updated <= 0 {
		return "", time.Time{}, false
	}
	at := time.UnixMilli(f.Updated)
	switch f.Status {
	case "busy":
		return harness.Working, at, true
	case "idle":
		return harness.Waiting, at, true
	case "waiting":
		return harness.NeedsYou, at, true
	}
	return "", time.Time{}, false
}

// NeedsYouFrom implements harness.NeedsYouTeller.
func (claude) NeedsYouFrom(_ string, hooks harness.HookPolicy) string {
	if hooks == harness.HooksOff {
		return ""
	}
	return "the hooks fleetcom gives each run (PermissionRequest, Notification)"
}
