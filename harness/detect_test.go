package harness

import (
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

const uid = "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"

func TestValidID(t *testing.T) {
	cases := map[string]bool{
		uid:                                    true,
		"00000000-0000-0000-0000-000000000000": true,
		strings.ToUpper(uid):                   false,
		"0F8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e": false,
		"{" + uid + "}":                        false,
		"urn:uuid:" + uid:                      false,
		" " + uid:                              false,
		uid + " ":                              false,
		uid + "\n":                             false,
		uid + "0":                              false,
		uid[:35]:                               false,
		strings.ReplaceAll(uid, "-", ""):       false,
		"0f8b2c3e_4d5a-4b6c-8d7e-9f0a1b2c3d4e": false,
		"0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4g": false,
		"0f8b2c3e-4d5a4-b6c-8d7e-9f0a1b2c3d4e": false,
		"":                                     false,
		"../../../../tmp/pwn":                  false,
		"0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4\x00": false,
	}
	for in, want := range cases {
		if got := safe.UUID(in); got != want {
			t.Errorf("safe.UUID(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestIDTime(t *testing.T) {
	at := time.Date(2026, 11, 30, 6, 51, 52, 123e6, time.UTC)
	ms, ok := safe.UUIDTime(v7At(at))
	if !ok || ms != at.UnixMilli() {
		t.Fatalf("safe.UUIDTime(v7) = %d, %v; want %d", ms, ok, at.UnixMilli())
	}
	if _, ok := safe.UUIDTime(uid); ok {
		t.Fatal("idTime accepted a v4 ID")
	}
}

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
		h, _ := testLookup(baseName(c.argv[0]))
		f, ok := DetectArgv(h, c.argv)
		if ok != c.ok || f.Tool != c.tool || f.Resume != c.resume {
			t.Errorf("DetectArgv(%q) = %+v, %v; want tool %q resume %q ok %v", c.argv, f, ok, c.tool, c.resume, c.ok)
		}
		if ok && f.Program != c.argv[0] {
			t.Errorf("DetectArgv(%q) program = %q, want it as typed", c.argv, f.Program)
		}
	}
	// A shim reached under another name never accepts.
	if _, ok := DetectArgv(claudeA(), []string{"claudex"}); ok {
		t.Error("DetectArgv accepted claudex as claude")
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
		h, f, ok := DetectCommand(c.cmd, testLookup)
		if ok != c.ok || f.Tool != c.tool || f.Resume != c.resume || f.Program != c.program {
			t.Errorf("DetectCommand(%q) = %+v, %v; want tool %q resume %q program %q ok %v",
				c.cmd, f, ok, c.tool, c.resume, c.program, c.ok)
		}
		if ok && h.Name != c.tool {
			t.Errorf("DetectCommand(%q) harness = %s", c.cmd, h.Name)
		}
	}
}

func BenchmarkDetectArgv(b *testing.B) {
	argv := []string{"claude", "--resume", uid}
	h := claudeA()
	for b.Loop() {
		DetectArgv(h, argv)
	}
}

func BenchmarkDetectArgvOpaque(b *testing.B) {
	argv := []string{"claude", "-p", "explain this repository", "--model", "opus"}
	h := claudeA()
	for b.Loop() {
		DetectArgv(h, argv)
	}
}

func BenchmarkDetectCommand(b *testing.B) {
	cmd := "/usr/local/bin/codex resume '" + uid + "'"
	for b.Loop() {
		DetectCommand(cmd, testLookup)
	}
}
