package main

import (
	"context"
	"os/exec"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/internal/bounded"
)

// passthroughWait bounds doctor's question to tmux.
const passthroughWait = 2 * time.Second

// checkPassthrough says, inside tmux and with OSC notices chosen, whether
// tmux passes them on to the terminal it runs in: only with its
// allow-passthrough option on (the shim wraps each notice as tmux asks).
// ok is false when there is nothing to say: not in tmux, no OSC notices.
func checkPassthrough(n config.Notify, getenv func(string) string) (doctorCheck, bool) {
	if getenv("TMUX") == "" || (n.Terminal != "osc9" && n.Terminal != "osc777") {
		return doctorCheck{}, false
	}
	c := doctorCheck{Name: "tmux.passthrough"}
	args := []string{"display-message", "-p"}
	if pane := getenv("TMUX_PANE"); strings.HasPrefix(pane, "%") {
		args = append(args, "-t", pane)
	}
	ctx, cancel := context.WithTimeout(context.Background(), passthroughWait)
	defer cancel()
	out, err := bounded.Output(exec.CommandContext(ctx, "tmux", append(args, "#{allow-passthrough}")...), 4<<10)
	switch v := strings.TrimSpace(string(out)); {
	case err != nil:
		c.Status, c.Detail = statusNote, "tmux did not say whether it passes terminal notices on: "+err.Error()
	case v == "0" || v == "off" || v == "":
		// tmux 3.2 and older know no such option and print nothing.
		c.Status = statusNote
		c.Detail = "tmux's allow-passthrough is off: the " + n.Terminal + " notices of runs in tmux do not reach your terminal"
		c.Hint = "tmux set -g allow-passthrough on (and the same line in ~/.tmux.conf; tmux 3.3 or later)"
	case v == "2" || v == "all":
		c.Status, c.Detail = statusOK, "tmux passes the "+n.Terminal+" notices of every pane on to your terminal (allow-passthrough all)"
	default:
		c.Status = statusOK
		c.Detail = "tmux passes the " + n.Terminal + " notices of panes on screen on to your terminal (allow-passthrough on; 'all', tmux 3.4 and later, for the others too)"
	}
	return c, true
}
