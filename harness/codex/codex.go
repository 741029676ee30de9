// Package codex is fleetcom's knowledge of OpenAI's Codex CLI: its Spec
// and Behaviour, the notifier and the hooks a run is given (notify.go,
// notifyscript.go, hooks.go), its rollouts (store.go), discovery through an
// index of them (find.go, index.go, indexfile.go), thread names (name.go)
// and moves (move.go). It exports one value, Agent, which the list
// (harness/agents) names.
package codex

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// spec describes the Codex CLI. Codex picks its own thread ID, so both
// accepted forms get a notify override instead of a pinned ID: after each turn
// the notifier copies the JSON payload into the capture file, then runs the
// user's own notifier.
var spec = harness.Spec{
	Name:    "codex",
	Display: "Codex",
	HomeVar: "CODEX_HOME",
	HomeDir: ".codex",
	ID:      &harness.UUID,
	Resume:  harness.Spelling{Words: []string{"resume"}},
	// resume, fork and exec are subcommands: bare words, which the second
	// survival rule drops with the ID or prompt after them.
	Dropped: []string{"--last"},
	// A config override can set a notifier, hooks, an MCP server's command
	// or the shell's environment.
	Commands: []string{"-c notify", "-c hooks", "-c mcp_servers", "-c shell_environment_policy", "-c profiles",
		"--config notify", "--config hooks", "--config mcp_servers", "--config shell_environment_policy", "--config profiles"},
	// Stable: Codex may start the notifier for a turn that ends just as the
	// user quits, after the shim has removed the run's namespace.
	Assets:  []harness.Asset{{Name: notifyAsset, Mode: 0o700, Data: []byte(notifyScript), Stable: true}},
	Proven:  []string{"0.171.0"},
	Banners: []string{"To continue this session, run:", "To reconnect, run:"},
	Widening: []harness.Widener{
		{Option: "--dangerously-bypass-approvals-and-sandbox"}, {Option: "--yolo"},
		{Option: "--full-auto"},
		{Option: "--dangerously-bypass-hook-trust"},
		{Option: "--sandbox", Values: []string{"danger-full-access"}},
		{Option: "-s", Values: []string{"danger-full-access"}},
		{Option: "--ask-for-approval", Values: []string{"never"}},
		{Option: "-a", Values: []string{"never"}},
		{Option: "--config", Values: []string{"approval_policy=never", "sandbox_mode=danger-full-access"}},
		{Option: "-c", Values: []string{"approval_policy=never", "sandbox_mode=danger-full-access"}},
	},
	Naming: "a Codex thread name",
}

// Agent is OpenAI's Codex CLI.
var Agent = harness.Agent{Spec: &spec, Behaviour: codex{}}

type codex struct{}

// The capabilities codex has: a method that drifts from its interface
// fails the build here instead of quietly dropping the capability.
var _ interface {
	harness.Behaviour
	harness.Capturer
	harness.Correlator
	harness.Titler
	harness.Excerpter
	harness.Finder
	harness.Mover
	harness.Diagnoser
	harness.Namer
	harness.Indexer
	harness.Brancher
} = codex{}

// notifyAsset is the notifier's file name in a capture namespace.
const notifyAsset = "codex-notify.sh"

// Instrument implements Behaviour. The overrides are global options, placed
// before the resume subcommand. When the user's notify setting cannot be
// carried exactly, no notify override is injected and their route stays as
// configured. The hooks (hooks.go) go in when the user trusted them or
// asked for them, and never over hooks of the user's own launch options.
func (codex) Instrument(f harness.Form, run harness.Run) (harness.Instrumentation, error) {
	if f.Resume != "" {
		if err := spec.ValidateID(f.Resume); err != nil {
			return harness.Instrumentation{}, err
		}
	}
	in := harness.Instrumentation{Pinned: f.Resume}
	plan, trusted := configPlan(run.Home)
	if plan.Inject && !setsConfig(f.Options, "notify") {
		in.Args = []string{"-c", notifyOverride(run.Assets[notifyAsset])}
		in.Env = append(run.CaptureEnv(), harness.EnvNotifyChain+"="+notifyChainEnv(plan.Chain))
	}
	if (run.Hooks == harness.HooksOn || run.Hooks == harness.HooksAuto && trusted) && !setsConfig(f.Options, "hooks") {
		in.Args = append(in.Args, hookArgs()...)
		if in.Env == nil {
			in.Env = run.CaptureEnv()
		}
		in.States = true
	}
	return in, nil
}

// Diagnose implements Diagnoser: which notify case applies to the user, and
// whether Codex runs fleetcom's hooks.
func (codex) Diagnose(home string) []harness.Note {
	plan, trusted := configPlan(home)
	hooks := harness.Note{Name: "codex.hooks", OK: trusted,
		Detail: "fleetcom's hooks are trusted: codex reports its live state (working, waiting, needs-you) through them"}
	if !trusted {
		hooks.Detail = "fleetcom's hooks are not trusted in codex yet: its live state (needs-you too) comes from " +
			"what codex writes on its terminal, and a new conversation is named once its first turn ends; " +
			"to name it at its first prompt, set hooks = true under [codex] in fleetcom's config.toml " +
			"and choose to trust them when codex asks, once"
	}
	return []harness.Note{{Name: "codex.notify", OK: plan.Inject, Detail: plan.Case}, hooks}
}

// setsConfig reports a user's own `-c key=…` (or `-c key.sub=…`) among
// launch options: theirs wins, and fleetcom then adds no override of its own
// for that key.
func setsConfig(args []string, key string) bool {
	for i, a := range args {
		v, ok := "", false
		switch {
		case a == "-c" || a == "--config":
			if i+1 < len(args) {
				v, ok = args[i+1], true
			}
		case strings.HasPrefix(a, "--config="):
			v, ok = strings.TrimPrefix(a, "--config="), true
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			v, ok = a[2:], true
		}
		name := strings.TrimSpace(strings.SplitN(v, "=", 2)[0])
		if ok && (name == key || strings.HasPrefix(name, key+".")) {
			return true
		}
	}
	return false
}

// notifyOverride is the `-c` value that points Codex's notify at script:
// a TOML array holding one basic string, escaped so that any path (spaces,
// quotes, backslashes, non-ASCII, control characters) survives decoding.
func notifyOverride(script string) string {
	return "notify=[" + tomlString(script) + "]"
}

// tomlString writes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)) + h)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// payload is the part of a notify payload, or of a SessionStart hook
// payload, fleetcom reads.
type payload struct {
	Type      string `json:"type"`
	ThreadID  string `json:"thread-id"`
	Event     string `json:"hook_event_name"`
	SessionID string `json:"session_id"`
}

// ParseCapture implements Capturer: the latest notified or started thread
// whose rollout exists and is not a subagent's. The TUI's first turn also
// notifies for a title-generation side thread that never gets a rollout.
func (codex) ParseCapture(data []byte, c harness.Capture) string {
	var ids []string
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		var p payload
		if len(line) == 0 || json.Unmarshal(line, &p) != nil {
			continue
		}
		switch {
		case p.Type == "agent-turn-complete" && spec.ID.Valid(p.ThreadID):
			ids = append(ids, p.ThreadID)
		case p.Event == "SessionStart" && spec.ID.Valid(p.SessionID):
			ids = append(ids, p.SessionID)
		}
	}
	checked := map[string]bool{}
	for i := len(ids) - 1; i >= 0; i-- {
		id := ids[i]
		if checked[id] {
			continue
		}
		checked[id] = true
		if _, meta, ok := findRollout(c.Home, id); ok && !meta.subagent() {
			return id
		}
	}
	return ""
}

// Codex's exit hints: `codex resume <id>` from the "To continue this
// session, run:" or "To reconnect, run:" blocks, and the older
// `codex resume, then select <name> (<id>)`.
var (
	hint       = harness.Hint{Spec: &spec, Words: [][]string{{"resume"}}}
	selectHint = harness.Hint{Spec: &spec, Words: [][]string{{"resume,"}, {"then"}, {"select"}}, ReadID: lastParenID}
)

// ScrapeExit implements Behaviour: whichever of the two hint shapes comes last.
func (codex) ScrapeExit(tail []byte) string {
	return harness.ScrapeTail(tail, func(text []byte) string {
		id, at := hint.LastAt(text)
		if old, oldAt := selectHint.LastAt(text); oldAt > at {
			id = old
		}
		return id
	})
}

// lastParenID reads the ID in the last parentheses of the line from p: the
// selection name before it may hold anything but a line break, parentheses
// included.
func lastParenID(text []byte, p int, valid func(string) bool) string {
	line := text[p:]
	if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	j := bytes.LastIndexByte(line, '(')
	if j < 0 || j+1+safe.UUIDLen >= len(line) || line[j+1+safe.UUIDLen] != ')' {
		return ""
	}
	if id := string(line[j+1 : j+1+safe.UUIDLen]); valid(id) {
		return id
	}
	return ""
}
