package fleet

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/fleetcom/fleetcom/harness/agents"
)

// The checks a run passes, read from a live file (Run.check) or from
// another host's answer (Status.check): nothing of either is shown or used
// unless it has the form fleetcom itself writes.

// maxPath bounds a path read from a file or an answer.
const maxPath = 4096

// check is the validation boundary of a status object another host
// answered: what a live file must be (a registered agent, an ID of its
// grammar, a known state, an absolute directory, a process), and a
// terminal and a tmux pane of the forms fleetcom writes.
func (s *Status) check() error {
	a, ok := agents.Named(s.Tool)
	switch {
	case !ok:
		return fmt.Errorf("unknown tool %q", s.Tool)
	case s.ID != "" && !a.ID.Valid(s.ID):
		return fmt.Errorf("invalid %s id %q", s.Tool, s.ID)
	case !ValidState(s.State):
		return fmt.Errorf("invalid state %q", s.State)
	case s.PID <= 0:
		return errors.New("no process")
	case !absolute(s.Cwd):
		return fmt.Errorf("directory %q is not absolute", s.Cwd)
	case !validTTY(s.TTY):
		return fmt.Errorf("invalid terminal %q", s.TTY)
	}
	if t := s.Tmux; t != nil && (!tmuxPane(t.Pane) || !tmuxSocket(t.Socket) || (t.Target != "" && !tmuxTarget(t.Target))) {
		return fmt.Errorf("invalid tmux pane %q on %q", t.Pane, t.Socket)
	}
	return nil
}

// absolute reports an absolute path of a sane length.
func absolute(p string) bool { return filepath.IsAbs(p) && len(p) <= maxPath }

// validTTY reports a terminal as the shim names it: "" for none, else a
// device under /dev/ of letters, digits, '/', '.', '_' and '-' (/dev/pts/3,
// /dev/ttys003), going nowhere else.
func validTTY(s string) bool {
	if s == "" {
		return true
	}
	rest, ok := strings.CutPrefix(s, "/dev/")
	if !ok || rest == "" || len(s) > 64 || strings.Contains(rest, "..") {
		return false
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '/' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// tmuxSocket reports a tmux server's socket as $TMUX names it: an absolute
// path without control characters.
func tmuxSocket(s string) bool { return absolute(s) && !hasControl(s) }

// tmuxTarget reports a pane's place as ListPanes gives it:
// session:window.pane, a session name without control characters and two
// numbers.
func tmuxTarget(s string) bool {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 || len(s) > 256 || hasControl(s[:i]) {
		return false
	}
	w, p, ok := strings.Cut(s[i+1:], ".")
	return ok && digits(w) && digits(p)
}

// digits reports a non-empty run of ASCII digits.
func digits(s string) bool {
	if s == "" || len(s) > 10 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// hasControl reports a control character: C0, DEL, C1.
func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}
