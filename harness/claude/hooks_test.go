package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
)

// hookDoc is the shape of Claude Code's settings that fleetcom writes.
type hookDoc struct {
	Hooks map[string][]struct {
		Matcher string
		Hooks   []struct{ Type, Command string }
	}
}

// TestSettingsHook runs every hook of the inline settings as Claude
// would, with payloads of the shape measured, and reads back what they left
// in the capture file: the ID, and the run's states in order.
func TestSettingsHook(t *testing.T) {
	inline := inlineSettings()
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(settingsDoc)); err != nil || compact.String() != inline {
		t.Errorf("the inline settings are not settingsDoc compacted (%v):\n%s\n%s", err, inline, compact.String())
	}
	// Claude Code 2.1.332 repeats only options that are plain words in its
	// exit hint, and none at all when one is not: the inline settings must
	// never be one, so the printed line never names them.
	for _, s := range []string{inline, captureSettings} {
		if !strings.ContainsAny(s, "{\" ,$") || strings.ContainsAny(s, "\n\r") {
			t.Errorf("inline settings %q would be repeated in Claude's hint, or span lines", s)
		}
	}
	var doc, capDoc hookDoc
	if err := json.Unmarshal([]byte(inline), &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(captureSettings), &capDoc); err != nil {
		t.Fatal(err)
	}
	if len(capDoc.Hooks) != 1 || !cmp.Equal(capDoc.Hooks["SessionStart"], doc.Hooks["SessionStart"]) {
		t.Errorf("the capture-only settings are not the SessionStart entry: %s", captureSettings)
	}
	command := func(event, matcher string) string {
		t.Helper()
		for _, g := range doc.Hooks[event] {
			if g.Matcher == matcher && len(g.Hooks) == 1 && g.Hooks[0].Type == "command" {
				return g.Hooks[0].Command
			}
		}
		t.Fatalf("no %s hook with matcher %q in %s", event, matcher, settingsDoc)
		return ""
	}
	dir := t.TempDir()
	capture := filepath.Join(dir, "task.json")
	run := func(shell, command, payload string) {
		t.Helper()
		cmd := exec.Command(shell, "-c", command)
		cmd.Env = append(os.Environ(), harness.EnvCapture+"="+capture)
		cmd.Stdin = strings.NewReader(payload)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil || len(out) != 0 {
			t.Fatalf("%s hook: %v, output %q", shell, err, out)
		}
	}
	p1 := `{"session_id":"` + uid + `","hook_event_name":"SessionStart","source":"startup","cwd":"/x $(touch pwned)"}`
	p2 := "{\"session_id\":\"" + pinned + "\",\n\"hook_event_name\":\"SessionStart\",\"source\":\"clear\"}\n"
	steps := []struct{ event, matcher, payload string }{
		{"SessionStart", "", p1},
		{"UserPromptSubmit", "", `{"hook_event_name":"UserPromptSubmit","prompt":"hi $(touch pwned)"}`},
		{"PermissionRequest", "*", `{"hook_event_name":"PermissionRequest","tool_name":"Bash"}`},
		{"Notification", "permission_prompt", `{"hook_event_name":"Notification","notification_type":"permission_prompt"}`},
		{"PostToolUse", "*", `{"hook_event_name":"PostToolUse","tool_response":{"stdout":"` + strings.Repeat("x", 70000) + `"}}`},
		{"Stop", "", `{"hook_event_name":"Stop","last_assistant_message":"ok"}`},
		{"Notification", "elicitation_dialog", `{"hook_event_name":"Notification","notification_type":"elicitation_dialog"}`},
		{"PostToolUseFailure", "*", `{"hook_event_name":"PostToolUseFailure"}`},
		{"SessionEnd", "", `{"session_id":"` + uid + `","hook_event_name":"SessionEnd","reason":"clear"}`},
		{"SessionStart", "", p2},
	}
	want := []harness.StateEvent{{State: harness.Waiting}, {State: harness.Working}, {State: harness.NeedsYou, Why: "permission request"},
		{State: harness.NeedsYou, Why: "permission request"}, {State: harness.Working}, {State: harness.Waiting}, {State: harness.NeedsYou, Why: "question"},
		{State: harness.Working}, {State: harness.Waiting, Ended: true, Why: "clear"}, {State: harness.Waiting}}
	for _, shell := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Skipf("%s not installed: %v", shell, err)
		}
		os.WriteFile(capture, nil, 0o600)
		for _, st := range steps {
			run(shell, command(st.event, st.matcher), st.payload)
		}
		got, _ := os.ReadFile(capture)
		if len(got) > 4096 {
			t.Errorf("%s: capture holds %d bytes: a large payload was copied", shell, len(got))
		}
		if id := Agent.ParseCapture(got, harness.Capture{}); id != pinned {
			t.Errorf("%s: capture parses to %q", shell, id)
		}
		if diff := cmp.Diff(want, Agent.Behaviour.(harness.Stater).States(got)); diff != "" {
			t.Errorf("%s: states (-want +got):\n%s\ncapture:\n%s", shell, diff, got)
		}
		if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
			t.Fatalf("%s: a payload was evaluated", shell)
		}
	}
	// Without the variable (a printed resume line run by hand) no hook
	// writes anything, and each still reads its payload.
	os.WriteFile(capture, nil, 0o600)
	for event, groups := range doc.Hooks {
		for _, g := range groups {
			cmd := exec.Command("sh", "-c", g.Hooks[0].Command)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
			cmd.Stdin = strings.NewReader(`{"hook_event_name":"` + event + `"}`)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
				t.Errorf("%s hook without the variable: %v, %q", event, err, out)
			}
		}
	}
	// A capture file swapped for a symlink is not written through.
	target := filepath.Join(dir, "target")
	os.WriteFile(target, nil, 0o600)
	os.Remove(capture)
	os.Symlink(target, capture)
	run("sh", command("SessionStart", ""), p1)
	run("sh", command("Stop", ""), "{}")
	if b, _ := os.ReadFile(target); len(b) != 0 {
		t.Errorf("hook wrote through a symlink: %q", b)
	}
}

func TestStates(t *testing.T) {
	data := strings.Join([]string{
		`{"hook_event_name":"UserPromptSubmit"}`,
		`{"hook_event_name":"Stop","agent_id":"sub-1"}`, // a sub-agent's: not the run's
		`not json`,
		`{"hook_event_name":"SessionEnd","reason":"$(rm -rf x)"}`, // a reason that is not a word is dropped
		`{"hook_event_name":"Elicitation"}`,                       // not one fleetcom asked for
		`{"hook_event_name":"Notification","notification_type":"idle_prompt"}`,
	}, "\n")
	want := []harness.StateEvent{{State: harness.Working}, {State: harness.Waiting, Ended: true}}
	if diff := cmp.Diff(want, Agent.Behaviour.(harness.Stater).States([]byte(data))); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
}

func TestView(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, "sessions"), 0o700)
	write := func(pid, body string) {
		os.WriteFile(filepath.Join(home, "sessions", pid+".json"), []byte(body), 0o600)
	}
	// The file of a measured 2.1.332 run, status busy.
	write("3690", `{"pid":3690,"sessionId":"976dec46-4fdf-4de0-8618-367ae4ae3cf5","cwd":"/p","startedAt":1796161128442,"procStart":"95720","version":"2.1.332","kind":"interactive","status":"busy","updatedAt":1796161135595,"statusUpdatedAt":1796161135595}`)
	write("7", `{"pid":8,"status":"idle","statusUpdatedAt":1796161135595}`)
	write("9", `{"pid":9,"status":"waiting","waitingFor":"permission prompt","statusUpdatedAt":1796161135595}`)
	write("10", `{"pid":10,"status":"sleeping","statusUpdatedAt":1796161135595}`)
	v := Agent.Behaviour.(harness.Viewer)
	for _, c := range []struct {
		pid  int
		want harness.State
		ok   bool
	}{{3690, harness.Working, true}, {7, "", false}, {9, harness.NeedsYou, true}, {10, "", false}, {11, "", false}} {
		s, at, ok := v.View(home, c.pid)
		if s != c.want || ok != c.ok || (ok && !at.Equal(time.UnixMilli(1796161135595))) {
			t.Errorf("View(%d) = %q %v %v, want %q %v", c.pid, s, at, ok, c.want, c.ok)
		}
	}
}
