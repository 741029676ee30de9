package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WaitNotifies waits until the notify record holds at least n calls.
func WaitNotifies(t testing.TB, record string, n int) []NotifyCall {
	t.Helper()
	var got []NotifyCall
	if !eventually(replyWait, func() bool { got = NotifyCalls(record); return len(got) >= n }) {
		b, _ := os.ReadFile(record)
		t.Fatalf("want %d notify calls, got %d:\n%s", n, len(got), b)
	}
	return got
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

// WaitNotifyOf waits until a call after the first skip of the notify
// record names thread, and returns it. Which thread notifies first is not
// fixed (a title thread may finish before the turn's own), so a test looks
// for the thread it means rather than at a position.
func WaitNotifyOf(t testing.TB, record, thread string, skip int) NotifyCall {
	t.Helper()
	var got NotifyCall
	found := eventually(replyWait, func() bool {
		calls := NotifyCalls(record)
		for i := skip; i < len(calls); i++ {
			if calls[i].Payload.ThreadID == thread {
				got = calls[i]
				return true
			}
		}
		return false
	})
	if !found {
		b, _ := os.ReadFile(record)
		t.Fatalf("no notify call for thread %s after the first %d:\n%s", thread, skip, b)
	}
	return got
}
