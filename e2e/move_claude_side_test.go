package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMoveClaudeSide: Claude keeps more of a conversation than its
// transcript, in a folder beside it named by the conversation (measured on
// 2.1.197 and 2.1.332): subagents/agent-<id>.jsonl and .meta.json for a
// subagent, tool-results/<id>.txt for a tool output too large for the
// transcript, whose path the transcript names. fleetcom move carries that
// folder with the transcript (issue 21, item 14): nothing is left under the
// old directory's slug, the subagent's cwd fields name the new directory,
// and the conversation goes on there with its context.
func TestMoveClaudeSide(t *testing.T) {
	t.Parallel()
	eachVersion(t, "claude", func(t *testing.T, r Real) {
		w, fc := shimWorld(t, r)
		proj := w.Project("with side")
		dest := w.Project("side moved")
		print := func(args ...string) string {
			cmd := exec.Command(r.Path(), args...)
			cmd.Dir, cmd.Env = proj, w.Env()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("claude %q: %v\n%s", args, err, out)
			}
			return string(out)
		}
		print("-p", "remember HERON-31")
		var id string
		for k := range ClaudeTranscripts(w.ClaudeHome(), proj) {
			id = k
		}
		if id == "" {
			t.Fatal("no transcript")
		}
		print("-p", "--resume", id, `CALL Bash {"command":"seq 1 200000","description":"numbers"}`, "--allowedTools", "Bash")
		print("-p", "--resume", id, `CALL Agent {"description":"look","prompt":"subagent says HERON-32","subagent_type":"general-purpose"}`, "--allowedTools", "Agent")
		side := filepath.Join(w.ClaudeHome(), "projects", ClaudeSlug(proj), id)
		subs, _ := filepath.Glob(filepath.Join(side, "subagents", "agent-*.jsonl"))
		results, _ := filepath.Glob(filepath.Join(side, "tool-results", "*.txt"))
		if len(subs) != 1 || len(results) != 1 {
			t.Fatalf("%s: the folder beside the transcript holds subagents %v, tool results %v", r, subs, results)
		}
		t.Logf("%s: beside the transcript: %s, %s", r, strings.TrimPrefix(subs[0], side), strings.TrimPrefix(results[0], side))

		res := w.Fleetcom(t, fc, proj, "move", id, dest)
		if res.Code != 0 || !strings.HasPrefix(res.Stdout, "moved claude "+id+" ") {
			t.Fatalf("move: exit %d, stdout %q, stderr %q", res.Code, res.Stdout, res.Stderr)
		}
		// Nothing of the conversation is left; what else the project folder
		// holds is the directory's, not the conversation's.
		old := filepath.Join(w.ClaudeHome(), "projects", ClaudeSlug(proj))
		for _, left := range storeUnder(old) {
			if strings.Contains(left, id) {
				t.Errorf("left in the old project folder: %s", left)
			} else {
				t.Logf("%s: the old project folder still holds %s (not the conversation's)", r, left)
			}
		}
		moved := filepath.Join(w.ClaudeHome(), "projects", ClaudeSlug(dest), id)
		for _, f := range []string{strings.TrimPrefix(subs[0], side), strings.TrimPrefix(results[0], side),
			strings.TrimSuffix(strings.TrimPrefix(subs[0], side), ".jsonl") + ".meta.json"} {
			if _, err := os.Stat(moved + f); err != nil {
				t.Errorf("not carried: %v", err)
			}
		}
		sub, _ := os.ReadFile(moved + strings.TrimPrefix(subs[0], side))
		if n := pathFields(sub, proj); n["user: cwd"] != 0 || n["assistant: cwd"] != 0 {
			t.Errorf("the subagent's transcript still names %s:%s", proj, fieldList(n))
		}
		if n := pathFields(sub, dest); n["user: cwd"] == 0 {
			t.Errorf("the subagent's transcript does not name %s:%s", dest, fieldList(n))
		}
		transcript, _ := os.ReadFile(filepath.Join(w.ClaudeHome(), "projects", ClaudeSlug(dest), id+".jsonl"))
		if !strings.Contains(string(transcript), `"persistedOutputPath":`+strings.TrimSuffix(jsonString(moved+"/tool-results/"), `"`)) {
			t.Errorf("persistedOutputPath does not name the moved tool result")
		}

		x := w.Tmux()
		p := x.Start(t, dest, fleetcomExec(fc)...)
		WaitClaude(p)
		p.Submit("which codes now", typeWait)
		p.WaitFor("ACK now CODES HERON-31", replyWait)
		if status, screen := ExitClaude(p); status != 0 {
			t.Errorf("resumed in %s: exit %d; screen:\n%s", dest, status, screen)
		}
	})
}
