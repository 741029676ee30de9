package opencode

import (
	"bytes"
	"encoding/json"

	"github.com/fleetcom/fleetcom/harness"
)

// opencode runs no shell hooks; it runs JavaScript plugins, and loads the
// ones OPENCODE_CONFIG_CONTENT names beside the user's own (measured on
// 1.18.33: both run, each getting every event). fleetcom's plugin is an
// asset of the run's capture namespace. It appends one short line to
// $FLEETCOM_CAPTURE_FILE for each event fleetcom reads, and does nothing
// without the variable (a later `opencode -s <id>` run by hand gets no
// plugin anyway: the variable is the run's alone). The capture file must
// be a regular file and not a symlink, opened without blocking, so a
// swapped-in FIFO never holds opencode up; nothing it does may throw into
// opencode.
//
// Measured on 1.18.33, in the TUI: no event before the first prompt (the
// session is created then); session.created {sessionID, info:{id,
// parentID, directory, …}} at the first prompt and at the first prompt
// after /new (a sub-agent's session carries parentID); session.status
// {sessionID, status:{type: busy|idle|retry}} through a turn, then
// session.idle; permission.asked and question.asked as a dialog waits for
// the user, permission.replied, question.replied and question.rejected
// once it is answered. A resumed session (-s) gets no session.created.
// Nothing fires at exit.
const plugin = `// fleetcom's plugin for one opencode run: copies the events fleetcom reads
// into the run's capture file. It does nothing outside a fleetcom run.
import { closeSync, constants, fstatSync, openSync, writeSync } from "node:fs";

const flags = constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW || 0) | (constants.O_NONBLOCK || 0);

function note(line) {
  const file = process.env.FLEETCOM_CAPTURE_FILE;
  if (!file) return;
  let fd = -1;
  try {
    fd = openSync(file, flags);
    if (fstatSync(fd).isFile()) writeSync(fd, JSON.stringify(line) + "\n");
  } catch {
    // fleetcom's bookkeeping never gets in opencode's way
  } finally {
    if (fd >= 0) {
      try { closeSync(fd); } catch {}
    }
  }
}

export const FleetcomCapture = async () => ({
  event: async ({ event }) => {
    try {
      const p = (event && event.properties) || {};
      switch (event && event.type) {
        case "session.created": {
          const info = p.info || {};
          note({ event: "session.created", id: String(info.id || p.sessionID || ""), parent: String(info.parentID || ""), directory: String(info.directory || "") });
          break;
        }
        case "session.status":
          note({ event: "session.status", id: String(p.sessionID || ""), status: String((p.status && p.status.type) || "") });
          break;
        case "permission.asked":
        case "permission.replied":
        case "question.asked":
        case "question.replied":
        case "question.rejected":
          note({ event: event.type, id: String(p.sessionID || "") });
          break;
      }
    } catch {}
  },
});
`

// pluginAsset is the plugin's file name in a capture namespace.
const pluginAsset = "opencode-capture.js"

// pluginLine is one line the plugin writes.
type pluginLine struct {
	Event     string `json:"event"`
	ID        string `json:"id"`
	Parent    string `json:"parent"`
	Directory string `json:"directory"`
	Status    string `json:"status"`
}

// pluginLines reads the plugin's lines, and the sessions created in the
// run that are a sub-agent's (their parent is set).
func pluginLines(data []byte) (lines []pluginLine, children map[string]bool) {
	children = map[string]bool{}
	for _, raw := range bytes.Split(data, []byte{'\n'}) {
		if len(raw) == 0 || !bytes.Contains(raw, []byte(`"event"`)) {
			continue
		}
		var l pluginLine
		if json.Unmarshal(raw, &l) != nil || !spec.ID.Valid(l.ID) {
			continue
		}
		if l.Event == "session.created" && l.Parent != "" {
			children[l.ID] = true
		}
		lines = append(lines, l)
	}
	return lines, children
}

// ParseCapture implements Capturer: the session the run created last that
// is not a sub-agent's. A resumed run creates none until /new: its pinned
// ID stands.
func (opencode) ParseCapture(data []byte, _ harness.Capture) string {
	lines, _ := pluginLines(data)
	for i := len(lines) - 1; i >= 0; i-- {
		if l := lines[i]; l.Event == "session.created" && l.Parent == "" {
			return l.ID
		}
	}
	return ""
}

// States implements Stater over the plugin's lines. A sub-agent's session
// is busy and idle inside its parent's turn, which is what the run is
// doing; but a permission or a question it asks waits for the user like
// any other.
func (opencode) States(data []byte) []harness.StateEvent {
	lines, children := pluginLines(data)
	var out []harness.StateEvent
	for _, l := range lines {
		switch l.Event {
		case "session.status":
			if children[l.ID] {
				continue
			}
			switch l.Status {
			case "busy", "retry":
				out = append(out, harness.StateEvent{State: harness.Working})
			case "idle":
				out = append(out, harness.StateEvent{State: harness.Waiting})
			}
		case "permission.asked":
			out = append(out, harness.StateEvent{State: harness.NeedsYou, Why: "permission request"})
		case "question.asked":
			out = append(out, harness.StateEvent{State: harness.NeedsYou, Why: "question"})
		case "permission.replied", "question.replied", "question.rejected":
			out = append(out, harness.StateEvent{State: harness.Working})
		}
	}
	return out
}

// NeedsYouFrom implements harness.NeedsYouTeller.
func (opencode) NeedsYouFrom(string, harness.HookPolicy) string {
	return "the plugin fleetcom gives each run (permission.asked, question.asked)"
}
