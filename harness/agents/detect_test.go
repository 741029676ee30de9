package agents

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fleetcom/fleetcom/harness"
)

// The accepted forms, as the agents of the list spell them: the detection
// rules of harness over the real resume spellings.

func TestDetectArgv(t *testing.T) {
	cases := []struct {
		argv   []string
		ok     bool
		tool   string
		resume string
	}{
		{[]string{"claude"}, true, "claude", ""},
		{[]string{"claude", "--resume", uid}, true, "claude", uid},
		{[]string{"/usr/local/bin/claude", "--resume", uid}, true, "claude", uid},
		{[]string{"codex"}, true, "codex", ""},
		{[]string{"codex", "resume", uid}, true, "codex", uid},
		{[]string{"grok"}, true, "grok", ""},
		{[]string{"grok", "--resume", uid}, true, "grok", uid},
		{[]string{"grok", "-r", uid}, false, "", ""},
		{[]string{"claude", "-r", uid}, false, "", ""},
		{[]string{"claude", "--resume", strings.ToUpper(uid)}, false, "", ""},
		{[]string{"claude", "--resume", uid[:8]}, false, "", ""},
		{[]string{"claude", "--resume", "{" + uid + "}"}, false, "", ""},
		{[]string{"claude", "--resume", "'" + uid + "'"}, false, "", ""},
		{[]string{"claude", "--resume", `"` + uid + `"`}, false, "", ""},
		{[]string{"claude", "--resume", uid, "extra"}, false, "", ""},
		{[]string{"claude", "--resume", uid, ""}, false, "", ""},
		{[]string{"claude", "--model", "opus", "--resume", uid}, false, "", ""},
		{[]string{"claude", "--resume", uid, "--model", "opus"}, false, "", ""},
		{[]string{"claude", "-p", "hi"}, false, "", ""},
		{[]string{"claude", ""}, false, "", ""},
		{[]string{"claude", "--resume"}, false, "", ""},
		{[]string{"codex", "resume", "--last"}, false, "", ""},
		{[]string{"codex", "exec", "hi"}, false, "", ""},
		{[]string{"codex", "--resume", uid}, false, "", ""},
		{[]string{"codex", "fork", uid}, false, "", ""},
		{[]string{"claude", "resume", uid}, false, "", ""},
	}
	for _, c := range cases {
		h, _ := Named(filepath.Base(c.argv[0]))
		f, ok := harness.DetectArgv(h, c.argv)
		if ok != c.ok || f.Tool != c.tool || f.Resume != c.resume {
			t.Errorf("harness.DetectArgv(%q) = %+v, %v; want tool %q resume %q ok %v", c.argv, f, ok, c.tool, c.resume, c.ok)
		}
		if ok && f.Program != c.argv[0] {
			t.Errorf("harness.DetectArgv(%q) program = %q, want it as typed", c.argv, f.Program)
		}
	}
	// A shim reached under another name never accepts.
	if _, ok := harness.DetectArgv(mustNamed("claude"), []string{"claudex"}); ok {
		t.Error("harness.DetectArgv accepted claudex as claude")
	}
}

func TestDetectCommand(t *testing.T) {
	cases := []struct {
		cmd     string
		ok      bool
		tool    string
		resume  string
		program string
	}{
		{"claude", true, "claude", "", "claude"},
		{"codex", true, "codex", "", "codex"},
		{"grok", true, "grok", "", "grok"},
		{"claude --resume " + uid, true, "claude", uid, "claude"},
		{"claude --resume '" + uid + "'", true, "claude", uid, "claude"},
		{"codex resume '" + uid + "'", true, "codex", uid, "codex"},
		{"grok --resume " + uid, true, "grok", uid, "grok"},
		{"/usr/local/bin/claude --resume " + uid, true, "claude", uid, "/usr/local/bin/claude"},
		{"./claude", true, "claude", "", "./claude"},
		{"  claude   --resume  " + uid + "  ", true, "claude", uid, "claude"},
		{"~/bin/claude", false, "", "", ""},
		{"claudex", false, "", "", ""},
		{"/bin/claude;rm", false, "", "", ""},
		{"/bin/claude/", false, "", "", ""},
		{"claude --resume " + strings.ToUpper(uid), false, "", "", ""},
		{"claude --resume " + uid[:30], false, "", "", ""},
		{"claude --resume {" + uid + "}", false, "", "", ""},
		{`claude --resume "` + uid + `"`, false, "", "", ""},
		{"claude --resume '" + uid + "'x", false, "", "", ""},
		{"claude --resume '" + uid, false, "", "", ""},
		{"claude --resume " + uid + " extra", false, "", "", ""},
		{"claude --model opus", false, "", "", ""},
		{"claude --model opus --resume " + uid, false, "", "", ""},
		{"claude -p hi", false, "", "", ""},
		{"codex resume --last", false, "", "", ""},
		{"codex exec hi", false, "", "", ""},
		{"grok -r " + uid, false, "", "", ""},
		{"claude; rm -rf ~", false, "", "", ""},
		{"claude && ls", false, "", "", ""},
		{"claude | tee log", false, "", "", ""},
		{"claude --resume $(cat id)", false, "", "", ""},
		{"claude --resume `cat id`", false, "", "", ""},
		{"claude > log", false, "", "", ""},
		{"claude 2>&1", false, "", "", ""},
		{"claude <in", false, "", "", ""},
		{"VAR=x claude", false, "", "", ""},
		{"x=1/claude", false, "", "", ""},
		{"claude\nrm -rf ~", false, "", "", ""},
		{"claude\t--resume\t" + uid, false, "", "", ""},
		{"claude --resume " + uid + "\n", false, "", "", ""},
		{"claude &", false, "", "", ""},
		{"(claude)", false, "", "", ""},
		{"claude #", false, "", "", ""},
		{"$HOME/claude", false, "", "", ""},
		{"", false, "", "", ""},
	}
	for _, c := range cases {
		h, f, ok := harness.DetectCommand(c.cmd, Named)
		if ok != c.ok || f.Tool != c.tool || f.Resume != c.resume || f.Program != c.program {
			t.Errorf("harness.DetectCommand(%q) = %+v, %v; want tool %q resume %q program %q ok %v",
				c.cmd, f, ok, c.tool, c.resume, c.program, c.ok)
		}
		if ok && h.Name != c.tool {
			t.Errorf("harness.DetectCommand(%q) harness = %s", c.cmd, h.Name)
		}
	}
}

func BenchmarkDetectArgv(b *testing.B) {
	argv := []string{"claude", "--resume", uid}
	h := mustNamed("claude")
	for b.Loop() {
		harness.DetectArgv(h, argv)
	}
}

func BenchmarkDetectArgvOpaque(b *testing.B) {
	argv := []string{"claude", "-p", "explain this repository", "--model", "opus"}
	h := mustNamed("claude")
	for b.Loop() {
		harness.DetectArgv(h, argv)
	}
}

func BenchmarkDetectCommand(b *testing.B) {
	cmd := "/usr/local/bin/codex resume '" + uid + "'"
	for b.Loop() {
		harness.DetectCommand(cmd, Named)
	}
}
