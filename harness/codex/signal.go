package codex

import (
	"bytes"

	"github.com/fleetcom/fleetcom/harness"
)

// Codex tells its terminal what it is doing, whatever its configuration:
// at each change it writes OSC 7501 with colon-separated fields, measured
// with 0.171.0:
//
//	ESC ] 7501;state=working:app=codex ESC \     a turn runs
//	ESC ] 7501;state=blocked:app=codex:kind=permission ESC \     an approval prompt waits
//	ESC ] 7501;state=done:app=codex ESC \     the turn ended
//
// It needs none of fleetcom's hooks, so it decides needs-you where the user
// has not trusted them.
var oscState = []byte("7501;")

// Signal implements harness.Signaller.
func (codex) Signal(osc []byte) (harness.State, string, bool) {
	rest, ok := bytes.CutPrefix(osc, oscState)
	if !ok {
		return "", "", false
	}
	var state, app, kind []byte
	for len(rest) > 0 {
		var field []byte
		field, rest, _ = bytes.Cut(rest, []byte{':'})
		k, v, _ := bytes.Cut(field, []byte{'='})
		switch string(k) {
		case "state":
			state = v
		case "app":
			app = v
		case "kind":
			kind = v
		}
	}
	if len(app) > 0 && string(app) != "codex" {
		return "", "", false
	}
	switch string(state) {
	case "working":
		return harness.Working, "", true
	case "done":
		return harness.Waiting, "", true
	case "blocked":
		why := "approval request"
		if len(kind) > 0 && string(kind) != "permission" {
			why = harness.PrintableWord(string(kind))
		}
		return harness.NeedsYou, why, true
	}
	return "", "", false
}

// NeedsYouFrom implements harness.NeedsYouTeller: fleetcom's hooks where
// the user has them, else Codex's own state on its terminal.
func (codex) NeedsYouFrom(home string, hooks harness.HookPolicy) string {
	if _, trusted := configPlan(home); hooks == harness.HooksOn || hooks == harness.HooksAuto && trusted {
		return "fleetcom's hooks (PermissionRequest)"
	}
	return "Codex's state on its terminal (OSC 7501 state=blocked)"
}
