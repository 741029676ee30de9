package fleet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/harness/agents"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// Run is one run of an agent CLI under a shim, as the shim writes it to its
// live file while the run goes on. Everything `status` shows, and what
// `restore` needs of a run whose shim died, is here.
type Run struct {
	Tool    string        `json:"tool"`
	ID      string        `json:"id"` // "" until known
	Cwd     string        `json:"cwd"`
	Home    string        `json:"home,omitempty"`    // the agent's home for this run
	Command string        `json:"command,omitempty"` // as the user typed it
	Program string        `json:"program,omitempty"` // the program word
	State   harness.State `json:"state"`
	Since   time.Time     `json:"since"`         // when it entered State
	Why     string        `json:"why,omitempty"` // what put it there, when it says more than State
	Started time.Time     `json:"started"`
	// Proc is the CLI's process (the pid its shim started, the real CLI's).
	Proc
	Shim int    `json:"shim_pid"`
	TTY  string `json:"tty,omitempty"` // the terminal the run is on (/dev/pts/3)
	Tmux *Tmux  `json:"tmux,omitempty"`
	// Hooked: the state comes from the agent's own hooks, not from the
	// activity on its terminal.
	Hooked bool `json:"hooked,omitempty"`
	// Ended is how the agent said its last conversation ended (Claude's
	// SessionEnd reason: "prompt_input_exit" when the user quit), "" while
	// none did.
	Ended string `json:"ended,omitempty"`
	// End is how the run ended, kept for `restore` when that was not the
	// user quitting the CLI (EndHangup, EndSignal), and EndAt when; "" while
	// it runs, and in the file of a run whose shim died with it.
	End   string    `json:"end,omitempty"`
	EndAt time.Time `json:"end_at,omitzero"`
	// Beat is how often, in seconds, the shim dates the file anew while
	// the run goes on (restore.go); 0 for a shim that does not.
	Beat int `json:"beat,omitempty"`
	// Seen is when the file was last written, as the file system dates it:
	// the last sign of life of a run that died unseen. Read fills it in.
	Seen time.Time `json:"-"`
}

// Tmux is where a run is in tmux: the server's socket and the pane, from
// $TMUX and $TMUX_PANE at its start; Target is the pane's
// session:window.pane, resolved when status runs.
type Tmux struct {
	Socket string `json:"socket"`
	Pane   string `json:"pane"`
	Target string `json:"target"`
}

// Dir is the folder of live files, one per run: <store>/live. Each is
// written by its own shim, atomically, and removed when the user quits the
// run. A run that ended otherwise (its terminal closed, the CLI killed by a
// signal) keeps its file, marked with how it ended; one a killed shim or a
// crash left behind stays as it was. Those are for `restore` (Lost), and
// never shown as running (Alive); a later run of the same conversation
// removes them (Tidy). Nothing else writes there.
type Dir struct{ path string }

// OpenDir returns the live folder at path; it is created on the first write.
func OpenDir(path string) Dir { return Dir{path: path} }

// Path is the folder.
func (d Dir) Path() string { return d.path }

// maxLive bounds a live file: a real one is well under a kilobyte.
const maxLive = 64 << 10

// name is a run's file name: its boot and process identity.
func (r *Run) name() string {
	boot := r.Boot
	if len(boot) > 8 {
		boot = boot[:8]
	}
	return fmt.Sprintf("%s-%d-%s.json", safeWord(boot), r.PID, safeWord(r.Start))
}

// safeWord keeps a name part to letters and digits.
func safeWord(s string) string {
	return strings.Map(func(c rune) rune {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			return c
		}
		return -1
	}, s)
}

// Write replaces the run's live file with r.
func (d Dir) Write(r *Run) error {
	if err := r.check(); err != nil {
		return fmt.Errorf("live state: %w", err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("live state: %w", err)
	}
	if err := os.MkdirAll(d.path, 0o700); err != nil {
		return fmt.Errorf("live state: %w", err)
	}
	if err := safe.WriteFile(filepath.Join(d.path, r.name()), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("live state: %w", err)
	}
	return nil
}

// Remove deletes the run's live file: the run is over.
func (d Dir) Remove(r *Run) error {
	err := os.Remove(filepath.Join(d.path, r.name()))
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return fmt.Errorf("live state: %w", err)
}

// check is the validation boundary of a live file, written or read: a
// registered agent, an ID of its grammar (or none yet), a known state, a
// process, an absolute directory, a terminal and a tmux pane of the forms
// the shim writes.
func (r *Run) check() error {
	a, ok := agents.Named(r.Tool)
	switch {
	case !ok:
		return fmt.Errorf("unknown tool %q", r.Tool)
	case r.ID != "" && !a.ID.Valid(r.ID):
		return fmt.Errorf("invalid %s id %q", r.Tool, r.ID)
	case !ValidState(r.State):
		return fmt.Errorf("invalid state %q", r.State)
	case r.PID <= 0:
		return errors.New("no process")
	case !absolute(r.Cwd):
		return fmt.Errorf("directory %q is not absolute", r.Cwd)
	case !validTTY(r.TTY):
		return fmt.Errorf("invalid terminal %q", r.TTY)
	case r.Tmux != nil && (!tmuxPane(r.Tmux.Pane) || !tmuxSocket(r.Tmux.Socket)):
		return fmt.Errorf("invalid tmux pane %q on %q", r.Tmux.Pane, r.Tmux.Socket)
	case r.End != "" && r.End != EndHangup && r.End != EndSignal:
		return fmt.Errorf("invalid end %q", r.End)
	case r.Beat < 0 || r.Beat > 3600:
		return fmt.Errorf("invalid beat %d", r.Beat)
	}
	return nil
}

// tmuxPane reports a pane ID as tmux writes $TMUX_PANE: '%' and digits.
func tmuxPane(s string) bool {
	rest, ok := strings.CutPrefix(s, "%")
	if !ok || rest == "" {
		return false
	}
	_, err := strconv.ParseUint(rest, 10, 32)
	return err == nil
}

// ErrNotPrivate is Private's error for a folder someone else could write
// to: a live file planted there could name any process and any tmux
// server.
var ErrNotPrivate = errors.New("session store is not private")

// Private checks the live folder and the store it is in, as the store
// checks its own folders: directories (not symlinks) of this user that
// group and others cannot write to. A folder not made yet is no runs, and
// no risk.
func (d Dir) Private() error {
	for _, p := range []string{filepath.Dir(d.path), d.path} {
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err := safe.Private(p); err != nil {
			return fmt.Errorf("%w: %w", ErrNotPrivate, err)
		}
	}
	return nil
}

// Read returns every live file that passes check, alive or not, and the
// names of those that did not. A missing folder is no runs, and so is one
// that is not private (Private).
func (d Dir) Read() ([]Run, []string) {
	if d.Private() != nil {
		return nil, nil
	}
	entries, err := os.ReadDir(d.path)
	if err != nil {
		return nil, nil
	}
	var runs []Run
	var bad []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue // a write in progress, or not ours
		}
		b, err := safe.ReadFile(filepath.Join(d.path, name), maxLive, safe.NoFollow)
		if err != nil {
			continue // gone meanwhile: the run ended
		}
		r, ok := parseLive(name, b)
		if !ok {
			bad = append(bad, name)
			continue
		}
		if fi, err := e.Info(); err == nil {
			r.Seen = fi.ModTime()
		}
		runs = append(runs, r)
	}
	return runs, bad
}

// parseLive decodes the live file called name: a Run that passes check and
// is filed under its own name, or false.
func parseLive(name string, b []byte) (Run, bool) {
	var r Run
	if json.Unmarshal(b, &r) != nil || r.check() != nil || r.name() != name {
		return Run{}, false
	}
	return r, true
}
