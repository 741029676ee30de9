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
		h    Harness
		args []string
		want []string
	}{
		{"permission and model", Claude{}, []string{"--permission-mode", "acceptEdits", "--model", "opus"},
			[]string{"--permission-mode", "acceptEdits", "--model", "opus"}},
		{"several values keep the first", Claude{}, []string{"--add-dir", "/a", "/b"}, []string{"--add-dir", "/a"}},
		{"attached value", Claude{}, []string{"--model=opus"}, []string{"--model=opus"}},
		{"attached value takes no bare word", Claude{}, []string{"--model=opus", "fix it"}, []string{"--model=opus"}},
		{"short option", Codex{}, []string{"-m", "o3", "-s", "danger-full-access", "-a", "never"},
			[]string{"-m", "o3", "-s", "danger-full-access", "-a", "never"}},
		{"value starting with a dash", Claude{}, []string{"--append-system-prompt", "-be terse-"},
			[]string{"--append-system-prompt", "-be terse-"}},
		{"stale resume dropped with its id", Claude{}, []string{"--model", "opus", "--resume", uid, "some prompt"},
			[]string{"--model", "opus"}},
		{"short resume dropped", Claude{}, []string{"-r", uid, "--verbose"}, []string{"--verbose"}},
		{"continue and print dropped", Claude{}, []string{"-c", "-p", "hi", "--model", "x"}, []string{"--model", "x"}},
		{"session id dropped", Claude{}, []string{"--session-id", uid, "--fork-session"}, nil},
		{"prompt after a value dropped", Claude{}, []string{"--model", "opus", "fix the bug"}, []string{"--model", "opus"}},
		{"prompt after a boolean flag survives (documented limit)", Claude{}, []string{"--dangerously-skip-permissions", "fix the bug"},
			[]string{"--dangerously-skip-permissions", "fix the bug"}},
		{"unknown options survive", Claude{}, []string{"--from-a-future-release", "v"}, []string{"--from-a-future-release", "v"}},
		{"codex resume subcommand and id dropped", Codex{}, []string{"resume", uid, "--full-auto"}, []string{"--full-auto"}},
		{"codex -c survives", Codex{}, []string{"-c", "model=\"o3\"", "exec", "hi"}, []string{"-c", "model=\"o3\""}},
		{"grok resume dropped", Grok{}, []string{"--resume", uid, "-m", "grok-4"}, []string{"-m", "grok-4"}},
		{"unicode and quotes", Claude{}, []string{"--append-system-prompt", "réponds « vite », it's $HOME `now`"},
			[]string{"--append-system-prompt", "réponds « vite », it's $HOME `now`"}},
		{"after -- nothing survives", Claude{}, []string{"--model", "x", "--", "--verbose"}, []string{"--model", "x"}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, Surviving(c.h, c.args)); diff != "" {
			t.Errorf("%s: Surviving(%q) (-want +got):\n%s", c.name, c.args, diff)
		}
	}
}

func TestOptionsOnly(t *testing.T) {
	cases := []struct {
		h    Harness
		args []string
		want bool
	}{
		{Claude{}, []string{"--model", "opus"}, true},
		{Claude{}, []string{"--permission-mode", "acceptEdits", "--verbose"}, true},
		{Claude{}, []string{"--model=opus"}, true},
		{Claude{}, []string{"--dangerously-skip-permissions", "fix it"}, true},
		{Claude{}, nil, false},
		{Claude{}, []string{"fix it"}, false},
		{Claude{}, []string{"--model", "opus", "fix it"}, false},
		{Claude{}, []string{"--model=opus", "fix it"}, false},
		{Claude{}, []string{"--resume", uid}, false},
		{Claude{}, []string{"-r", uid, "--model", "x"}, false},
		{Claude{}, []string{"-c"}, false},
		{Claude{}, []string{"-p", "hi"}, false},
		{Claude{}, []string{"--session-id", uid}, false},
		{Claude{}, []string{"--fork-session"}, false},
		{Claude{}, []string{"--model", "x", "--"}, false},
		{Codex{}, []string{"-c", "model=\"o3\"", "--full-auto"}, true},
		{Codex{}, []string{"exec", "hi"}, false},
		{Codex{}, []string{"resume", uid}, false},
		{Codex{}, []string{"-m", "o3", "resume", uid}, false},
		{Grok{}, []string{"-m", "grok-4"}, true},
		{Grok{}, []string{"-r", uid}, false},
	}
	for _, c := range cases {
		if got := OptionsOnly(c.h, c.args); got != c.want {
			t.Errorf("OptionsOnly(%s, %q) = %v, want %v", c.h.Name(), c.args, got, c.want)
		}
	}
}

// Injected flags never conflict with the user's own.
func TestInstrumentWithOptions(t *testing.T) {
	ns := testNamespace("/ns")
	in, _ := (Claude{}).Instrument(Form{Tool: "claude", Options: []string{"--settings", "mine.json"}}, ns)
	if hasOption(in.Args, "--settings") || in.Pinned != pinned {
		t.Errorf("claude with the user's --settings: %q", in.Args)
	}
	for _, opts := range [][]string{{"-c", "notify=[\"x\"]"}, {"--config", "notify = []"}, {"--config=notify=[]"}, {"-cnotify=[]"}} {
		in, _ := (Codex{}).Instrument(Form{Tool: "codex", Options: opts}, ns)
		if len(in.Args) != 0 {
			t.Errorf("codex with the user's notify %q got %q", opts, in.Args)
		}
	}
	in, _ = (Codex{}).Instrument(Form{Tool: "codex", Options: []string{"-c", "model=\"o3\""}}, ns)
	if len(in.Args) != 2 {
		t.Errorf("codex with another -c lost its notify override: %q", in.Args)
	}
}

// The printed line, evaluated by a real shell, gives back exactly the argv.
func TestResumeLineEvalWithOptions(t *testing.T) {
	opts := Surviving(Claude{}, []string{"--permission-mode", "acceptEdits", "--append-system-prompt",
		"it's \"quoted\" $HOME `id` \\ * ünï\nline", "--model=opus", "--resume", other, "-x", "'"})
	line, err := ResumeLine(Claude{}, "claude", uid, opts)
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
