package harness

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Injected flags never conflict with the user's own.
func TestInstrumentWithOptions(t *testing.T) {
	ns := testNamespace("/ns")
	in, _ := (claudeA()).Instrument(Form{Tool: "claude", Options: []string{"--settings", "mine.json"}}, ns)
	if HasOption(in.Args, "--settings") || in.Pinned != pinned {
		t.Errorf("claude with the user's --settings: %q", in.Args)
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
