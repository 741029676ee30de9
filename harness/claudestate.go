package harness

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// claudeEvent is the part of a capture line States reads: a SessionStart or
// SessionEnd payload, or one of the fixed lines of the other hooks.
type claudeEvent struct {
	Event   string          `json:"hook_event_name"`
	Type    string          `json:"notification_type"`
	Reason  string          `json:"reason"`
	AgentID json.RawMessage `json:"agent_id"`
}

// States implements Stater over the lines claudeSettings' hooks append.
func (claude) States(data []byte) []StateEvent {
	var out []StateEvent
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		if len(line) == 0 || !bytes.Contains(line, []byte(`"hook_event_name"`)) {
			continue
		}
		var e claudeEvent
		if json.Unmarshal(line, &e) != nil || e.AgentID != nil {
			continue // a sub-agent's own events are not the run's
		}
		if ev, ok := claudeState(e); ok {
			out = append(out, ev)
		}
	}
	return out
}

// claudeState maps one hook event to the state it puts the run in.
func claudeState(e claudeEvent) (StateEvent, bool) {
	switch e.Event {
	case "SessionStart":
		return StateEvent{State: Waiting}, true
	case "UserPromptSubmit", "PostToolUse", "PostToolUseFailure":
		// A tool that ran (or failed) was allowed: any prompt is answered.
		return StateEvent{State: Working}, true
	case "PermissionRequest":
		return StateEvent{State: NeedsYou, Why: "permission request"}, true
	case "Notification":
		switch e.Type {
		case "permission_prompt":
			return StateEvent{State: NeedsYou, Why: "permission request"}, true
		case "elicitation_dialog":
			return StateEvent{State: NeedsYou, Why: "question"}, true
		}
	case "Stop":
		return StateEvent{State: Waiting}, true
	case "SessionEnd":
		return StateEvent{State: Waiting, Ended: true, Why: PrintableWord(e.Reason)}, true
	}
	return StateEvent{}, false
}

// claudeSessionFile is the part of <home>/sessions/<pid>.json View reads.
// Claude Code keeps one per running process (2.1.197 and 2.1.332): status
// "busy" while a turn runs, "idle" at the prompt, "waiting" when a
// permission prompt waits (with waitingFor), and statusUpdatedAt in
// milliseconds.
type claudeSessionFile struct {
	PID       int    `json:"pid"`
	SessionID string `json:"sessionId"`
	Status    string `json:"status"`
	Updated   int64  `json:"statusUpdatedAt"`
}

// View implements Viewer: Claude's own record of process pid.
func (claude) View(home string, pid int) (State, time.Time, bool) {
	if pid <= 0 || home == "" {
		return "", time.Time{}, false
	}
	b, err := safe.ReadFile(filepath.Join(home, "sessions", strconv.Itoa(pid)+".json"), 64<<10, 0)
	if err != nil {
		return "", time.Time{}, false
	}
	return claudeView(b, pid)
}

// claudeView reads one session file of process pid.
func claudeView(b []byte, pid int) (State, time.Time, bool) {
	var f claudeSessionFile
	if json.Unmarshal(b, &f) != nil || f.PID != pid || f.Updated <= 0 {
		return "", time.Time{}, false
	}
	at := time.UnixMilli(f.Updated)
	switch f.Status {
	case "busy":
		return Working, at, true
	case "idle":
		return Waiting, at, true
	case "waiting":
		return NeedsYou, at, true
	}
	return "", time.Time{}, false
}
