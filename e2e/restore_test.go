package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fleetcom/fleetcom/fleet"
)

// TestRestore is the crash issue 20 asks fleetcom to survive, with the real
// CLIs: every registered agent runs through its shim in a tmux pane, one
// turn each; then every shim and the tmux server get kill -9. `fleetcom
// restore` lists each conversation as killed, with the line `fleetcom
// resume` prints for it, and `restore --exec` brings them all back in a new
// tmux session (started by fleetcom, so read as a user's server reads its
// ~/.tmux.conf), each window in its directory, each conversation going on
// with the context of its first turn. Once they quit, nothing is left to
// restore. One world per round of versions: the pinned version of every
// agent, then the latest of those whose latest is another one.
func TestRestore(t *testing.T) {
	t.Parallel()
	fc := fleetcom(t)
	picks, rounds := map[string][]pick{}, 0
	for _, name := range AgentNames() {
		picks[name] = versionsOf(t, cliNamed(name))
		rounds = max(rounds, len(picks[name]))
	}
	mode, _ := versionMode()
	for i := range rounds {
		label := versionsPinned
		if i > 0 || mode == versionsLatest {
			label = versionsLatest
		}
		t.Run(label, func(t *testing.T) {
			var reals []Real
			for _, name := range AgentNames() {
				if i >= len(picks[name]) {
					continue // its latest is its pinned version: it ran in the first round
				}
				p := picks[name][i]
				if p.err != nil {
					unavailable(t, "%s: cannot resolve the %s version: %v", name, p.label, p.err)
				}
				reals = append(reals, installed(t, cliNamed(name), p))
			}
			restoreRound(t, fc, reals)
		})
	}
}

// lostRun is one agent's run that the crash takes.
type lostRun struct {
	d         Agent
	r         Real
	p         *Pane
	dir, code string
	id        string
}

func restoreRound(t *testing.T, fc string, reals []Real) {
	w, _ := shimWorldOf(t, reals...)
	// The user's own tmux configuration, read by the server restore
	// starts: dead panes stay for a look, and a detached session is as
	// large as the rig's panes.
	w.writeFile(filepath.Join(w.Home, ".tmux.conf"), tmuxConf+fmt.Sprintf("set -g default-size %dx%d\n", paneWidth, paneHeight), 0o600)
	x := w.Tmux()
	words := []string{"OSPREY", "KESTREL", "PLOVER", "CURLEW", "AVOCET", "DUNLIN", "EGRET", "GANNET"}
	var runs []*lostRun
	for i, r := range reals {
		d := agentNamed(r.CLI.Name)
		lr := &lostRun{d: d, r: r, dir: w.Project(fmt.Sprintf("lost %d", i)), code: fmt.Sprintf("%s-%d", words[i%len(words)], 3100+i)}
		t.Logf("%s: %s in %s", r, lr.code, lr.dir)
		lr.p = x.Start(t, lr.dir, r.CLI.Name)
		d.Ready(lr.p)
		lr.p.Submit("remember "+lr.code, typeWait)
		d.Reply(lr.p, "ACK "+lr.code+" CODES "+lr.code)
		runs = append(runs, lr)
	}
	// Each run's live file knows its conversation before the crash: what
	// restore has to go on.
	var live []Status
	if !eventually(replyWait, func() bool {
		live = w.Statuses(t, fc)
		known := 0
		for _, s := range live {
			if s.ID != "" {
				known++
			}
		}
		return known == len(runs) && len(live) == len(runs)
	}) {
		t.Fatalf("status never knew every run's conversation: %+v", live)
	}
	for _, lr := range runs {
		for _, s := range live {
			if s.Tool == lr.r.CLI.Name && s.CWD == lr.dir {
				lr.id = s.ID
			}
		}
		if lr.id == "" {
			t.Fatalf("no %s run in %s: %+v", lr.r, lr.dir, live)
		}
	}
	// A CLI that outlived the crash must not outlive the test.
	t.Cleanup(func() {
		for _, s := range live {
			syscall.Kill(s.PID, syscall.SIGKILL)
		}
	})

	// The crash: kill -9 of every shim (the panes' programs), then of the
	// tmux server. Each CLI, hung up, goes.
	server := x.ServerPID(t)
	for _, lr := range runs {
		syscall.Kill(lr.p.PID(), syscall.SIGKILL)
	}
	syscall.Kill(server, syscall.SIGKILL)
	var after []Status
	if !eventually(replyWait, func() bool { after = w.Statuses(t, fc); return len(after) == 0 }) {
		t.Fatalf("still running after the crash: %+v", after)
	}

	// Listed, each as killed, with resume's own line.
	res := w.Fleetcom(t, fc, w.Root, "restore", "--json")
	var lost []struct {
		Tool, ID, Line, Why string
	}
	if err := json.Unmarshal([]byte(res.Stdout), &lost); res.Code != 0 || err != nil {
		t.Fatalf("restore --json: exit %d, %v", res.Code, err)
	}
	if len(lost) != len(runs) {
		t.Fatalf("restore lists %d conversations, want %d: %+v", len(lost), len(runs), lost)
	}
	for _, l := range lost {
		want := w.Fleetcom(t, fc, w.Root, "resume", l.ID).Stdout
		if l.Why != "killed" || l.Line+"\n" != want {
			t.Errorf("restore: %+v; want why killed and the line %q", l, want)
		}
	}

	// Back, in a new session of a new server. A restored window gives the
	// user their shell once the agent quits; here that shell (which tmux
	// also runs the window's command with, as "-c COMMAND") ends the window
	// with the status the resume left on it, so that quitting the agent
	// ends the pane with the agent's status.
	shell := filepath.Join(w.Root, "reopen-shell")
	script := "#!/bin/sh\n[ \"$1\" = -c ] && exec /bin/sh -c \"$2\"\n" +
		"s=$(tmux show-options -wqv -t \"$TMUX_PANE\" " + fleet.ExitOption + ")\nexit \"${s:-99}\"\n"
	if err := os.WriteFile(shell, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	y := NewUserTmux(t, w.Env())
	res = w.FleetcomEnv(t, append(y.Env(), "SHELL="+shell), fc, w.Root, "restore", "--exec", "--tmux-session", "back")
	if res.Code != 0 || strings.Count("\n"+res.Stdout, "\nreopened ") != len(runs) {
		t.Fatalf("restore --exec: exit %d, stdout %q", res.Code, res.Stdout)
	}
	windows := y.Windows(t, "back")
	for _, lr := range runs {
		name := lr.r.CLI.Name + "-" + lr.id[:min(8, len(lr.id))]
		p, ok := windows[name]
		if !ok {
			t.Fatalf("no window %s in session back: %v", name, keys(windows))
		}
		lr.d.Ready(p)
		if got := p.Path(); got != lr.dir {
			t.Errorf("%s: window %s is in %s, want %s", lr.r, name, got, lr.dir)
		}
		p.Submit("which codes now", typeWait)
		lr.d.Reply(p, "ACK now CODES "+lr.code)
		if status, screen := lr.d.Quit(p); status != 0 {
			t.Errorf("%s: exit %d; screen:\n%s", lr.r, status, screen)
		}
	}
	if res := w.Fleetcom(t, fc, w.Root, "restore"); res.Code != 0 || res.Stdout != "" {
		t.Errorf("restore after the conversations were resumed and quit: exit %d, stdout %q", res.Code, res.Stdout)
	}
}
