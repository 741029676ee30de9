package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDirectOpencode drives the real opencode with no fleetcom in the way
// and pins the facts its harness relies on: no session before the first
// prompt, and none left by a quit before one; the session the first prompt
// creates (its ID's shape, its directory, its title, its messages) and the
// exit hint naming it; a plugin given to one run through
// OPENCODE_CONFIG_CONTENT running beside the user's own and getting
// session.created and the session's status; -s with an ID opencode does not
// have failing (so no ID can be pinned); -s from another directory
// continuing the session with its context, in its own directory; and
// `opencode export` then `opencode import` elsewhere moving it, which is
// what fleetcom's refusal to move one tells the user to do. It runs once
// per selected version.
func TestDirectOpencode(t *testing.T) {
	t.Parallel()
	eachVersion(t, "opencode", directOpencode)
}

// opencodeIDRE is the whole of an opencode session ID.
var opencodeIDRE = regexp.MustCompile(`^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$`)

func directOpencode(t *testing.T, r Real) {
	w := NewWorld(t, r.Bin)
	proj := w.Project("my project")
	other := w.Project("other project")
	// Two recording plugins: the user's own, in the config file, and one
	// for this run only, in OPENCODE_CONFIG_CONTENT.
	runLog, userLog := filepath.Join(w.Root, "run-events.jsonl"), filepath.Join(w.Root, "user-events.jsonl")
	userPlugin := w.opencodeRecorder("user.js", userLog)
	runPlugin := w.opencodeRecorder("run.js", runLog)
	cfg := filepath.Join(w.OpencodeConfig(), "opencode.json")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w.writeFile(cfg, strings.Replace(string(data), `"autoupdate": false,`,
		`"autoupdate": false, "plugin": [`+jsonString("file://"+userPlugin)+`],`, 1), 0o600)
	w.Setenv("OPENCODE_CONFIG_CONTENT", `{"plugin":[`+jsonString("file://"+runPlugin)+`]}`)
	x := w.Tmux()

	t.Run("quit-before-prompt", func(t *testing.T) {
		p := x.Start(t, proj, "opencode")
		WaitOpencode(p)
		status, screen := QuitOpencode(p)
		if status != 0 || strings.Contains(screen, "Continue") || Hint(opencodeHintRE, screen) != "" {
			t.Errorf("exit %d; a hint without a prompt; screen:\n%s", status, screen)
		}
		if s := OpencodeSessions(t, w); len(s) != 0 {
			t.Errorf("sessions after a quit before a prompt: %+v", s)
		}
		if created := opencodeEvents(t, runLog, "session.created"); len(created) != 0 {
			t.Errorf("session.created without a prompt: %+v", created)
		}
	})

	var id string
	t.Run("first-prompt", func(t *testing.T) {
		p := x.Start(t, proj, "opencode")
		WaitOpencode(p)
		p.Submit("remember PELICAN-4821", typeWait)
		ReplyOpencode(p, "ACK PELICAN-4821 CODES PELICAN-4821")
		status, screen := QuitOpencode(p)
		id = Hint(opencodeHintRE, screen)
		sessions := OpencodeSessions(t, w)
		s := sessions[id]
		if status != 0 || !opencodeIDRE.MatchString(id) || len(sessions) != 1 || s.Directory != proj || s.Messages < 2 || s.Parent != "" {
			t.Fatalf("exit %d, hint %q, sessions %+v; screen:\n%s", status, id, sessions, screen)
		}
		if !strings.Contains(screen, "Session") || strings.HasPrefix(s.Title, "New session - ") {
			t.Errorf("title %q (the exit text names it after Session); screen:\n%s", s.Title, screen)
		}
		for _, log := range []string{runLog, userLog} {
			created := opencodeEvents(t, log, "session.created")
			if len(created) != 1 || created[0].ID != id || created[0].Directory != proj {
				t.Errorf("%s: session.created %+v, want one for %s in %s", filepath.Base(log), created, id, proj)
			}
		}
		var statuses []string
		for _, e := range opencodeEvents(t, runLog, "session.status") {
			if e.SessionID == id && (len(statuses) == 0 || statuses[len(statuses)-1] != e.Status) {
				statuses = append(statuses, e.Status)
			}
		}
		if strings.Join(statuses, " ") != "busy idle" {
			t.Errorf("the session's status went %q, want busy then idle", statuses)
		}
	})
	if id == "" {
		t.FailNow()
	}

	t.Run("no-pinned-id", func(t *testing.T) {
		unknown := "ses_" + id[4:16] + "00000000000000"
		p := x.Start(t, proj, "opencode", "-s", unknown)
		if status, screen := p.WaitExit(startWait); status != 1 {
			t.Errorf("-s with an ID opencode does not have: exit %d, want 1; screen:\n%s", status, screen)
		}
		if s := OpencodeSessions(t, w); len(s) != 1 {
			t.Errorf("sessions %+v", s)
		}
	})

	t.Run("resume-other-dir", func(t *testing.T) {
		before := opencodeEvents(t, runLog, "session.created")
		p := x.Start(t, other, "opencode", "-s", id)
		WaitOpencode(p)
		p.Submit("which codes now", typeWait)
		ReplyOpencode(p, "ACK now CODES PELICAN-4821")
		status, screen := QuitOpencode(p)
		sessions := OpencodeSessions(t, w)
		if status != 0 || Hint(opencodeHintRE, screen) != id || len(sessions) != 1 || sessions[id].Directory != proj ||
			sessions[id].Messages < 4 {
			t.Errorf("exit %d, hint %q, sessions %+v; screen:\n%s", status, Hint(opencodeHintRE, screen), sessions, screen)
		}
		if after := opencodeEvents(t, runLog, "session.created"); len(after) != len(before) {
			t.Errorf("a resumed session got session.created: %+v", after[len(before):])
		}
	})

	// fleetcom refuses to move an opencode conversation and says to do
	// this: it moves the session to the directory of the import.
	t.Run("export-import", func(t *testing.T) {
		file := filepath.Join(w.Root, id+".json")
		out, err := w.opencodeCommand(proj, "export", id)
		if err != nil {
			t.Fatalf("opencode export: %v\n%s", err, out)
		}
		w.writeFile(file, string(out), 0o600)
		if out, err := w.opencodeCommand(other, "import", file); err != nil {
			t.Fatalf("opencode import: %v\n%s", err, out)
		}
		sessions := OpencodeSessions(t, w)
		if s := sessions[id]; len(sessions) != 1 || s.Directory != other || s.Messages < 4 {
			t.Errorf("after the import in %s: %+v", other, sessions)
		}
	})
	logRequests(t, w)
}

// opencodeRecorder writes a plugin that appends what fleetcom reads of
// each event to file, and returns its path.
func (w *World) opencodeRecorder(name, file string) string {
	p := filepath.Join(w.Root, "plugins", name)
	w.writeFile(p, `import { appendFileSync } from "node:fs";
export const Recorder = async () => ({
  event: async ({ event }) => {
    const p = event.properties || {};
    const info = p.info || {};
    appendFileSync(`+jsonString(file)+`, JSON.stringify({ type: event.type, sessionID: p.sessionID || "", id: info.id || "",
      parentID: info.parentID || "", directory: info.directory || "", status: (p.status && p.status.type) || "" }) + "\n");
  },
});
`, 0o600)
	return p
}

// opencodeEvent is one line a recorder plugin wrote.
type opencodeEvent struct {
	Type      string `json:"type"`
	SessionID string `json:"sessionID"`
	ID        string `json:"id"`
	Parent    string `json:"parentID"`
	Directory string `json:"directory"`
	Status    string `json:"status"`
}

// opencodeEvents reads the events of one type a recorder wrote.
func opencodeEvents(t *testing.T, file, typ string) []opencodeEvent {
	t.Helper()
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []opencodeEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var e opencodeEvent
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// opencodeCommand runs one of opencode's own commands in dir, with the
// World's environment, and returns its standard output.
func (w *World) opencodeCommand(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command(lookPath(w, "opencode"), args...)
	cmd.Dir, cmd.Env = dir, w.Env()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return append(out, stderr.String()...), err
	}
	return out, nil
}
