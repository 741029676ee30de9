package harness

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSurviving(t *testing.T) {
	cases := []struct {
		name string
		h    Agent
		args []string
		want []string
	}{
		{"permission and model", claudeA(), []string{"--permission-mode", "acceptEdits", "--model", "opus"},
			[]string{"--permission-mode", "acceptEdits", "--model", "opus"}},
		{"several values keep the first", claudeA(), []string{"--add-dir", "/a", "/b"}, []string{"--add-dir", "/a"}},
		{"attached value", claudeA(), []string{"--model=opus"}, []string{"--model=opus"}},
		{"attached value takes no bare word", claudeA(), []string{"--model=opus", "fix it"}, []string{"--model=opus"}},
		{"short option", codexA(), []string{"-m", "o3", "-s", "danger-full-access", "-a", "never"},
			[]string{"-m", "o3", "-s", "danger-full-access", "-a", "never"}},
		{"value starting with a dash", claudeA(), []string{"--append-system-prompt", "-be terse-"},
			[]string{"--append-system-prompt", "-be terse-"}},
		{"stale resume dropped with its id", claudeA(), []string{"--model", "opus", "--resume", uid, "some prompt"},
			[]string{"--model", "opus"}},
		{"short resume dropped", claudeA(), []string{"-r", uid, "--verbose"}, []string{"--verbose"}},
		{"continue and print dropped", claudeA(), []string{"-c", "-p", "hi", "--model", "x"}, []string{"--model", "x"}},
		{"session id dropped", claudeA(), []string{"--session-id", uid, "--fork-session"}, nil},
		{"prompt after a value dropped", claudeA(), []string{"--model", "opus", "fix the bug"}, []string{"--model", "opus"}},
		{"prompt after a boolean flag survives (documented limit)", claudeA(), []string{"--dangerously-skip-permissions", "fix the bug"},
			[]string{"--dangerously-skip-permissions", "fix the bug"}},
		{"unknown options survive", claudeA(), []string{"--from-a-future-release", "v"}, []string{"--from-a-future-release", "v"}},
		{"codex resume subcommand and id dropped", codexA(), []string{"resume", uid, "--full-auto"}, []string{"--full-auto"}},
		{"codex -c survives", codexA(), []string{"-c", "model=\"o3\"", "exec", "hi"}, []string{"-c", "model=\"o3\""}},
		{"grok resume dropped", grokA(), []string{"--resume", uid, "-m", "grok-4"}, []string{"-m", "grok-4"}},
		{"unicode and quotes", claudeA(), []string{"--append-system-prompt", "réponds « vite », it's $HOME `now`"},
			[]string{"--append-system-prompt", "réponds « vite », it's $HOME `now`"}},
		{"after -- nothing survives", claudeA(), []string{"--model", "x", "--", "--verbose"}, []string{"--model", "x"}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, Surviving(c.h, c.args)); diff != "" {
			t.Errorf("%s: Surviving(%q) (-want +got):\n%s", c.name, c.args, diff)
		}
	}
}

func TestOptionsOnly(t *testing.T) {
	cases := []struct {
		h    Agent
		args []string
		want bool
	}{
		{claudeA(), []string{"--model", "opus"}, true},
		{claudeA(), []string{"--permission-mode", "acceptEdits", "--verbose"}, true},
		{claudeA(), []string{"--model=opus"}, true},
		{claudeA(), []string{"--dangerously-skip-permissions", "fix it"}, true},
		{claudeA(), nil, false},
		{claudeA(), []string{"fix it"}, false},
		{claudeA(), []string{"--model", "opus", "fix it"}, false},
		{claudeA(), []string{"--model=opus", "fix it"}, false},
		{claudeA(), []string{"--resume", uid}, false},
		{claudeA(), []string{"-r", uid, "--model", "x"}, false},
		{claudeA(), []string{"-c"}, false},
		{claudeA(), []string{"-p", "hi"}, false},
		{claudeA(), []string{"--session-id", uid}, false},
		{claudeA(), []string{"--fork-session"}, false},
		{claudeA(), []string{"--model", "x", "--"}, false},
		{codexA(), []string{"-c", "model=\"o3\"", "--full-auto"}, true},
		{codexA(), []string{"exec", "hi"}, false},
		{codexA(), []string{"resume", uid}, false},
		{codexA(), []string{"-m", "o3", "resume", uid}, false},
		{grokA(), []string{"-m", "grok-4"}, true},
		{grokA(), []string{"-r", uid}, false},
	}
	for _, c := range cases {
		if got := OptionsOnly(c.h, c.args); got != c.want {
			t.Errorf("OptionsOnly(%s, %q) = %v, want %v", c.h.Name, c.args, got, c.want)
		}
	}
}

// Injected flags never conflict with the user's own.
func TestInstrumentWithOptions(t *testing.T) {
	ns := testNamespace("/ns")
	ns.Home = codexHomeWith(t, "")
	in, _ := (claudeA()).Instrument(Form{Tool: "claude", Options: []string{"--settings", "mine.json"}}, ns)
	if HasOption(in.Args, "--settings") || in.Pinned != pinned {
		t.Errorf("claude with the user's --settings: %q", in.Args)
	}
	for _, opts := range [][]string{{"-c", "notify=[\"x\"]"}, {"--config", "notify = []"}, {"--config=notify=[]"}, {"-cnotify=[]"}} {
		in, _ := (codexA()).Instrument(Form{Tool: "codex", Options: opts}, ns)
		if len(in.Args) != 0 {
			t.Errorf("codex with the user's notify %q got %q", opts, in.Args)
		}
	}
	in, _ = (codexA()).Instrument(Form{Tool: "codex", Options: []string{"-c", "model=\"o3\""}}, ns)
	if len(in.Args) != 2 {
		t.Errorf("codex with another -c lost its notify override: %q", in.Args)
	}
}

// The printed line, evaluated by a real shell, gives back exactly the argv.
func TestResumeLineEvalWithOptions(t *testing.T) {
	opts := Surviving(claudeA(), []string{"--permission-mode", "acceptEdits", "--append-system-prompt",
		"it's \"quoted\" $HOME `id` \\ * ünï\nline", "--model=opus", "--resume", other, "-x", "'"})
	line, err := ResumeLine(claudeA(), "claude", uid, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, shell := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Skipf("%s not installed", shell)
		}
		script := "claude() { printf '%s\\0' \"$@\"; }\n" + line
		out, err := exec.Command(shell, "-c", script).Output()
		if err != nil {
			t.Fatalf("%s: %v", shell, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		want := append([]string{"--resume", uid}, opts...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: argv from %q (-want +got):\n%s", shell, line, diff)
		}
	}
}
