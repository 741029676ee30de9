package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// The drift tally: one line per instrumented run that reached its end,
// saying how each evidence channel fared, so a CLI release that moved its
// exit hint or broke a hook shows up in `fleetcom doctor` before it costs a
// conversation. It lives in drift/<tool>, is appended to with one write
// (no temp file on the way to the user's prompt), and is cut back to its
// last maxDriftRuns lines when it grows past maxDriftSize; readers only
// ever read its last maxDriftSize bytes, so no size it reaches can make it
// unreadable or untrimmable. It is local: nothing of it leaves the machine.

const (
	// maxDriftSize is the size past which a tally is trimmed, and what is
	// read of one: far more than maxDriftRuns lines need.
	maxDriftSize = 64 << 10
	maxDriftRuns = 200
	// maxVersion bounds the version a line names; versionChars are the
	// bytes it may hold. Anything else is written as "?".
	maxVersion   = 64
	versionChars = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-+_"
)

// Outcome is how one evidence channel fared in one run.
type Outcome string

// Outcomes of a channel.
const (
	// Agreed: it named the conversation the run was recorded as.
	Agreed Outcome = "ok"
	// Silent: it should have answered and did not (the CLI printed its
	// resume banner but no hint was read; an instrumented run's capture
	// stayed empty though the conversation exists).
	Silent Outcome = "silent"
	// Disagreed: it named another conversation.
	Disagreed Outcome = "disagree"
	// NotExpected: nothing was to be had from it in this run.
	NotExpected Outcome = "-"
)

// Run is one line of the tally.
type Run struct {
	Time    time.Time
	Version string // the CLI's version; "" when unknown
	Hint    Outcome
	Capture Outcome
}

// NoteRun appends one run to tool's tally. The file is opened as every
// file of the store is (safe.AppendFile): a FIFO, a device or a symlink in
// its place is an error, never a wait.
func (s *Store) NoteRun(tool string, r Run) error {
	if err := checkToolName(tool); err != nil {
		return err
	}
	dir := filepath.Join(s.dir, "drift")
	p := filepath.Join(dir, tool)
	version := r.Version
	if version == "" || len(version) > maxVersion || strings.Trim(version, versionChars) != "" {
		version = "?"
	}
	line := fmt.Sprintf("%d %s hint=%s capture=%s\n", r.Time.Unix(), version, r.Hint, r.Capture)
	// Every shim run comes here as it ends: one open, and the directory
	// made only when the open says it is missing.
	size, err := safe.AppendFile(p, []byte(line), 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("note run: %w", err)
		}
		size, err = safe.AppendFile(p, []byte(line), 0o600)
	}
	if err == nil && size > maxDriftSize {
		err = s.trimDrift(p)
	}
	if err != nil {
		return fmt.Errorf("note run: %w", err)
	}
	return nil
}

// trimDrift keeps the newest maxDriftRuns lines of a tally, whatever its
// size: only its last maxDriftSize bytes are read.
func (s *Store) trimDrift(p string) error {
	runs, err := readDrift(p)
	if err != nil {
		return err
	}
	if len(runs) > maxDriftRuns {
		runs = runs[len(runs)-maxDriftRuns:]
	}
	var b bytes.Buffer
	for _, l := range runs {
		b.WriteString(l + "\n")
	}
	return safe.WriteFile(p, b.Bytes(), 0o600)
}

// Runs returns tool's tally in the store at dir, oldest first, without
// opening (or creating) the store: its newest runs, as many as its last
// maxDriftSize bytes hold. Lines that do not parse are skipped: the tally is
// advice, never a reason to fail.
func Runs(dir, tool string) ([]Run, error) {
	if err := checkToolName(tool); err != nil {
		return nil, err
	}
	lines, err := readDrift(filepath.Join(dir, "drift", tool))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Run
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 4 || !strings.HasPrefix(f[2], "hint=") || !strings.HasPrefix(f[3], "capture=") {
			continue
		}
		sec, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		r := Run{Time: time.Unix(sec, 0), Version: f[1], Hint: Outcome(f[2][5:]), Capture: Outcome(f[3][8:])}
		if r.Version == "?" {
			r.Version = ""
		}
		out = append(out, r)
	}
	return out, nil
}

// readDrift returns the complete lines in the last maxDriftSize bytes of a
// tally. A tally that grew past its bound (runs that finished together, a
// trim that failed, an older fleetcom) is read all the same: its oldest
// lines are the ones left out.
func readDrift(p string) ([]string, error) {
	data, cut, err := safe.ReadTail(p, maxDriftSize, safe.NoFollow)
	if err != nil {
		return nil, err
	}
	if cut {
		// The window began inside a line: drop the piece.
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		} else {
			data = nil
		}
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), maxDriftSize)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	return lines, nil
}

// checkToolName checks that a tool name can name a file: the shape every
// agent's name has.
func checkToolName(tool string) error {
	if tool == "" || strings.Trim(tool, "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
		return invalid("unknown tool %q", tool)
	}
	return nil
}
