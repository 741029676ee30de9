package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"

	"github.com/fleetcom/fleetcom/internal/safe"
)

const pinned = "11111111-2222-4333-8444-555555555555"

func testNamespace(dir string) Run {
	return Run{
		Assets: map[string]string{
			codexNotifyAsset: filepath.Join(dir, codexNotifyAsset),
		},
		Capture: filepath.Join(dir, "task-1-1.json"),
		NewID:   func() (string, error) { return pinned, nil },
	}
}

// codexHomeWith makes a Codex home whose config.toml holds config ("" for
// none).
func codexHomeWith(t *testing.T, config string) string {
	t.Helper()
	home := t.TempDir()
	if config != "" {
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func TestInstrument(t *testing.T) {
	ns := testNamespace("/run/fc/12-ab")
	ns.Home = codexHomeWith(t, "")
	capture := EnvCapture + "=/run/fc/12-ab/task-1-1.json"
	chained := ns
	chained.Home = codexHomeWith(t, `notify = ["notify-send", "codex done"]`)
	refused := ns
	refused.Home = codexHomeWith(t, "notify = [\n\"notify-send\"\n]\n")
	hooksOff := ns
	hooksOff.Hooks = HooksOff
	trusted := ns
	trusted.Home = codexHomeWith(t, codexTrustedHooks)
	trustedOff := trusted
	trustedOff.Hooks = HooksOff
	hooksOn := ns
	hooksOn.Hooks = HooksOn
	refusedTrusted := ns
	refusedTrusted.Home = codexHomeWith(t, "notify = [\n\"notify-send\"\n]\n"+codexTrustedHooks)
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
		{"codex trusted hooks", codexA(), Form{Tool: "codex"}, trusted, Instrumentation{
			Args:   append([]string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`}, codexHookArgs()...),
			Env:    []string{capture, EnvNotifyChain + "="},
			States: true}},
		{"codex hooks asked for", codexA(), Form{Tool: "codex", Resume: uid}, hooksOn, Instrumentation{
			Args:   append([]string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`}, codexHookArgs()...),
			Env:    []string{capture, EnvNotifyChain + "="},
			Pinned: uid, States: true}},
		{"codex trusted, hooks off", codexA(), Form{Tool: "codex"}, trustedOff, Instrumentation{
			Args: []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:  []string{capture, EnvNotifyChain + "="}}},
		{"codex user's own hooks", codexA(), Form{Tool: "codex", Options: []string{"-c", "hooks.Stop=[]"}}, trusted, Instrumentation{
			Args: []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:  []string{capture, EnvNotifyChain + "="}}},
		{"codex route left alone, hooks trusted", codexA(), Form{Tool: "codex"}, refusedTrusted, Instrumentation{
			Args: codexHookArgs(), Env: []string{capture}, States: true}},
		{"codex bare", codexA(), Form{Tool: "codex"}, ns, Instrumentation{
			Args: []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:  []string{capture, EnvNotifyChain + "="}}},
		{"codex resume", codexA(), Form{Tool: "codex", Resume: uid}, ns, Instrumentation{
			Args:   []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:    []string{capture, EnvNotifyChain + "="},
			Pinned: uid}},
		{"codex chained", codexA(), Form{Tool: "codex"}, chained, Instrumentation{
			Args: []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:  []string{capture, EnvNotifyChain + "=notify-send\ncodex done"}}},
		{"codex route left alone", codexA(), Form{Tool: "codex"}, refused, Instrumentation{}},
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

// The notify override is TOML: whatever the runtime path holds, Codex must
// decode exactly that path back.
func TestCodexNotifyOverrideDecodes(t *testing.T) {
	paths := []string{
		"/run/user/1000/fleetcom/12-ab/codex-notify.sh",
		"/tmp/with space/codex-notify.sh",
		`/tmp/quote"and'apostrophe/codex-notify.sh`,
		`/tmp/back\slash\\double/codex-notify.sh`,
		"/tmp/ünïcødé/日本/codex-notify.sh",
		"/tmp/tab\there/new\nline/codex-notify.sh",
		"/tmp/$HOME/`x`/codex-notify.sh",
		"/tmp/\x7f\x01/codex-notify.sh",
		"/tmp/#not-a-comment]/codex-notify.sh",
	}
	for _, p := range paths {
		var v struct{ Notify []string }
		if err := toml.Unmarshal([]byte(CodexNotifyOverride(p)), &v); err != nil {
			t.Errorf("override for %q does not decode: %v", p, err)
			continue
		}
		if len(v.Notify) != 1 || v.Notify[0] != p {
			t.Errorf("override for %q decodes to %q", p, v.Notify)
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
