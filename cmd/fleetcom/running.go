package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/fleetcom/fleetcom/fleet"
)

// runningNow refuses to start a conversation a second time: it says where
// the conversation runs, and exits 1 having started nothing. With switch,
// inside tmux, it goes to the conversation's pane instead.
func runningNow(r fleet.Run, switchTo bool) error {
	target := ""
	if r.Tmux != nil {
		ctx, signalled := interruptible()
		panes, err := fleet.ListPanes(ctx, r.Tmux.Socket)
		if code := signalled(); code != 0 {
			return exitStatus(code)
		}
		if err == nil {
			target = panes[r.Tmux.Pane]
		}
	}
	where := fleet.Where(r, target)
	msg := fmt.Sprintf("%s conversation %s is running now (%s, process %d): it is not started a second time",
		r.Tool, r.ID, where, r.PID)
	hint := fmt.Sprintf("quit it there first, or run 'fleetcom resume --force %s' to start a second copy", r.ID)
	if r.Tmux != nil {
		hint = "go there: " + fleet.SwitchLine(r.Tmux)
	}
	if !switchTo {
		return notFoundError{msg: msg, hint: hint}
	}
	if r.Tmux == nil {
		return notFoundError{msg: msg + "; it is not in tmux, so --switch cannot go there", hint: hint}
	}
	if os.Getenv("TMUX") == "" {
		return notFoundError{msg: msg + "; --switch works from inside tmux", hint: hint}
	}
	// tmux's own descriptors: nothing to wait for once the client is
	// gone, which a server that does not answer within switchWait makes
	// it. In this process's group, as the terminal's: switch-client may
	// ask the terminal which client it is.
	ctx, cancel := context.WithTimeout(context.Background(), switchWait)
	defer cancel()
	args := fleet.SwitchArgs(r.Tmux)
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stderr, os.Stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return notFoundError{msg: fmt.Sprintf("%s; tmux could not switch there: %v", msg, err), hint: hint}
	}
	return nil
}

// switchWait bounds tmux switch-client: a server that does not answer must
// not hold resume.
const switchWait = 5 * time.Second
