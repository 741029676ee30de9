package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/harnesstest"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// testRun is what a run gets: the notifier asset and the capture file in
// dir, and a fixed pinned ID.
func testRun(dir string) harness.Run {
	return harness.Run{
		Assets:  map[string]string{notifyAsset: filepath.Join(dir, notifyAsset)},
		Capture: filepath.Join(dir, "task-1-1.json"),
		NewID:   func() (string, error) { return pinned, nil },
	}
}

// writeRollout writes a Codex rollout for id in the local-time day directory of
// its v7 timestamp.
func writeRollout(t testing.TB, home, id, cwd string, subagent bool, prompt string) string {
	t.Helper()
	ms, ok := safe.UUIDTime(id)
	if !ok {
		ms = time.Now().UnixMilli()
	}
	at := time.UnixMilli(ms).Local()
	name := fmt.Sprintf("rollout-%s-%s.jsonl", at.Format("2006-01-02T15-04-05"), id)
	path := filepath.Join(dayDir(home, at), name)
	source := "user"
	if subagent {
		source = "subagent"
	}
	data := harnesstest.JSONLine(t, map[string]any{"timestamp": at.UTC().Format(time.RFC3339Nano), "type": "session_meta",
		"payload": map[string]any{"id": id, "session_id": id, "timestamp": at.UTC().Format(time.RFC3339Nano),
			"cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.171.0", "source": "cli", "thread_source": source}})
	if prompt != "" {
		data += harnesstest.JSONLine(t, map[string]any{"type": "response_item", "payload": map[string]any{"type": "message", "role": "user",
			"content": []any{map[string]any{"type": "input_text", "text": "<environment_context>cwd</environment_context>"}}}})
		data += harnesstest.JSONLine(t, map[string]any{"type": "event_msg", "payload": map[string]any{"type": "user_message", "message": prompt}})
	}
	harnesstest.WriteFile(t, path, data)
	return path
}

func notifyPayload(id string) string {
	return `{"type":"agent-turn-complete","thread-id":"` + id + `","turn-id":"t1","cwd":"/w","client":"codex-tui",` +
		`"input-messages":["hi"],"last-assistant-message":"ACK $(rm -rf ~)"}`
}

func TestParseCapture(t *testing.T) {
	home := t.TempDir()
	now := time.Now()
	main := harnesstest.V7At(now)
	side := harnesstest.V7At(now.Add(time.Second)) // title-generation thread: no rollout
	sub := harnesstest.V7At(now.Add(2 * time.Second))
	later := harnesstest.V7At(now.Add(3 * time.Second))
	sideLater := harnesstest.V7At(now.Add(4 * time.Second)) // later's title thread
	writeRollout(t, home, main, "/w", false, "hello")
	writeRollout(t, home, sub, "/w", true, "")
	writeRollout(t, home, later, "/w", false, "again")
	cases := []struct {
		name, data, want string
	}{
		{"empty", "", ""},
		{"first turn notifies twice", notifyPayload(main) + "\n" + notifyPayload(side) + "\n", main},
		// Under load the title thread can finish first (measured): the
		// order of the two says nothing.
		{"title thread first", notifyPayload(side) + "\n" + notifyPayload(main) + "\n", main},
		{"title thread first after a switch", notifyPayload(main) + "\n" + notifyPayload(side) + "\n" + notifyPayload(sideLater) + "\n" + notifyPayload(later) + "\n", later},
		{"title thread last after a switch", notifyPayload(main) + "\n" + notifyPayload(later) + "\n" + notifyPayload(sideLater) + "\n", later},
		{"subagent thread skipped", notifyPayload(main) + "\n" + notifyPayload(sub) + "\n", main},
		{"switched thread followed", notifyPayload(main) + "\n" + notifyPayload(side) + "\n" + notifyPayload(later) + "\n", later},
		{"only the side thread", notifyPayload(side) + "\n", ""},
		{"other types ignored", `{"type":"approval-requested","thread-id":"` + later + `"}` + "\n" + notifyPayload(main), main},
		{"uppercase ignored", notifyPayload(main) + "\n" + notifyPayload(strings.ToUpper(later)) + "\n", main},
		{"garbage", "\x00garbage\n" + notifyPayload(main) + "\n{", main},
	}
	for _, c := range cases {
		if got := (Agent).ParseCapture([]byte(c.data), harness.Capture{Home: home}); got != c.want {
			t.Errorf("%s: ParseCapture = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestName(t *testing.T) {
	home := t.TempDir()
	a := Agent
	id, other := harnesstest.UUID(t), harnesstest.UUID(t)
	index := filepath.Join(home, "session_index.jsonl")
	if got := a.ConversationName(home, "", id); got != "" {
		t.Errorf("no index: %q", got)
	}
	line := func(id, name string) string {
		return harnesstest.JSONLine(t, map[string]any{"id": id, "thread_name": name, "updated_at": "2026-12-01T21:37:02.375644364Z"})
	}
	// Codex names the thread after its first turn, then /rename appends.
	harnesstest.WriteFile(t, index, line(id, "Fake session title")+line(other, "other work"))
	if got := a.ConversationName(home, "", id); got != "Fake session title" {
		t.Errorf("generated: %q", got)
	}
	harnesstest.AppendFile(t, index, line(id, "heron work")+"{not json\n"+line("../../etc", "evil"))
	if got := a.ConversationName(home, "", id); got != "heron work" {
		t.Errorf("renamed: %q, want the last line's name", got)
	}
	if got := a.ConversationName(home, "", other); got != "other work" {
		t.Errorf("other: %q", got)
	}
	if got := a.ConversationName(home, "", "../../etc"); got != "" {
		t.Errorf("an invalid ID has a name: %q", got)
	}
}

// homeWith makes a Codex home whose config.toml holds config ("" for
// none).
func homeWith(t *testing.T, config string) string {
	t.Helper()
	home := t.TempDir()
	if config != "" {
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// The notify override is TOML: whatever the runtime path holds, Codex must
// decode exactly that path back.
func TestNotifyOverrideDecodes(t *testing.T) {
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
		if err := toml.Unmarshal([]byte(notifyOverride(p)), &v); err != nil {
			t.Errorf("override for %q does not decode: %v", p, err)
			continue
		}
		if len(v.Notify) != 1 || v.Notify[0] != p {
			t.Errorf("override for %q decodes to %q", p, v.Notify)
		}
	}
}

// Codex's last activity is its rollout's last dated line (issue 21, item
// 12).
func TestLastActive(t *testing.T) {
	cwd := "/work/proj"
	when := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	codexHome := t.TempDir()
	v7 := harnesstest.V7At(when)
	rollout := writeRollout(t, codexHome, v7, cwd, false, "hello")
	f, _ := os.OpenFile(rollout, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(harnesstest.JSONLine(t, map[string]any{"timestamp": "2026-11-21T09:30:00.250Z", "type": "event_msg", "payload": map[string]any{"type": "agent_message", "message": "bye"}}))
	f.Close()
	if got, want := harness.LastActive(Agent, codexHome, cwd, v7), time.Date(2026, 11, 21, 9, 30, 0, 250e6, time.UTC); !got.Equal(want) {
		t.Errorf("codex: %v, want %v", got, want)
	}
}

func TestInstrument(t *testing.T) {
	ns := testRun("/run/fc/12-ab")
	ns.Home = homeWith(t, "")
	capture := harness.EnvCapture + "=/run/fc/12-ab/task-1-1.json"
	chained := ns
	chained.Home = homeWith(t, `notify = ["notify-send", "codex done"]`)
	refused := ns
	refused.Home = homeWith(t, "notify = [\n\"notify-send\"\n]\n")
	trusted := ns
	trusted.Home = homeWith(t, trustedHooks)
	trustedOff := trusted
	trustedOff.Hooks = harness.HooksOff
	hooksOn := ns
	hooksOn.Hooks = harness.HooksOn
	refusedTrusted := ns
	refusedTrusted.Home = homeWith(t, "notify = [\n\"notify-send\"\n]\n"+trustedHooks)
	cases := []struct {
		name string
		f    harness.Form
		ns   harness.Run
		want harness.Instrumentation
	}{
		{"codex trusted hooks", harness.Form{Tool: "codex"}, trusted, harness.Instrumentation{
			Args:   append([]string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`}, hookArgs()...),
			Env:    []string{capture, harness.EnvNotifyChain + "="},
			States: true}},
		{"codex hooks asked for", harness.Form{Tool: "codex", Resume: uid}, hooksOn, harness.Instrumentation{
			Args:   append([]string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`}, hookArgs()...),
			Env:    []string{capture, harness.EnvNotifyChain + "="},
			Pinned: uid, States: true}},
		{"codex trusted, hooks off", harness.Form{Tool: "codex"}, trustedOff, harness.Instrumentation{
			Args: []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:  []string{capture, harness.EnvNotifyChain + "="}}},
		{"codex user's own hooks", harness.Form{Tool: "codex", Options: []string{"-c", "hooks.Stop=[]"}}, trusted, harness.Instrumentation{
			Args: []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:  []string{capture, harness.EnvNotifyChain + "="}}},
		{"codex route left alone, hooks trusted", harness.Form{Tool: "codex"}, refusedTrusted, harness.Instrumentation{
			Args: hookArgs(), Env: []string{capture}, States: true}},
		{"codex bare", harness.Form{Tool: "codex"}, ns, harness.Instrumentation{
			Args: []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:  []string{capture, harness.EnvNotifyChain + "="}}},
		{"codex resume", harness.Form{Tool: "codex", Resume: uid}, ns, harness.Instrumentation{
			Args:   []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:    []string{capture, harness.EnvNotifyChain + "="},
			Pinned: uid}},
		{"codex chained", harness.Form{Tool: "codex"}, chained, harness.Instrumentation{
			Args: []string{"-c", `notify=["/run/fc/12-ab/codex-notify.sh"]`},
			Env:  []string{capture, harness.EnvNotifyChain + "=notify-send\ncodex done"}}},
		{"codex route left alone", harness.Form{Tool: "codex"}, refused, harness.Instrumentation{}},
	}
	for _, c := range cases {
		got, err := Agent.Instrument(c.f, c.ns)
		if diff := cmp.Diff(c.want, got); err != nil || diff != "" {
			t.Errorf("%s: %v, instrumentation (-want +got):\n%s", c.name, err, diff)
		}
	}
}

// Injected flags never conflict with the user's own.
func TestInstrumentWithOptions(t *testing.T) {
	ns := testRun("/ns")
	ns.Home = homeWith(t, "")
	for _, opts := range [][]string{{"-c", "notify=[\"x\"]"}, {"--config", "notify = []"}, {"--config=notify=[]"}, {"-cnotify=[]"}} {
		in, _ := (Agent).Instrument(harness.Form{Tool: "codex", Options: opts}, ns)
		if len(in.Args) != 0 {
			t.Errorf("codex with the user's notify %q got %q", opts, in.Args)
		}
	}
	in, _ := (Agent).Instrument(harness.Form{Tool: "codex", Options: []string{"-c", "model=\"o3\""}}, ns)
	if len(in.Args) != 2 {
		t.Errorf("codex with another -c lost its notify override: %q", in.Args)
	}
}

func TestScrapeExit(t *testing.T) {
	const (
		esc = "\x1b"
		rst = esc + "[0m"
	)
	cases := []struct{ name, tail, want string }{
		{"codex continue block", "To continue this session, run:\r\n  codex resume " + uid + "\r\nOr run codex resume and select swift-otter.\r\n", uid},
		{"codex reconnect block", "To reconnect, run:\n  " + esc + "[1mcodex resume " + uid + rst + "\n", uid},
		{"codex old select form", "codex resume, then select swift otter (" + uid + ")\n", uid},
		{"codex old form name with parens", "codex resume, then select fix (the) bug (" + uid + ")\n", uid},
		{"codex last of both forms", "codex resume, then select a (" + other + ")\ncodex resume " + uid + "\n", uid},
		{"codex old form last", "codex resume " + other + "\ncodex resume, then select a (" + uid + ")\n", uid},
		{"codex session id line only", "Session ID: " + uid + "\n", ""},
		{"codex resume --last", "codex resume --last\n", ""},
		{"codex never takes claude's", "claude --resume " + uid + "\n", ""},
		{"codex uppercase", "codex resume " + strings.ToUpper(uid) + "\n", ""},
	}
	for _, c := range cases {
		if got := Agent.ScrapeExit([]byte(c.tail)); got != c.want {
			t.Errorf("%s: ScrapeExit = %q, want %q (plain %q)", c.name, got, c.want, harness.PlainText([]byte(c.tail)))
		}
	}
}

// The IDs the tests name.
const uid, other, pinned = harnesstest.UID, harnesstest.Other, harnesstest.Pinned

// Codex records the checkout in session_meta's git (measured on 0.171.0,
// in a worktree); a rollout outside a repository has none.
func TestBranch(t *testing.T) {
	home, cwd := t.TempDir(), "/src/app-login"
	id := harnesstest.UUID(t)
	meta := `{"timestamp":"2026-12-06T10:09:53.345Z","ordinal":0,"type":"session_meta","payload":{"account_scoped":true,` +
		`"session_id":"` + id + `","id":"` + id + `","timestamp":"2026-12-06T10:09:53.345Z","cwd":"` + cwd + `",` +
		`"originator":"codex_exec","cli_version":"0.171.0","source":"exec","thread_source":"user","model_provider":"fake",` +
		`"git":{"commit_hash":"6db1fd6ac5830cb47d7ff34e15e1736b4082420b","branch":"wt/branch"}}}` + "\n"
	at := time.Now()
	harnesstest.WriteFile(t, filepath.Join(dayDir(home, at), "rollout-"+at.Format("2006-01-02T15-04-05")+"-"+id+".jsonl"), meta)
	if got := Agent.Branch(home, cwd, id); got != "wt/branch" {
		t.Errorf("Branch = %q, want wt/branch", got)
	}
	if got := Agent.Branch(home, "/elsewhere", id); got != "" {
		t.Errorf("Branch of another directory = %q", got)
	}
	plain := harnesstest.UUID(t)
	writeRollout(t, home, plain, cwd, false, "hello")
	if got := Agent.Branch(home, cwd, plain); got != "" {
		t.Errorf("Branch outside a repository = %q", got)
	}
}
