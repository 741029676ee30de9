package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/bounded"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Other machines are asked through the user's own ssh: `fleetcom status
// --json` run there, nothing else. No protocol of fleetcom's own, no daemon;
// ssh's own configuration (keys, agents, jump hosts) applies. BatchMode keeps
// ssh from asking for a password on the terminal, and ConnectTimeout and
// remoteWait bound a host that does not answer; ssh runs in a process group
// of its own (bounded.Run), so a ProxyCommand, a wrapper script or a control
// master that holds its pipes cannot stretch that bound. An answer is read
// up to maxRemote bytes and maxRemoteRuns runs, and each run in it passes
// the checks a live file does (Status.check) or is dropped.

// remoteWait bounds one host's answer, connection included.
const remoteWait = 15 * time.Second

// maxRemote bounds the bytes of one host's answer: 50 runs are about
// 25 KiB.
const maxRemote = 4 << 20

// maxRemoteRuns bounds the runs of one host's answer.
const maxRemoteRuns = 1000

// remoteCommand is run by the remote user's shell: fleetcom from PATH, or
// where install.sh puts it (a non-interactive ssh session often lacks the
// rc line's PATH).
const remoteCommand = `command -v fleetcom >/dev/null 2>&1 && exec fleetcom status --json || exec ~/.local/bin/fleetcom status --json`

// Remote asks host for its running conversations, once, over a connection
// of its own.
func Remote(ctx context.Context, host string) ([]Status, error) {
	return NewLink(host, "").Ask(ctx)
}

// A Link asks one host, as often as its caller likes. With a control
// socket, ssh keeps one connection to the host open between the asks (a
// control master of fleetcom's own, ControlPersist after the last), so a
// `status --watch` that asks every few seconds logs in once, not at each
// ask.
type Link struct {
	host    string
	control string // the control socket; "" for a connection per ask
}

// controlPersist is how long the connection stays after the last ask: a
// watch asks again well within it; a fleetcom killed before its Close
// leaves it for no longer.
const controlPersist = 30 * time.Second

// maxSocket is the longest control socket path used: a Unix socket's path
// holds 104 bytes on macOS (108 on Linux), and ssh binds a name 17 bytes
// longer first, then renames it.
const maxSocket = 104 - 1 - 17

// NewLink prepares asking host. socket, when not "", is where ssh keeps
// the connection, in a private folder of the caller's; a path ssh could
// not bind or would read more into (its '%' tokens, spaces, quotes) keeps
// a connection per ask instead.
func NewLink(host, socket string) *Link {
	l := &Link{host: host}
	if socket != "" && len(socket) <= maxSocket && filepath.IsAbs(socket) && plainPath(socket) {
		l.control = socket
	}
	return l
}

// plainPath reports a path of letters, digits, '/', '.', '_' and '-'.
func plainPath(p string) bool {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '/' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Multiplexed reports whether the link keeps its connection.
func (l *Link) Multiplexed() bool { return l.control != "" }

// Ask asks the host for its running conversations. Each object is checked
// as a live file is and given the host's name; one that fails the checks
// is dropped.
func (l *Link) Ask(ctx context.Context) ([]Status, error) {
	if !safe.Host(l.host) {
		return nil, fmt.Errorf("%q is not a host name", l.host)
	}
	ctx, cancel := context.WithTimeout(ctx, remoteWait)
	defer cancel()
	args := []string{"-o", "BatchMode=yes", "-o", "ConnectTimeout=5"}
	if l.control != "" {
		args = append(args, "-o", "ControlMaster=auto", "-o", "ControlPath="+l.control,
			"-o", "ControlPersist="+strconv.Itoa(int(controlPersist/time.Second)))
	}
	args = append(args, "-T", "--", l.host, remoteCommand)
	out, err := bounded.Output(exec.CommandContext(ctx, "ssh", args...), maxRemote)
	switch {
	case errors.Is(err, bounded.ErrTooLong):
		return nil, fmt.Errorf("its answer is longer than %d MiB", maxRemote>>20)
	case err != nil && ctx.Err() != nil:
		return nil, errors.New("no answer in time")
	case err != nil:
		msg := ""
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg = lastLine(string(ee.Stderr))
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(msg)
	}
	return readAnswer(out, l.host)
}

// readAnswer reads a host's answer: a JSON array of status objects, of
// which those that pass the checks are kept, given the host's name.
func readAnswer(out []byte, host string) ([]Status, error) {
	var got []Status
	if err := json.Unmarshal(out, &got); err != nil {
		return nil, fmt.Errorf("not fleetcom's answer: %v", err)
	}
	if len(got) > maxRemoteRuns {
		return nil, fmt.Errorf("it answered %d runs, more than the %d read", len(got), maxRemoteRuns)
	}
	kept := got[:0]
	for _, s := range got {
		if s.check() != nil {
			continue
		}
		s.Host = host
		kept = append(kept, s)
	}
	return kept, nil
}

// Close ends the link's connection, if one was kept: a control master
// outlives the asks by controlPersist, unless told to go.
func (l *Link) Close() {
	if l.control == "" {
		return
	}
	if _, err := os.Lstat(l.control); err != nil {
		return // never made, or gone with its master
	}
	ctx, cancel := context.WithTimeout(context.Background(), tmuxWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "ssh", "-o", "BatchMode=yes", "-o", "ControlPath="+l.control, "-O", "exit", "--", l.host)
	_, _ = bounded.Output(cmd, 4<<10)
}

// lastLine is the last non-empty line of s, cut to a sane length.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 200 {
		l = l[:200]
	}
	return l
}
