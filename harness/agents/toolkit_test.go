package agents

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
)

// The rules of harness that every agent follows (instrumentation that
// refuses a bad ID, the resume line, the options a resume keeps), held on
// the real agents of the list.

const (
	other  = harnesstest.Other
	pinned = harnesstest.Pinned
)

// mustNamed is the agent called name; a test naming one that is not
// listed is wrong.
func mustNamed(name string) harness.Agent {
	a, ok := Named(name)
	if !ok {
		panic("no agent " + name)
	}
	return a
}

// testRun is what a run of any agent gets: its assets and capture file in
// dir, and a fixed pinned ID.
func testRun(dir string) harness.Run {
	assets := map[string]string{}
	for _, a := range list {
		for _, as := range a.Assets {
			assets[as.Name] = filepath.Join(dir, as.Name)
		}
	}
	return harness.Run{Assets: assets, Capture: filepath.Join(dir, "task-1-1.json"),
		NewID: func() (string, error) { return pinned, nil }}
}

func TestInstrumentRejectsBadIDs(t *testing.T) {
	ns := testRun("/run/fc/1-a")
	for _, h := range All() {
		if _, err := h.Instrument(harness.Form{Tool: h.Name, Resume: "x; rm -rf ~"}, ns); err == nil {
			t.Errorf("%s: instrumented a resume form with an invalid ID", h.Name)
		}
	}
	ns.NewID = func() (string, error) { return "NOT-AN-ID", nil }
	if _, err := (mustNamed("claude")).Instrument(harness.Form{Tool: "claude"}, ns); err == nil {
		t.Error("claude: pinned an invalid generated ID")
	}
}

func TestResumeLine(t *testing.T) {
	cases := []struct {
		h       harness.Agent
		program string
		opts    []string
		want    string
	}{
		{mustNamed("claude"), "claude", nil, "claude --resume '" + uid + "'"},
		{mustNamed("codex"), "codex", nil, "codex resume '" + uid + "'"},
		{mustNamed("grok"), "grok", nil, "grok --resume '" + uid + "'"},
		{mustNamed("claude"), "", nil, "claude --resume '" + uid + "'"},
		{mustNamed("claude"), "/usr/local/bin/claude", nil, "/usr/local/bin/claude --resume '" + uid + "'"},
		{mustNamed("claude"), "/opt/my tools/claude", nil, "'/opt/my tools/claude' --resume '" + uid + "'"},
		{mustNamed("claude"), "x=1/claude", nil, "'x=1/claude' --resume '" + uid + "'"},
		{mustNamed("claude"), "claude", []string{"--model", "opus", "--append-system-prompt", "it's $HOME"},
			"claude --resume '" + uid + "' --model opus --append-system-prompt 'it'\"'\"'s $HOME'"},
		// A record that carries settings (written by hand, or by a fleetcom
		// before they were left out) replays none: they may hold hooks.
		{mustNamed("claude"), "claude", []string{"--settings", `{"hooks":{"SessionStart":[]}}`, "--model", "opus"},
			"claude --resume '" + uid + "' --model opus"},
	}
	for _, c := range cases {
		got, err := harness.ResumeLine(c.h, c.program, uid, c.opts)
		if err != nil || got != c.want {
			t.Errorf("harness.ResumeLine(%s, %q) = %q, %v; want %q", c.h.Name, c.program, got, err, c.want)
		}
	}
	if _, err := harness.ResumeLine(mustNamed("claude"), "claude", strings.ToUpper(uid), nil); err == nil {
		t.Error("harness.ResumeLine accepted an uppercase ID")
	}
	if _, err := harness.ResumeLine(mustNamed("claude"), "codex", uid, nil); err == nil {
		t.Error("harness.ResumeLine gave a claude ID to codex")
	}
}

func TestSurviving(t *testing.T) {
	cases := []struct {
		name string
		h    harness.Agent
		args []string
		want []string
	}{
		{"permission and model", mustNamed("claude"), []string{"--permission-mode", "acceptEdits", "--model", "opus"},
			[]string{"--permission-mode", "acceptEdits", "--model", "opus"}},
		{"several values keep the first", mustNamed("claude"), []string{"--add-dir", "/a", "/b"}, []string{"--add-dir", "/a"}},
		{"attached value", mustNamed("claude"), []string{"--model=opus"}, []string{"--model=opus"}},
		{"attached value takes no bare word", mustNamed("claude"), []string{"--model=opus", "fix it"}, []string{"--model=opus"}},
		{"short option", mustNamed("codex"), []string{"-m", "o3", "-s", "danger-full-access", "-a", "never"},
			[]string{"-m", "o3", "-s", "danger-full-access", "-a", "never"}},
		{"value starting with a dash", mustNamed("claude"), []string{"--append-system-prompt", "-be terse-"},
			[]string{"--append-system-prompt", "-be terse-"}},
		{"stale resume dropped with its id", mustNamed("claude"), []string{"--model", "opus", "--resume", uid, "some prompt"},
			[]string{"--model", "opus"}},
		{"short resume dropped", mustNamed("claude"), []string{"-r", uid, "--verbose"}, []string{"--verbose"}},
		{"continue and print dropped", mustNamed("claude"), []string{"-c", "-p", "hi", "--model", "x"}, []string{"--model", "x"}},
		{"session id dropped", mustNamed("claude"), []string{"--session-id", uid, "--fork-session"}, nil},
		{"prompt after a value dropped", mustNamed("claude"), []string{"--model", "opus", "fix the bug"}, []string{"--model", "opus"}},
		{"prompt after a boolean flag survives (documented limit)", mustNamed("claude"), []string{"--dangerously-skip-permissions", "fix the bug"},
			[]string{"--dangerously-skip-permissions", "fix the bug"}},
		{"unknown options survive", mustNamed("claude"), []string{"--from-a-future-release", "v"}, []string{"--from-a-future-release", "v"}},
		{"codex resume subcommand and id dropped", mustNamed("codex"), []string{"resume", uid, "--full-auto"}, []string{"--full-auto"}},
		{"codex -c survives", mustNamed("codex"), []string{"-c", "model=\"o3\"", "exec", "hi"}, []string{"-c", "model=\"o3\""}},
		// Options that can make the CLI run a command are never replayed
		// (issue 29, item 16): hooks in settings, a notifier, MCP servers.
		{"claude settings dropped", mustNamed("claude"), []string{"--settings", `{"hooks":{}}`, "--model", "opus", "--mcp-config=x.json"},
			[]string{"--model", "opus"}},
		{"codex notify and mcp dropped", mustNamed("codex"), []string{"-c", `notify=["sh","-c","x"]`, "-c", "model=o3",
			"--config=mcp_servers.x.command=\"sh\"", "-c", " hooks.y=1"}, []string{"-c", "model=o3"}},
		{"copilot mcp config dropped", mustNamed("copilot"), []string{"--additional-mcp-config", "@x.json", "--model", "m"},
			[]string{"--model", "m"}},
		{"grok resume dropped", mustNamed("grok"), []string{"--resume", uid, "-m", "grok-4"}, []string{"-m", "grok-4"}},
		{"unicode and quotes", mustNamed("claude"), []string{"--append-system-prompt", "réponds « vite », it's $HOME `now`"},
			[]string{"--append-system-prompt", "réponds « vite », it's $HOME `now`"}},
		{"after -- nothing survives", mustNamed("claude"), []string{"--model", "x", "--", "--verbose"}, []string{"--model", "x"}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, harness.Surviving(c.h, c.args)); diff != "" {
			t.Errorf("%s: harness.Surviving(%q) (-want +got):\n%s", c.name, c.args, diff)
		}
	}
}

func TestOptionsOnly(t *testing.T) {
	cases := []struct {
		h    harness.Agent
		args []string
		want bool
	}{
		{mustNamed("claude"), []string{"--model", "opus"}, true},
		{mustNamed("claude"), []string{"--permission-mode", "acceptEdits", "--verbose"}, true},
		{mustNamed("claude"), []string{"--model=opus"}, true},
		{mustNamed("claude"), []string{"--dangerously-skip-permissions", "fix it"}, true},
		{mustNamed("claude"), nil, false},
		{mustNamed("claude"), []string{"fix it"}, false},
		{mustNamed("claude"), []string{"--model", "opus", "fix it"}, false},
		{mustNamed("claude"), []string{"--model=opus", "fix it"}, false},
		{mustNamed("claude"), []string{"--resume", uid}, false},
		{mustNamed("claude"), []string{"-r", uid, "--model", "x"}, false},
		{mustNamed("claude"), []string{"-c"}, false},
		{mustNamed("claude"), []string{"-p", "hi"}, false},
		{mustNamed("claude"), []string{"--session-id", uid}, false},
		{mustNamed("claude"), []string{"--fork-session"}, false},
		{mustNamed("claude"), []string{"--model", "x", "--"}, false},
		{mustNamed("codex"), []string{"-c", "model=\"o3\"", "--full-auto"}, true},
		{mustNamed("codex"), []string{"exec", "hi"}, false},
		{mustNamed("codex"), []string{"resume", uid}, false},
		{mustNamed("codex"), []string{"-m", "o3", "resume", uid}, false},
		{mustNamed("grok"), []string{"-m", "grok-4"}, true},
		{mustNamed("grok"), []string{"-r", uid}, false},
	}
	for _, c := range cases {
		if got := harness.OptionsOnly(c.h, c.args); got != c.want {
			t.Errorf("harness.OptionsOnly(%s, %q) = %v, want %v", c.h.Name, c.args, got, c.want)
		}
	}
}
