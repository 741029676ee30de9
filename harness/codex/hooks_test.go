package codex

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"

	"github.com/fleetcom/fleetcom/harness"
)

// trustedHooks is what Codex 0.171.0 writes to config.toml once the
// user trusted every one of fleetcom's hooks (measured: the keys, and the
// shape of the hashes).
var trustedHooks = func() string {
	var b strings.Builder
	b.WriteString("\n[hooks.state]\n")
	for _, e := range hookEvents {
		b.WriteString("\n[hooks.state.\"/<session-flags>/config.toml:" + e.key + ":0:0\"]\n")
		b.WriteString("trusted_hash = \"sha256:2d3eebf987422948b7f886914bac4620a3d90397a05b543b09b6c040db203b8e\"\n")
	}
	return b.String()
}()

func TestHooksTrusted(t *testing.T) {
	for _, c := range []struct {
		name, config string
		want         bool
	}{
		{"none", "", false},
		{"all", trustedHooks, true},
		{"one missing", strings.Replace(trustedHooks, ":interrupt:0:0", ":interrupt:0:1", 1), false},
		{"one disabled", strings.Replace(trustedHooks, ":stop:0:0\"]\n", ":stop:0:0\"]\nenabled = false\n", 1), false},
		{"not a hash", strings.Replace(trustedHooks, "sha256:2d3e", "md5:2d3e", 1), false},
		{"broken toml", trustedHooks + "\n[[[", false},
	} {
		_, got := configPlan(homeWith(t, c.config))
		if got != c.want {
			t.Errorf("%s: trusted = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestHookArgs decodes each override as Codex would read it and runs
// its hook: the lines in the capture file give the thread ID and the states.
func TestHookArgs(t *testing.T) {
	args := hookArgs()
	if len(args) != 2*len(hookEvents) {
		t.Fatalf("args %q", args)
	}
	commands := map[string]string{}
	for i := 0; i < len(args); i += 2 {
		if args[i] != "-c" {
			t.Fatalf("args %q", args)
		}
		var v struct {
			Hooks map[string][]struct {
				Hooks []struct{ Type, Command string }
			}
		}
		if err := toml.Unmarshal([]byte(args[i+1]), &v); err != nil {
			t.Fatalf("%q does not decode: %v", args[i+1], err)
		}
		for event, groups := range v.Hooks {
			if len(groups) != 1 || len(groups[0].Hooks) != 1 || groups[0].Hooks[0].Type != "command" {
				t.Fatalf("%q decodes to %+v", args[i+1], v)
			}
			commands[event] = groups[0].Hooks[0].Command
		}
	}
	dir := t.TempDir()
	capture := filepath.Join(dir, "capture")
	os.WriteFile(capture, nil, 0o600)
	thread := "01a23391-f779-7c51-9e38-292c5c3991e3"
	for _, st := range []struct{ event, payload string }{
		{"SessionStart", `{"session_id":"` + thread + `","hook_event_name":"SessionStart","source":"startup"}`},
		{"UserPromptSubmit", `{"hook_event_name":"UserPromptSubmit","prompt":"x"}`},
		{"PermissionRequest", `{"hook_event_name":"PermissionRequest"}`},
		{"PostToolUse", `{"hook_event_name":"PostToolUse"}`},
		{"Stop", `{"hook_event_name":"Stop"}`},
		{"Interrupt", `{"hook_event_name":"Interrupt"}`},
		{"SessionEnd", `{"session_id":"` + thread + `","hook_event_name":"SessionEnd","reason":"other"}`},
	} {
		cmd := exec.Command("sh", "-c", commands[st.event])
		cmd.Env = append(os.Environ(), harness.EnvCapture+"="+capture)
		cmd.Stdin = strings.NewReader(st.payload)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
			t.Fatalf("%s: %v %q", st.event, err, out)
		}
	}
	got, _ := os.ReadFile(capture)
	want := []harness.StateEvent{{State: harness.Working}, {State: harness.NeedsYou, Why: "approval request"}, {State: harness.Working},
		{State: harness.Waiting}, {State: harness.Waiting}, {State: harness.Waiting, Ended: true, Why: "other"}}
	if diff := cmp.Diff(want, Agent.Behaviour.(harness.Stater).States(got)); diff != "" {
		t.Errorf("states (-want +got):\n%s\ncapture:\n%s", diff, got)
	}
	// The thread is known from SessionStart, once its rollout exists.
	home := t.TempDir()
	writeRollout(t, home, thread, "/p", false, "hi")
	if id := Agent.ParseCapture(got, harness.Capture{Home: home}); id != thread {
		t.Errorf("ParseCapture = %q, want %q", id, thread)
	}
}
