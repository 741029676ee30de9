package opencode

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// pluginEvents are events as opencode 1.18.33 gives them to a plugin
// (recorded in the TUI, e2e/README.md), with a sub-agent's session, a
// permission and events the plugin has no use for.
const pluginEvents = `[
 {"type":"plugin.added","properties":{"id":"agent"}},
 {"type":"session.created","properties":{"sessionID":"` + ocID1 + `","info":{"id":"` + ocID1 + `","slug":"quiet-circuit","projectID":"global","directory":"/tmp/oc/proj4","title":"New session - 2026-12-02T01:10:56.750Z","version":"1.18.33"}}},
 {"type":"message.updated","properties":{"sessionID":"` + ocID1 + `","info":{"id":"msg_2344e011a001gwhHmaxjKasP42","role":"user"}}},
 {"type":"session.status","properties":{"sessionID":"` + ocID1 + `","status":{"type":"busy"}}},
 {"type":"session.created","properties":{"sessionID":"ses_dcbb17defffe000000000000zz","info":{"id":"ses_dcbb17defffe000000000000zz","parentID":"` + ocID1 + `","directory":"/tmp/oc/proj4"}}},
 {"type":"session.status","properties":{"sessionID":"ses_dcbb17defffe000000000000zz","status":{"type":"busy"}}},
 {"type":"permission.asked","properties":{"id":"per_1","sessionID":"ses_dcbb17defffe000000000000zz","permission":"bash"}},
 {"type":"permission.replied","properties":{"sessionID":"ses_dcbb17defffe000000000000zz","requestID":"per_1","reply":"once"}},
 {"type":"session.status","properties":{"sessionID":"ses_dcbb17defffe000000000000zz","status":{"type":"idle"}}},
 {"type":"message.part.delta","properties":{"sessionID":"` + ocID1 + `","delta":"ACK"}},
 {"type":"session.status","properties":{"sessionID":"` + ocID1 + `","status":{"type":"idle"}}},
 {"type":"session.idle","properties":{"sessionID":"` + ocID1 + `"}},
 {"type":"session.status","properties":null},
 {"type":"session.created"},
 null,
 {"type":"question.asked","properties":{"sessionID":"` + ocID1 + `"}}
]`

// runPlugin runs fleetcom's opencode plugin under node, as opencode runs a
// plugin: the module's export is called, and each event goes to its event
// hook. capture is FLEETCOM_CAPTURE_FILE ("" to leave it unset).
func runPlugin(t *testing.T, capture string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("node is needed to run opencode's plugin: ", err)
		}
		t.Skip("node is not installed: the plugin cannot be run here")
	}
	dir := t.TempDir()
	// .mjs: node reads ES modules by that name; opencode takes the .js.
	file := filepath.Join(dir, "plugin.mjs")
	harnesstest.WriteFile(t, file, plugin)
	driver := `import { FleetcomCapture } from ` + string(harness.JSONString(fileURL(file))) + `;
const hooks = await FleetcomCapture({ directory: "/tmp/oc/proj4" });
for (const event of ` + pluginEvents + `) await hooks.event({ event });
console.log("done");
`
	cmd := exec.Command(node, "--input-type=module", "-e", driver)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	if capture != "" {
		cmd.Env = append(cmd.Env, harness.EnvCapture+"="+capture)
	}
	done := make(chan struct{})
	var out []byte
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatal("the plugin blocked")
	}
	if err != nil || strings.TrimSpace(string(out)) != "done" {
		t.Fatalf("the plugin failed: %v\n%s", err, out)
	}
	return string(out)
}

func TestPlugin(t *testing.T) {
	a := Agent
	capture := filepath.Join(t.TempDir(), "task-1-1.json")
	harnesstest.WriteFile(t, capture, "")
	runPlugin(t, capture)
	data, err := os.ReadFile(capture)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.ParseCapture(data, harness.Capture{}); got != ocID1 {
		t.Errorf("ParseCapture of the plugin's lines = %q, want %s:\n%s", got, ocID1, data)
	}
	want := []harness.StateEvent{{State: harness.Working}, {State: harness.NeedsYou, Why: "permission request"}, {State: harness.Working},
		{State: harness.Waiting}, {State: harness.NeedsYou, Why: "question"}}
	if got := a.Behaviour.(harness.Stater).States(data); !jsonEqual(got, want) {
		t.Errorf("States of the plugin's lines = %+v, want %+v:\n%s", got, want, data)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if len(l) > 300 {
			t.Errorf("a long line: %s", l)
		}
	}
}

// TestPluginHarmless: the plugin never gets in opencode's way:
// without the variable, or with a capture file that is missing, a symlink
// or a FIFO nobody reads, it writes nothing, throws nothing and does not
// block.
func TestPluginHarmless(t *testing.T) {
	runPlugin(t, "")
	dir := t.TempDir()
	runPlugin(t, filepath.Join(dir, "missing.json"))
	if _, err := os.Stat(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("the plugin created the capture file")
	}
	target := filepath.Join(dir, "target")
	harnesstest.WriteFile(t, target, "")
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	runPlugin(t, link)
	if b, _ := os.ReadFile(target); len(b) != 0 {
		t.Errorf("the plugin wrote through a symlink: %s", b)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	runPlugin(t, fifo)
}
