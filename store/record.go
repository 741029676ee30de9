package store

import (
	"cmp"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// Record is one conversation of one tool in one directory (docs/reference.md, "Records").
// The resume line is not part of it: whoever prints a record builds the line
// from Tool, Program, ID and Options, so nothing read from disk ever reaches
// a command line unchecked.
type Record struct {
	Tool      string     `json:"tool"`              // an agent's name; Config.Valid decides
	ID        string     `json:"id"`                // in the tool's ID grammar
	Cwd       string     `json:"cwd"`               // absolute, clean, symlinks resolved
	Command   string     `json:"command"`           // as the user typed it; display only
	Program   string     `json:"program"`           // program word as typed; feeds the resume line
	Source    string     `json:"source"`            // hint, capture, pinned, fs, adopted, imported or moved
	Started   time.Time  `json:"started"`           // when the first run of the conversation began
	Ended     *time.Time `json:"ended"`             // nil while a run is open or its shim was killed
	Active    *time.Time `json:"active,omitempty"`  // the conversation's last message, as its agent's store dates it
	Exit      *int       `json:"exit"`              // exit status of the last finished run
	Resumable bool       `json:"resumable"`         // the tool's own store holds the conversation
	Home      string     `json:"home"`              // tool home of the run that began it
	Title     string     `json:"title"`             // first prompt, when known; display only
	Updated   time.Time  `json:"updated"`           // stamped by the store on every write
	Options   []string   `json:"options,omitempty"` // launch options replayed on resume

	// What the last run learned, for drift reports: the CLI's version, the
	// evidence channels that named an ID (hint, capture, pinned, fs) and
	// those of them that named another one than the record's.
	Version   string   `json:"version,omitempty"`
	Evidence  []string `json:"evidence,omitempty"`
	Disagreed []string `json:"disagreed,omitempty"`
}

// evidenceChannels are the channels a run can learn an ID from.
var evidenceChannels = []string{"hint", "capture", "pinned", "fs"}

// sources are the ways a record's ID can have been learned: a run's
// evidence channels, or adopting, importing or moving a conversation.
var sources = []string{"hint", "capture", "pinned", "fs", "adopted", "imported", "moved"}

// ErrInvalid marks a record that fails validation, whether it came from a
// caller or from disk; the errors of writes whose record fails validation
// wrap it (nothing was written).
var ErrInvalid = errors.New("invalid session record")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

func validSource(s string) bool { return slices.Contains(sources, s) }

// fileName is the base name of a record's file under records/.
func fileName(tool, id string) string { return tool + "-" + id + ".json" }

// markerName is the base name of a record's index entry under dirs/<h>/.
func markerName(tool, id string) string { return tool + "-" + id }

// parseKey splits "<tool>-<id>" and reports whether both halves are valid.
// Tool names hold no '-', so the first one ends the tool.
func (s *Store) parseKey(name string) (tool, id string, ok bool) {
	tool, id, ok = strings.Cut(name, "-")
	if !ok || !s.cfg.Valid(tool, id) {
		return "", "", false
	}
	return tool, id, true
}

// checkKey validates the identity of a record.
func (s *Store) checkKey(tool, id string) error {
	if !s.cfg.Valid(tool, id) {
		return invalid("%q is not a session id of a known tool %q", id, tool)
	}
	return nil
}

// checkPath accepts an absolute, clean path of valid UTF-8, which JSON
// carries faithfully; other bytes it cannot. Control characters are
// allowed (a directory's name may hold ESC, a tab or a newline): whoever
// shows a path escapes them, and a resume line quotes them.
func checkPath(what, p string, optional bool) error {
	switch {
	case p == "" && optional:
		return nil
	case p == "":
		return invalid("%s is empty", what)
	case !utf8.ValidString(p) || strings.ContainsRune(p, 0):
		return invalid("%s %q is not valid UTF-8", what, p)
	case !filepath.IsAbs(p):
		return invalid("%s %q is not absolute", what, p)
	case filepath.Clean(p) != p:
		return invalid("%s %q is not clean", what, p)
	}
	return nil
}

// checkProgram accepts a program word that a shell reads as itself: a
// conservative character set and a basename naming the record's tool. Empty
// means the bare tool name.
func checkProgram(tool, p string) error {
	if p == "" {
		return nil
	}
	for i := 0; i < len(p); i++ {
		if !safe.ProgramByte(p[i]) {
			return invalid("program %q holds characters outside [A-Za-z0-9/._+-]", p)
		}
	}
	if p[0] == '-' || filepath.Base(p) != tool {
		return invalid("program %q does not name %s", p, tool)
	}
	return nil
}

func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}

// stripControl drops control characters from text that is only displayed, so
// a hostile title cannot drive the terminal it is printed on.
func stripControl(s string) string {
	if !hasControl(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

// check is the whole validation boundary for a stored record: what Put writes
// and what the readers return both pass it.
func (s *Store) check(r Record) error {
	if r.Source == "" {
		return invalid("no source")
	}
	return s.checkInput(r)
}

// checkInput holds a caller's record to the rules that the merge cannot
// repair (it may leave Source to the stored record); the merged result is
// checked in full afterwards.
func (s *Store) checkInput(r Record) error {
	for _, c := range append(slices.Clone(r.Evidence), r.Disagreed...) {
		if !slices.Contains(evidenceChannels, c) {
			return invalid("unknown evidence channel %q", c)
		}
	}
	if err := s.checkKey(r.Tool, r.ID); err != nil {
		return err
	}
	if err := checkPath("cwd", r.Cwd, false); err != nil {
		return err
	}
	if err := checkPath("home", r.Home, true); err != nil {
		return err
	}
	if r.Source != "" && !validSource(r.Source) {
		return invalid("unknown source %q", r.Source)
	}
	if err := checkProgram(r.Tool, r.Program); err != nil {
		return err
	}
	return checkOptions(r.Options)
}

// checkOptions refuses launch options that could not be shown or passed
// through a shell line unchanged; which options are allowed at all is the
// resume-line builder's decision.
func checkOptions(opts []string) error {
	for _, o := range opts {
		if !utf8.ValidString(o) || hasControl(o) {
			return invalid("launch option %q holds control characters", o)
		}
	}
	return nil
}

// normalize puts the free-form parts of a record in their stored shape: display
// text without control characters and times in UTC without a monotonic
// reading, so a record compares equal to itself after a round trip.
func normalize(r Record) Record {
	r.Title = stripControl(r.Title)
	r.Command = stripControl(r.Command)
	r.Started = utc(r.Started)
	r.Updated = utc(r.Updated)
	if r.Ended != nil {
		e := utc(*r.Ended)
		r.Ended = &e
	}
	if r.Active != nil {
		a := utc(*r.Active)
		r.Active = &a
	}
	if r.Exit != nil {
		x := *r.Exit
		r.Exit = &x
	}
	r.Options = slices.Clone(r.Options)
	r.Evidence = slices.Clone(r.Evidence)
	r.Disagreed = slices.Clone(r.Disagreed)
	r.Version = stripControl(r.Version)
	return r
}

func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC().Round(0)
}

// Activity is when the conversation was last active: its last message as
// its agent's store dates it, when fleetcom has read that (Active); else
// the end of its last run; else, for a run still open, the record's last
// write, which follows the run.
func (r Record) Activity() time.Time {
	switch {
	case r.Active != nil:
		return *r.Active
	case r.Ended != nil:
		return *r.Ended
	}
	return r.Updated
}

// NewestFirst orders records by last activity, newest first. Ties go to
// the later end of a run, then to the later write: when one run ended in
// two conversations (a /clear it could not follow), it writes the one it
// ended in last. Then Started, ID and tool, so the order is total.
func NewestFirst(a, b Record) int {
	if c := b.Activity().Compare(a.Activity()); c != 0 {
		return c
	}
	if c := endOf(b).Compare(endOf(a)); c != 0 {
		return c
	}
	if c := b.Updated.Compare(a.Updated); c != 0 {
		return c
	}
	if c := b.Started.Compare(a.Started); c != 0 {
		return c
	}
	return cmp.Or(strings.Compare(a.ID, b.ID), strings.Compare(a.Tool, b.Tool))
}

// endOf is when the record's last run ended, zero while it is open.
func endOf(r Record) time.Time {
	if r.Ended == nil {
		return time.Time{}
	}
	return *r.Ended
}
