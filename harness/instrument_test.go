package harness

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/internal/safe"
)

const pinned = "11111111-2222-4333-8444-555555555555"

func testNamespace(dir string) Run {
	return Run{
		Capture: filepath.Join(dir, "task-1-1.json"),
		NewID:   func() (string, error) { return pinned, nil },
	}
}

func TestInstrument(t *testing.T) {
	ns := testNamespace("/run/fc/12-ab")
	capture := EnvCapture + "=/run/fc/12-ab/task-1-1.json"
	hooksOff := ns
	hooksOff.Hooks = HooksOff
	cases := []struct {
		name string
		h    Agent
		f    Form
		ns   Run
		want Instrumentation
	}{
		{"claude bare", claudeA(), Form{Tool: "claude"}, ns, Instrumentation{
			Args:   []string{"--session-id", pinned, "--settings", claudeInlineSettings()},
			Env:    []string{capture},
			Pinned: pinned, States: true}},
		{"claude resume", claudeA(), Form{Tool: "claude", Resume: uid}, ns, Instrumentation{
			Args:   []string{"--settings", claudeInlineSettings()},
			Env:    []string{capture},
			Pinned: uid, States: true}},
		{"claude hooks off", claudeA(), Form{Tool: "claude"}, hooksOff, Instrumentation{
			Args:   []string{"--session-id", pinned, "--settings", claudeCaptureSettings},
			Env:    []string{capture},
			Pinned: pinned}},
	}
	for _, c := range cases {
		got, err := c.h.Instrument(c.f, c.ns)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: instrumentation (-want +got):\n%s", c.name, diff)
		}
	}
}

// The quoting is proven by a real shell: each word comes back exactly.
func TestQuoteInShell(t *testing.T) {
	words := []string{"plain", "with space", "it's", `"double"`, "$HOME", "`id`", "a\\b", "*", "~", "#x",
		"new\nline", "ünï", "", "-n", "--x=y z", "'", "''", "a'b'c"}
	var line strings.Builder
	line.WriteString("printf '%s\\0'")
	for _, w := range words {
		line.WriteString(" " + safe.Quote(w))
	}
	for _, shell := range []string{"sh", "bash"} {
		out, err := exec.Command(shell, "-c", line.String()).Output()
		if err != nil {
			t.Fatalf("%s: %v", shell, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if diff := cmp.Diff(words, got); diff != "" {
			t.Errorf("%s: words (-want +got):\n%s", shell, diff)
		}
	}
}

// InstrumentCommand puts the arguments right after the program word, each
// quoted, and leaves every other byte of the command as it was.
func TestInstrumentCommand(t *testing.T) {
	fake := Agent{Spec: &Spec{Name: "fake", ID: &UUID, Resume: Spelling{Words: []string{"resume"}}}}
	named := func(name string) (Agent, bool) { return fake, name == "fake" }
	notify := []string{"-c", `notify=["/tmp/fc dir/1-a/notify.sh"]`}
	cases := []struct {
		cmd  string
		args []string
		want string
	}{
		{"fake", []string{"--session-id", pinned}, "fake --session-id " + pinned},
		{"/opt/fake  resume '" + uid + "'", []string{"--settings", `{"a": "it's"}`},
			"/opt/fake --settings '{\"a\": \"it'\"'\"'s\"}'  resume '" + uid + "'"},
		{"fake resume " + uid, notify, "fake -c 'notify=[\"/tmp/fc dir/1-a/notify.sh\"]' resume " + uid},
		{"fake resume " + uid, nil, "fake resume " + uid},
		{"  fake ", []string{"--session-id", pinned}, "  fake --session-id " + pinned + " "},
	}
	for _, c := range cases {
		_, f, ok := DetectCommand(c.cmd, named)
		if !ok {
			t.Fatalf("%q not accepted", c.cmd)
		}
		if got := InstrumentCommand(c.cmd, f, Instrumentation{Args: c.args}); got != c.want {
			t.Errorf("InstrumentCommand(%q) = %q, want %q", c.cmd, got, c.want)
		}
	}
}
