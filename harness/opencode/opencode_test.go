package opencode

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
)

// Real IDs of opencode 1.18.33 (e2e/README.md).
const (
	ocID1 = "ses_dcbb20063ffeCKCXIkplFKKSHS"
	ocID2 = "ses_dcbb17defffeWeO1xQy19oWkZ7"
)

func TestGrammar(t *testing.T) {
	g := spec.ID
	for _, id := range []string{ocID1, ocID2, "ses_000000000000zzzzzzzzzzzzzz", "ses_ffffffffffff00000000000000"} {
		if !g.Valid(id) {
			t.Errorf("Valid(%q) = false", id)
		}
	}
	for _, id := range []string{
		"", "ses_", ocID1[:29], ocID1 + "x", " " + ocID1[1:], ocID1[:29] + "\n",
		"SES_dcbb20063ffeCKCXIkplFKKSHS", // the prefix is lowercase
		"msg_dcbb20063ffeCKCXIkplFKKSHS", // another kind of opencode ID
		"ses-dcbb20063ffeCKCXIkplFKKSHS",
		"ses_DCBB20063ffeCKCXIkplFKKSHS", // the time is lowercase hex
		"ses_dcbb20063ffgCKCXIkplFKKSHS", // g is no hex digit
		"ses_dcbb20063ffeCKCXIkplFKKSH-", "ses_dcbb20063ffeCKCXIkplFKKSH_", "ses_dcbb20063ffeCKCXIkplFKKSH'",
		"ses_dcbb20063ffeCKCXIkplFKKSH/", "ses_dcbb20063ffeCKCXIkplFKKSHé"[:30],
		"0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e", // a UUID is not an opencode ID
	} {
		if g.Valid(id) {
			t.Errorf("Valid(%q) = true", id)
		}
	}
	for _, c := range []struct {
		s   string
		min int
		ok  bool
	}{
		{"ses_dcbb", 4, true}, {"ses_", 4, true}, {"ses", 4, false}, {"se", 1, true}, {"ses_dcbb2006", 4, true},
		{"ses_dcbb20063ffeC", 4, true}, {"ses_dcbb20063ffgC", 4, false}, {ocID1, 4, true}, {ocID1 + "x", 4, false},
		{"dcbb", 4, false}, {"0f8b", 4, false},
	} {
		if got := g.ValidPrefix(c.s, c.min); got != c.ok {
			t.Errorf("Prefix(%q, %d) = %v, want %v", c.s, c.min, got, c.ok)
		}
	}
}

func TestDetect(t *testing.T) {
	a := Agent
	for _, c := range []struct {
		argv   []string
		ok     bool
		resume string
	}{
		{[]string{"opencode"}, true, ""},
		{[]string{"/usr/local/bin/opencode"}, true, ""},
		{[]string{"opencode", "-s", ocID1}, true, ocID1},
		{[]string{"opencode", "--session", ocID1}, false, ""}, // only the canonical spelling
		{[]string{"opencode", "-s", "ses_x"}, false, ""},
		{[]string{"opencode", "-s", ocID1, "--fork"}, false, ""},
		{[]string{"opencode", "-s"}, false, ""},
		{[]string{"opencode", "run", "hi"}, false, ""},
		{[]string{"opencode", "-c"}, false, ""},
		{[]string{"opencode", "-s", "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"}, false, ""},
	} {
		f, ok := harness.DetectArgv(a, c.argv)
		if ok != c.ok || f.Resume != c.resume {
			t.Errorf("DetectArgv(%q) = %+v, %v; want resume %q, %v", c.argv, f, ok, c.resume, c.ok)
		}
	}
	line, err := harness.ResumeLine(a, "", ocID1, nil)
	if want := "opencode -s '" + ocID1 + "'"; err != nil || line != want {
		t.Errorf("ResumeLine = %q, %v; want %q", line, err, want)
	}
	if _, f, ok := harness.DetectCommand("opencode -s '"+ocID1+"'", only); !ok || f.Resume != ocID1 {
		t.Errorf("the printed resume line is not an accepted command: %+v %v", f, ok)
	}
	if _, err := harness.ResumeLine(a, "", "ses_x'; rm -rf ~", nil); err == nil {
		t.Error("ResumeLine took an ID outside the grammar")
	}
}

func TestScrapeExit(t *testing.T) {
	a := Agent
	// The end of 1.18.33's TUI after /exit, byte for byte as a terminal got
	// it: the logo's last cell, the session's title and the line that
	// continues it.
	exit := "\x1b[38;5;238m\u2580\x1b[0m\r\n\r\n  \x1b[90mSession   \x1b[0m\x1b[1mremember OWL-77\x1b[0m\r\n" +
		"  \x1b[90mContinue  \x1b[0m\x1b[1mopencode -s " + ocID1 + "\x1b[0m\r\n\r\n"
	for _, c := range []struct {
		name, tail, want string
	}{
		{"exit", exit, ocID1},
		{"two, the last wins", strings.Replace(exit, ocID1, ocID2, 1) + exit, ocID1},
		{"the long form", "Continue  opencode --session " + ocID2 + "\r\n", ocID2},
		{"no prompt, no hint", "\x1b[?1049l\r\n  █▀▀█ █▀▀█\r\n", ""},
		{"an ID cut short", "Continue  opencode -s " + ocID1[:20] + "\r\n", ""},
		{"an ID running on", "Continue  opencode -s " + ocID1 + "x\r\n", ""},
		{"another program", "Continue  myopencode -s " + ocID1 + "\r\n", ""},
		{"a UUID", "Continue  opencode -s 0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e\r\n", ""},
	} {
		if got := a.ScrapeExit([]byte(c.tail)); got != c.want {
			t.Errorf("%s: ScrapeExit = %q, want %q", c.name, got, c.want)
		}
	}
	if !a.BannerShown([]byte(exit)) || a.BannerShown([]byte("  Session   hi\r\n")) {
		t.Error("BannerShown does not follow the Continue line")
	}
}

func TestInstrument(t *testing.T) {
	a := Agent
	dir := "/run/fc/12-ab"
	run := harness.Run{Assets: map[string]string{pluginAsset: dir + "/" + pluginAsset}, Capture: dir + "/task-1-1.json"}
	content := func(in harness.Instrumentation) string {
		for _, kv := range in.Env {
			if v, ok := strings.CutPrefix(kv, configVar+"="); ok {
				return v
			}
		}
		return ""
	}
	t.Setenv(configVar, "")
	in, err := a.Instrument(harness.Form{Tool: "opencode"}, run)
	if err != nil || in.Pinned != "" || len(in.Args) != 0 || !in.States {
		t.Fatalf("bare: %+v, %v", in, err)
	}
	if want := `{"plugin":["file:///run/fc/12-ab/opencode-capture.js"]}`; content(in) != want {
		t.Errorf("bare: %s = %s, want %s", configVar, content(in), want)
	}
	if in.Env[0] != harness.EnvCapture+"="+run.Capture {
		t.Errorf("bare: no capture file in %q", in.Env)
	}
	in, err = a.Instrument(harness.Form{Tool: "opencode", Resume: ocID1}, run)
	if err != nil || in.Pinned != ocID1 || content(in) == "" {
		t.Errorf("resume: %+v, %v", in, err)
	}
	if _, err := a.Instrument(harness.Form{Tool: "opencode", Resume: "ses_x"}, run); err == nil {
		t.Error("resume of an ID outside the grammar instrumented")
	}

	// A path that is no plain word, percent-encoded as a file URL.
	odd := run
	odd.Assets = map[string]string{pluginAsset: "/run/my fc/é%\"'/" + pluginAsset}
	in, _ = a.Instrument(harness.Form{Tool: "opencode"}, odd)
	if want := `{"plugin":["file:///run/my%20fc/%C3%A9%25%22%27/opencode-capture.js"]}`; content(in) != want {
		t.Errorf("odd path: %s, want %s", content(in), want)
	}

	// The user's own content keeps everything it had.
	for _, c := range []struct{ own, want string }{
		{`{"model":"x/y","plugin":["my-plugin@1.0"]}`, `{"model":"x/y","plugin":["my-plugin@1.0","file:///run/fc/12-ab/opencode-capture.js"]}`},
		{` {"share":"disabled","n":1.50} `, `{"n":1.50,"plugin":["file:///run/fc/12-ab/opencode-capture.js"],"share":"disabled"}`},
		{`{"plugin":[]}`, `{"plugin":["file:///run/fc/12-ab/opencode-capture.js"]}`},
	} {
		t.Setenv(configVar, c.own)
		in, _ := a.Instrument(harness.Form{Tool: "opencode"}, run)
		var got, want any
		if json.Unmarshal([]byte(content(in)), &got) != nil || json.Unmarshal([]byte(c.want), &want) != nil ||
			!jsonEqual(got, want) || !in.States {
			t.Errorf("own %s: got %s, want %s", c.own, content(in), c.want)
		}
	}
	// One it cannot add to is left alone: no plugin, no capture.
	for _, own := range []string{`{"plugin":"x"}`, `[1]`, `{"a":1} {"b":2}`, `{"a":1, // jsonc` + "\n}", `null`, `nope`} {
		t.Setenv(configVar, own)
		in, err := a.Instrument(harness.Form{Tool: "opencode"}, run)
		if err != nil || len(in.Env) != 0 || in.States {
			t.Errorf("own %q: %+v, %v; want no plugin", own, in, err)
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestCapture(t *testing.T) {
	a := Agent
	line := func(v map[string]string) string {
		b, _ := json.Marshal(v)
		return string(b) + "\n"
	}
	created := func(id, parent string) string {
		return line(map[string]string{"event": "session.created", "id": id, "parent": parent, "directory": "/p"})
	}
	status := func(id, s string) string {
		return line(map[string]string{"event": "session.status", "id": id, "status": s})
	}
	ev := func(e, id string) string { return line(map[string]string{"event": e, "id": id}) }
	child := "ses_dcbb17defffe000000000000zz"

	data := created(ocID1, "") + status(ocID1, "busy") + created(child, ocID1) + status(child, "busy") +
		ev("permission.asked", child) + ev("permission.replied", child) + status(child, "idle") + status(ocID1, "idle")
	if got := a.ParseCapture([]byte(data), harness.Capture{}); got != ocID1 {
		t.Errorf("ParseCapture = %q, want the main session %s, not the sub-agent's", got, ocID1)
	}
	want := []harness.StateEvent{{State: harness.Working}, {State: harness.NeedsYou, Why: "permission request"}, {State: harness.Working}, {State: harness.Waiting}}
	if got := a.Behaviour.(harness.Stater).States([]byte(data)); !jsonEqual(got, want) {
		t.Errorf("States = %+v, want %+v", got, want)
	}
	// /new, then a prompt: the new session.
	data += created(ocID2, "") + status(ocID2, "busy") + ev("question.asked", ocID2) + ev("question.rejected", ocID2) + status(ocID2, "idle")
	if got := a.ParseCapture([]byte(data), harness.Capture{}); got != ocID2 {
		t.Errorf("after /new: ParseCapture = %q, want %s", got, ocID2)
	}
	states := a.Behaviour.(harness.Stater).States([]byte(data))
	if n := len(states); n != 8 || states[5] != (harness.StateEvent{State: harness.NeedsYou, Why: "question"}) || states[7].State != harness.Waiting {
		t.Errorf("after /new: States = %+v", states)
	}
	// What is not the plugin's, or names no valid ID, is nothing.
	for _, junk := range []string{
		"", "not json\n", created("ses_x", ""), created("0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e", ""),
		`{"hook_event_name":"SessionStart","session_id":"` + ocID1 + `"}` + "\n",
		created(ocID1, "")[:40] + "\n",
		`{"event":"session.created","id":"` + ocID1 + `","parent":"` + ocID2 + `"}` + "\n",
	} {
		if got := a.ParseCapture([]byte(junk), harness.Capture{}); got != "" {
			t.Errorf("ParseCapture(%q) = %q", junk, got)
		}
	}
	// A resumed run creates nothing: its state still follows.
	if got := a.Behaviour.(harness.Stater).States([]byte(status(ocID1, "busy") + status(ocID1, "retry") + status(ocID1, "idle"))); len(got) != 3 || got[2].State != harness.Waiting {
		t.Errorf("resumed: States = %+v", got)
	}
}

func TestFileURL(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b.js":               "file:///a/b.js",
		"/a b/c~_-.js":          "file:///a%20b/c~_-.js",
		"/x/%41#?\n":            "file:///x/%2541%23%3F%0A",
		filepath.Join("/", "é"): "file:///%C3%A9",
	} {
		if got := fileURL(in); got != want {
			t.Errorf("fileURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// only finds this agent by name, as the list would.
func only(name string) (harness.Agent, bool) { return Agent, name == spec.Name }
