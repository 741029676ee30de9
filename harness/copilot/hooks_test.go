package copilot

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
)

// pluginDoc is the shape of the plugin.json fleetcom writes.
type pluginDoc struct {
	Name  string
	Hooks map[string][]struct {
		Type       string
		Bash       string
		TimeoutSec int
	}
}

// The payloads Copilot 1.0.102 hands its hooks (PascalCase events), as
// measured, the first prompt and a notification message holding text that
// looks like the fields the hooks look for.
var payloads = map[string]string{
	"SessionStart":     `{"hook_event_name":"SessionStart","session_id":"` + uid + `","timestamp":"2026-12-02T01:00:15.908Z","cwd":"/tmp/cp/proj2","source":"new","initial_prompt":"fix \"session_id\":\"` + other + `\" please"}`,
	"UserPromptSubmit": `{"hook_event_name":"UserPromptSubmit","session_id":"` + uid + `","timestamp":"2026-12-02T01:00:16.533Z","cwd":"/tmp/cp/proj2","prompt":"remember HERON-22"}`,
	"Notification":     `{"sessionId":"` + uid + `","timestamp":1796173744848,"cwd":"/tmp/cp/proj3","message":"Run command: echo \"notification_type\":\"elicitation_dialog\"","title":"Permission needed","hook_event_name":"Notification","notification_type":"permission_prompt"}`,
	"PostToolUse":      `{"hook_event_name":"PostToolUse","session_id":"` + uid + `","tool_name":"Bash","tool_input":{"command":"touch x"}}`,
	"Stop":             `{"hook_event_name":"Stop","session_id":"` + uid + `","transcript_path":"/h/.copilot/session-state/` + uid + `/events.jsonl","stop_reason":"end_turn","stop_hook_active":false}`,
	"SessionEnd":       `{"hook_event_name":"SessionEnd","session_id":"` + uid + `","timestamp":"2026-12-02T01:00:58.026Z","cwd":"/tmp/cp/proj2","reason":"user_exit"}`,
}

// TestPluginHooks runs every hook of the plugin as Copilot would,
// with the payloads measured, in the plugin's folder, and reads back what
// they left in the capture file: the ID, and the run's states in order.
func TestPluginHooks(t *testing.T) {
	var doc, capDoc pluginDoc
	if err := json.Unmarshal([]byte(plugin), &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(capturePlugin), &capDoc); err != nil {
		t.Fatal(err)
	}
	events := slices.Sorted(maps.Keys(doc.Hooks))
	if want := slices.Sorted(maps.Keys(payloads)); !slices.Equal(events, want) || doc.Name == "" {
		t.Fatalf("the plugin hooks %v, want %v", events, want)
	}
	if len(capDoc.Hooks) != 1 || !cmp.Equal(capDoc.Hooks["SessionStart"], doc.Hooks["SessionStart"]) {
		t.Errorf("the capture-only plugin is not the SessionStart hook: %s", capturePlugin)
	}
	run := func(t *testing.T, event, capture string) {
		t.Helper()
		h := doc.Hooks[event]
		if len(h) != 1 || h[0].Type != "command" || h[0].Bash == "" || h[0].TimeoutSec <= 0 {
			t.Fatalf("%s: %+v", event, h)
		}
		cmd := exec.Command("/bin/sh", "-c", h[0].Bash)
		cmd.Dir = t.TempDir() // Copilot runs it in the plugin's folder
		cmd.Stdin = strings.NewReader(payloads[event] + "\n")
		cmd.Env = append(os.Environ(), harness.EnvCapture+"="+capture)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
			t.Fatalf("%s: %v, output %q", event, err, out)
		}
	}
	capture := filepath.Join(t.TempDir(), "task.json")
	os.WriteFile(capture, nil, 0o600)
	for _, e := range []string{"SessionStart", "UserPromptSubmit", "Notification", "PostToolUse", "Stop", "SessionEnd"} {
		run(t, e, capture)
	}
	data, _ := os.ReadFile(capture)
	want := `{"hook_event_name":"SessionStart","session_id":"` + uid + `"}
{"hook_event_name":"UserPromptSubmit"}
{"hook_event_name":"Notification","notification_type":"permission_prompt"}
{"hook_event_name":"PostToolUse"}
{"hook_event_name":"Stop"}
{"hook_event_name":"SessionEnd","session_id":"` + uid + `","reason":"user_exit"}
`
	if string(data) != want {
		t.Fatalf("capture file:\n%s\nwant:\n%s", data, want)
	}
	a := Agent
	if got := a.ParseCapture(data, harness.Capture{}); got != uid {
		t.Errorf("ParseCapture = %q", got)
	}
	states := a.Behaviour.(harness.Stater).States(data)
	wantStates := []harness.StateEvent{{State: harness.Working}, {State: harness.Working}, {State: harness.NeedsYou, Why: "permission request"},
		{State: harness.Working}, {State: harness.Waiting}, {State: harness.Waiting, Ended: true, Why: "user_exit"}}
	if !cmp.Equal(states, wantStates) {
		t.Errorf("States = %+v, want %+v", states, wantStates)
	}

	// Outside fleetcom's run (no capture file), or with a capture file
	// that is not a regular file, the hooks write nothing and still exit 0.
	for _, target := range []string{"", filepath.Join(t.TempDir(), "link")} {
		if target != "" {
			os.Symlink(capture, target)
		}
		before, _ := os.ReadFile(capture)
		for e := range payloads {
			run(t, e, target)
		}
		if after, _ := os.ReadFile(capture); string(after) != string(before) {
			t.Errorf("hooks with capture %q wrote %q", target, after[len(before):])
		}
	}
	// A payload without an ID in the grammar's letters writes no line.
	fresh := filepath.Join(t.TempDir(), "task.json")
	os.WriteFile(fresh, nil, 0o600)
	cmd := exec.Command("/bin/sh", "-c", doc.Hooks["SessionStart"][0].Bash)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"SessionStart","session_id":"x\"; rm -rf /; \""}`)
	cmd.Env = append(os.Environ(), harness.EnvCapture+"="+fresh)
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(fresh); len(b) != 0 {
		t.Errorf("a payload with a bad ID wrote %q", b)
	}
}
