package harness

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/internal/safe"
)

const pinned = harnesstest.Pinned

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
