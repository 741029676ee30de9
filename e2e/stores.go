package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// uuidRE matches a conversation ID as the CLIs print and file it.
var uuidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// ClaudeSlug is Claude's project directory name for a short path: every
// character outside [A-Za-z0-9] becomes '-'. Long paths get a hash suffix
// this does not compute; the suite's paths stay short.
func ClaudeSlug(dir string) string {
	var b strings.Builder
	for _, r := range dir {
		if ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// Transcript is what a Claude transcript file holds, as far as the suite
// cares.
type Transcript struct {
	Path  string
	Lines int
	// Messages counts user and assistant lines: zero means the file only
	// holds metadata and Claude cannot resume it.
	Messages int
	Text     string
}

// ClaudeTranscripts returns the transcripts of the project dir, by ID.
func ClaudeTranscripts(claudeHome, dir string) map[string]Transcript {
	out := map[string]Transcript{}
	files, _ := filepath.Glob(filepath.Join(claudeHome, "projects", ClaudeSlug(dir), "*.jsonl"))
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		if !uuidRE.MatchString(id) {
			continue
		}
		tr := Transcript{Path: f}
		b, _ := os.ReadFile(f)
		tr.Text = string(b)
		forLines(b, func(line []byte) {
			tr.Lines++
			var l struct{ Type string }
			if json.Unmarshal(line, &l) == nil && (l.Type == "user" || l.Type == "assistant") {
				tr.Messages++
			}
		})
		out[id] = tr
	}
	return out
}

// Rollout is one Codex rollout file.
type Rollout struct {
	Path  string
	Lines int
	CWD   string // from the session_meta first line
	Text  string
}

// CodexRollouts returns every rollout under the Codex home, by thread ID.
func CodexRollouts(codexHome string) map[string]Rollout {
	out := map[string]Rollout{}
	filepath.WalkDir(filepath.Join(codexHome, "sessions"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(d.Name(), "rollout-") || !strings.HasSuffix(d.Name(), ".jsonl") {
			return nil
		}
		id := uuidRE.FindString(strings.TrimSuffix(d.Name(), ".jsonl")[len("rollout-2006-01-02T15-04-05-"):])
		if id == "" {
			return nil
		}
		r := Rollout{Path: p}
		b, _ := os.ReadFile(p)
		r.Text = string(b)
		forLines(b, func(line []byte) {
			r.Lines++
			if r.Lines == 1 {
				var meta struct {
					Payload struct{ CWD string } `json:"payload"`
				}
				json.Unmarshal(line, &meta)
				r.CWD = meta.Payload.CWD
			}
		})
		out[id] = r
		return nil
	})
	return out
}

func forLines(b []byte, f func([]byte)) {
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) > 0 {
			f(sc.Bytes())
		}
	}
}

// HookPayload is what Claude hands a SessionStart command hook on stdin.
type HookPayload struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	CWD            string `json:"cwd"`
	Event          string `json:"hook_event_name"`
	Source         string `json:"source"`
	Model          string `json:"model"`
}

// hookRecorder is a SessionStart hook that appends its stdin as one line.
const hookRecorder = `out="$1"
{ cat; echo; } >> "$out"
`

// ClaudeHookSettings writes a recording hook and a --settings file that runs
// it, and returns the settings path and the file the payloads land in.
func (w *World) ClaudeHookSettings() (settings, record string) {
	w.t.Helper()
	record = filepath.Join(w.Root, "hook-payloads.jsonl")
	hook := w.Script("session-start-hook", hookRecorder)
	settings = filepath.Join(w.Root, "hook-settings.json")
	w.writeJSON(settings, map[string]any{
		"hooks": map[string]any{"SessionStart": []any{map[string]any{
			"hooks": []any{map[string]any{"type": "command", "command": shellQuote(hook) + " " + shellQuote(record)}},
		}}},
	})
	return settings, record
}

// HookPayloads reads what the recording hook got, oldest first.
func HookPayloads(record string) []HookPayload {
	var out []HookPayload
	b, _ := os.ReadFile(record)
	forLines(b, func(line []byte) {
		var p HookPayload
		if json.Unmarshal(line, &p) == nil {
			out = append(out, p)
		}
	})
	return out
}

// NotifyPayload is the JSON a Codex notifier gets as its last argument.
type NotifyPayload struct {
	Type          string   `json:"type"`
	ThreadID      string   `json:"thread-id"`
	TurnID        string   `json:"turn-id"`
	CWD           string   `json:"cwd"`
	Client        string   `json:"client"`
	InputMessages []string `json:"input-messages"`
	LastMessage   string   `json:"last-assistant-message"`
}

// NotifyCall is one run of a recording notifier: its argv after the program
// name, and the payload parsed from the last element.
type NotifyCall struct {
	Args    []string      `json:"args"`
	Payload NotifyPayload `json:"-"`
}

// notifyRecorder appends one JSON line per run: {"args":[...]} with every
// argument as a JSON string. Arguments here are plain tokens and one JSON
// document, so escaping backslashes and quotes is enough.
const notifyRecorder = `out=%s
sep=
line='{"args":['
for a in "$@"; do
  esc=$(printf '%%s' "$a" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr '\n' ' ')
  line="$line$sep\"$esc\""
  sep=,
done
printf '%%s]}\n' "$line" >> "$out"
`

// NotifyRecorder writes a notifier that records every call, and returns its
// path and the file the calls land in.
func (w *World) NotifyRecorder(name string) (script, record string) {
	w.t.Helper()
	record = filepath.Join(w.Root, name+".jsonl")
	script = w.Script(name, fmtPercent(notifyRecorder, shellQuote(record)))
	return script, record
}

// fmtPercent fills the one %s of a template whose other percent signs are
// doubled.
func fmtPercent(tmpl, arg string) string {
	i := strings.Index(tmpl, "%s")
	return strings.ReplaceAll(tmpl[:i], "%%", "%") + arg + strings.ReplaceAll(tmpl[i+2:], "%%", "%")
}

// NotifyCalls reads what a recording notifier got, oldest first.
func NotifyCalls(record string) []NotifyCall {
	var out []NotifyCall
	b, _ := os.ReadFile(record)
	forLines(b, func(line []byte) {
		var c NotifyCall
		if json.Unmarshal(line, &c) != nil {
			return
		}
		if n := len(c.Args); n > 0 {
			json.Unmarshal([]byte(c.Args[n-1]), &c.Payload)
		}
		out = append(out, c)
	})
	return out
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// jsonString is s as a JSON string, as the CLIs write it in their files.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
