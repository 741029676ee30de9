package fleet

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/fleetcom/fleetcom/internal/bounded"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// TmuxOf reads where a process is in tmux from its environment: $TMUX
// ("<socket>,<server pid>,<session index>") names the server's socket and
// $TMUX_PANE the pane. nil outside tmux, or when either is malformed.
func TmuxOf(getenv func(string) string) *Tmux {
	v, pane := getenv("TMUX"), getenv("TMUX_PANE")
	if v == "" || !tmuxPane(pane) {
		return nil
	}
	// The socket path may itself hold commas: the last two fields are
	// tmux's own.
	i := strings.LastIndexByte(v, ',')
	if i <= 0 {
		return nil
	}
	j := strings.LastIndexByte(v[:i], ',')
	if j <= 0 {
		return nil
	}
	socket := v[:j]
	if !filepath.IsAbs(socket) {
		return nil
	}
	return &Tmux{Socket: filepath.Clean(socket), Pane: pane}
}

// tmuxWait bounds one question to a tmux server: a server that does not
// answer must not hold status. The tmux client hands its output to the
// server, so a frozen server keeps it open after the client is killed;
// bounded.Run ends that wait too (bounded.Grace later).
const tmuxWait = 2 * time.Second

// maxPanes bounds what list-panes may print: a line per pane, of a few
// dozen bytes.
const maxPanes = 1 << 20

// ListPanes asks the tmux server at socket for its panes: pane ID to
// session:window.pane. A server that is gone answers nothing; one that
// does not answer within tmuxWait, or ctx's end, is left.
func ListPanes(ctx context.Context, socket string) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(ctx, tmuxWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", "-S", socket, "list-panes", "-a", "-F",
		"#{pane_id} #{session_name}:#{window_index}.#{pane_index}")
	out, err := bounded.Output(cmd, maxPanes)
	if err != nil {
		return nil, err
	}
	return parsePanes(out), nil
}

// parsePanes reads list-panes' lines; a session name is kept as it is,
// but for its control characters (C0, DEL, C1: '?'); anything malformed is
// skipped.
func parsePanes(out []byte) map[string]string {
	m := map[string]string{}
	for _, line := range bytes.Split(out, []byte{'\n'}) {
		id, target, ok := strings.Cut(string(line), " ")
		if !ok || !tmuxPane(id) || target == "" || len(target) > 256 {
			continue
		}
		m[id] = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return '?'
			}
			return r
		}, target)
	}
	return m
}

// SwitchArgs is the command that takes a tmux client to a run's pane: by
// pane ID, which no session name can make ambiguous.
func SwitchArgs(t *Tmux) []string {
	return []string{"tmux", "-S", t.Socket, "switch-client", "-t", t.Pane}
}

// SwitchLine is SwitchArgs quoted for a shell.
func SwitchLine(t *Tmux) string {
	args := SwitchArgs(t)
	for i, a := range args {
		args[i] = safe.Quote(a)
	}
	return strings.Join(args, " ")
}
