package agents

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Seed corpora live in testdata/fuzz/<target>/ beside this file (Go's own
// layout, so `go test -fuzz` extends them); the f.Add seeds below repeat the
// most important shapes so a plain `go test` always runs them. Each target
// runs over every agent of the list, and holds the IDs it accepts to that
// agent's own grammar (Spec.ID), the one gate the code uses
// (TestGrammarIsTheGate): an agent whose IDs are not UUIDs changes nothing
// here.

func FuzzDetectArgv(f *testing.F) {
	f.Add("claude", "--resume", uid, "")
	f.Add("codex", "resume", uid, "")
	f.Add("grok", "-r", uid, "")
	f.Add("claude", "--resume", strings.ToUpper(uid), "x")
	f.Add("copilot", "--resume="+uid, "", "")
	f.Fuzz(func(t *testing.T, prog, a1, a2, a3 string) {
		for _, argv := range [][]string{{prog}, {prog, a1}, {prog, a1, a2}, {prog, a1, a2, a3}} {
			for _, h := range All() {
				form, ok := harness.DetectArgv(h, argv)
				if !ok {
					continue
				}
				if form.Resume != "" && !h.ID.Valid(form.Resume) {
					t.Fatalf("accepted invalid ID %q from %q", form.Resume, argv)
				}
				// The bare command, or the program word and the agent's
				// resume spelling with its ID.
				if len(argv) != 1 && len(argv) != 1+len(h.Resume.Args(uid)) {
					t.Fatalf("accepted %q", argv)
				}
				if _, err := harness.ResumeLine(h, form.Program, uid, nil); err != nil {
					t.Fatalf("accepted program %q cannot resume: %v", form.Program, err)
				}
			}
		}
	})
}

func FuzzDetectCommand(f *testing.F) {
	for _, s := range []string{"claude", "claude --resume '" + uid + "'", "/opt/codex resume " + uid,
		"grok --resume " + uid + ";x", "VAR=1 claude", "claude $(x)", "claude\t--resume " + uid,
		"copilot --resume='" + uid + "'", "copilot --resume=" + uid + "=x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, form, ok := harness.DetectCommand(s, Named)
		if !ok {
			return
		}
		if form.Resume != "" && !h.ID.Valid(form.Resume) {
			t.Fatalf("accepted invalid ID %q from %q", form.Resume, s)
		}
		// Only path characters, spaces and the quotes of a quoted ID may
		// appear in an accepted command, and the '=' of a joined spelling.
		for i := 0; i < len(s); i++ {
			if c := s[i]; !safe.ProgramByte(c) && c != ' ' && c != '\'' && (c != '=' || !h.Resume.Joined) {
				t.Fatalf("accepted %q holding %q", s, c)
			}
		}
		ns := testRun("/tmp/ns dir/1-a")
		ns.Home = "/nonexistent/codex-home"
		in, err := h.Instrument(form, ns)
		if err != nil {
			t.Fatal(err)
		}
		out := harness.InstrumentCommand(s, form, in)
		end := strings.Index(s, form.Program) + len(form.Program) // the first word's end
		if !strings.HasPrefix(out, s[:end]) || !strings.HasSuffix(out, s[end:]) {
			t.Fatalf("instrumentation changed the command outside the insertion: %q -> %q", s, out)
		}
	})
}

func FuzzScrapeExit(f *testing.F) {
	f.Add([]byte("\x1b[2mResume this session with:\x1b[22m\r\n\x1b[2mclaude --resume " + uid + "\x1b[22m\r\n"))
	f.Add([]byte("To continue this session, run:\n  codex resume " + uid + "\n"))
	f.Add([]byte("codex resume, then select x (" + uid + ")"))
	f.Add([]byte("grok -r " + uid))
	f.Add([]byte("   \xe2\x96\x94\xe2\x96\x94    Resume     copilot --resume=" + uid + "\x1b[K\x1b]111;\x07"))
	f.Add([]byte("\x1b[2mResume this session with:\x1b[22m\r\n\x1b[2mclaude --settings /run/user/1000/fleetcom/1-a/claude-settings.json --model opus --resume " + uid + "\x1b[22m\r\n"))
	f.Add([]byte("Resume this session with:\nclaude --model=opus --add-dir /a/b\r\nc --resume '" + uid + "'"))
	f.Add([]byte("38;5;1mclaude --resume " + strings.ToUpper(uid)))
	f.Fuzz(func(t *testing.T, tail []byte) {
		for _, h := range All() {
			id := h.ScrapeExit(tail)
			if id == "" {
				continue
			}
			if !h.ID.Valid(id) {
				t.Fatalf("%s scraped invalid %q", h.Name, id)
			}
			// Escape sequences are invisible, so an ID may be styled piece
			// by piece; it must still be there in the visible text.
			if !bytes.Contains(harness.PlainText(tail), []byte(id)) {
				t.Fatalf("%s scraped %q, which is not in the text", h.Name, id)
			}
		}
	})
}

func FuzzParseCapture(f *testing.F) {
	f.Add([]byte(`{"session_id":"` + uid + `","transcript_path":"/h/.claude/projects/-w/` + uid + `.jsonl","cwd":"/w",` +
		`"hook_event_name":"SessionStart","source":"startup","model":"claude-opus"}` + "\n" +
		`{"type":"agent-turn-complete","thread-id":"` + uid + `","turn-id":"t1","cwd":"/w","client":"codex-tui",` +
		`"input-messages":["hi"],"last-assistant-message":"ACK $(rm -rf ~)"}` + "\n"))
	f.Add([]byte(`{"session_id":"` + uid + `","hook_event_name":"SessionStart","agent_id":"x"}`))
	f.Add([]byte("\x00\xff{\"thread-id\":\"" + uid + "\"}"))
	f.Add([]byte(`{"hook_event_name":"SessionStart","session_id":"` + uid + `"}`))
	home := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, h := range All() {
			id := h.ParseCapture(data, harness.Capture{Home: home, PID: 4242, Cwd: "/w", Started: time.Unix(1e9, 0)})
			if id != "" && !h.ID.Valid(id) {
				t.Fatalf("%s parsed invalid %q", h.Name, id)
			}
		}
	})
}

// FuzzStates: whatever a capture file holds, every state event is one of
// the four states, and a reason shown to the user is a plain word.
func FuzzStates(f *testing.F) {
	f.Add([]byte(`{"hook_event_name":"UserPromptSubmit"}` + "\n" + `{"hook_event_name":"SessionEnd","reason":"clear"}`))
	f.Add([]byte(`{"hook_event_name":"Notification","notification_type":"permission_prompt"}`))
	f.Add([]byte(`{"hook_event_name":"SessionEnd","reason":"\u001b]0;x\u0007"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, a := range All() {
			s, ok := a.Behaviour.(harness.Stater)
			if !ok {
				continue
			}
			for _, ev := range s.States(data) {
				if !ev.State.Valid() {
					t.Fatalf("%s: state %q from %q", a.Name, ev.State, data)
				}
				if ev.Ended && ev.Why != harness.PrintableWord(ev.Why) {
					t.Fatalf("%s: end reason %q", a.Name, ev.Why)
				}
			}
		}
	})
}
