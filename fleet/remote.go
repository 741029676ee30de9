package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// Other machines are asked through the user's own ssh: `fleetcom status
// --json` run there, nothing else. No protocol of fleetcom's own, no daemon;
// ssh's own configuration (keys, agents, jump hosts) applies. BatchMode keeps
// ssh from asking for a password on the terminal, and ConnectTimeout and
// remoteWait bound a host that does not answer.

// remoteWait bounds one host's answer, connection included.
const remoteWait = 15 * time.Second

// remoteCommand is run by the remote user's shell: fleetcom from PATH, or
// where install.sh puts it (a non-interactive ssh session often lacks the
// rc line's PATH).
const remoteCommand = `command -v fleetcom >/dev/null 2>&1 && exec fleetcom status --json || exec ~/.local/bin/fleetcom status --json`

// Remote asks host for its running conversations. Each object is checked as
// a live file is (a registered agent, an ID of its grammar, a known state)
// and given the host's name; one that fails the checks is dropped.
func Remote(ctx context.Context, host string) ([]Status, error) {
	if host == "" || strings.HasPrefix(host, "-") || strings.ContainsAny(host, " \t\r\n") {
		return nil, fmt.Errorf("%q is not a host name", host)
	}
	ctx, cancel := context.WithTimeout(ctx, remoteWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5",
		"-T", "--", host, remoteCommand)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, errors.New("no answer in time")
		}
		msg := strings.TrimSpace(lastLine(errb.String()))
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(msg)
	}
	var got []Status
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		return nil, fmt.Errorf("not fleetcom's answer: %v", err)
	}
	kept := got[:0]
	for _, s := range got {
		a, ok := agents.Named(s.Tool)
		if !ok || (s.ID != "" && !a.ValidID(s.ID)) || !s.State.Valid() {
			continue
		}
		s.Host = host
		kept = append(kept, s)
	}
	return kept, nil
}

// lastLine is the last non-empty line of s, cut to a sane length.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := lines[len(lines)-1]
	if len(l) > 200 {
		l = l[:200]
	}
	return l
}
