package picker

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/term"
)

// Row is one choice: the key the caller gets back (and the preview command
// is given), and the columns shown, in the order of Options.Header.
type Row struct {
	Key  string
	Cols []string
}

// Options say where and how to pick.
type Options struct {
	// Header names the columns.
	Header []string
	// In and Out are the terminal to pick on; when either is nil, /dev/tty
	// is opened for it. fzf always draws on the process's controlling
	// terminal and is handed Out as its stderr, where fzf draws.
	In, Out *os.File
	// FZF is the fzf program: "" looks for fzf on PATH and falls back to
	// the built-in picker when there is none, "-" never uses fzf, anything
	// else is the program to run (a path, or a name looked up on PATH), and
	// not finding it is an error.
	FZF string
	// Preview, when not empty, is the command whose output fzf shows for
	// the highlighted row: this argv with the row's key appended. The
	// built-in picker has no preview.
	Preview []string
	// Query is typed into the filter when the picker opens.
	Query string
	// Multi lets the user mark several rows and choose them together
	// (PickMany): Tab and Shift-Tab mark, as in fzf --multi.
	Multi bool
	// Text, when set, finds rows by what they stand for beyond their
	// columns (a conversation's text): given the filter as typed, it
	// returns the keys of the rows that hold it. The built-in picker asks
	// it in the background once typing pauses, and a row then matches
	// when its columns hold every word of the filter or its key is among
	// those returned for that filter.
	Text func(filter string) []string
	// TextCommand does for fzf what Text does for the built-in picker: the
	// argv of a command fzf runs whenever its query changes, with the
	// file of the lines it was given and the query appended. It prints
	// those lines again as MarkText does, and fzf's own matching then
	// keeps the rows whose text holds the query.
	TextCommand []string
	// More, when set, brings the rows after those given, in batches, while
	// the caller still reads them; the caller closes it after the last
	// batch. The built-in picker opens on the rows given and takes each
	// batch as it comes, below them; fzf is started once every batch is
	// in. A row's index, as Pick returns it, counts the rows given first,
	// then those of each batch in order. A batch holding an invalid key
	// ends the picker with ErrBadKey. Rows given first may be none while
	// batches are still to come.
	More <-chan []Row
}

var (
	// ErrCancelled is returned when the user left without choosing.
	ErrCancelled = errors.New("cancelled")
	// ErrNoMatch is returned when there was nothing to choose from, or fzf
	// was left with nothing matching its query; it wraps ErrCancelled.
	ErrNoMatch error = noMatch{}
	// ErrNoTerminal is returned when there is no terminal to pick on.
	ErrNoTerminal = errors.New("picking needs a terminal")
	// ErrBadKey is returned for a row key outside [A-Za-z0-9:._-].
	ErrBadKey = errors.New("invalid row key")
)

// SignalError is returned when SIGINT, SIGTERM or SIGHUP arrived while the
// picker was open. The terminal has been restored by then; the caller
// decides whether to end the process with the signal (after its own
// cleanup), as a program killed by it would. It wraps ErrCancelled.
type SignalError struct{ Signal syscall.Signal }

func (e *SignalError) Error() string { return "cancelled by signal: " + e.Signal.String() }

// Unwrap makes errors.Is(err, ErrCancelled) hold for a signal too.
func (e *SignalError) Unwrap() error { return ErrCancelled }

// ValidKey reports whether k can be a row key: not empty, at most 256
// bytes of letters, digits and : . _ -. Keys reach a command line (the
// preview's), so nothing a shell could read as syntax is allowed in them.
func ValidKey(k string) bool {
	if k == "" || len(k) > 256 {
		return false
	}
	for i := 0; i < len(k); i++ {
		switch c := k[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == ':', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// Pick shows rows, newest first as given, and returns the index of the one
// the user chose. It returns an error wrapping ErrCancelled when none was
// chosen (a *SignalError when a signal ended the picker), ErrNoTerminal when
// there is no terminal, and ErrBadKey before anything is drawn when a key
// is invalid. The terminal is left as it was found on every path, panics
// included. Pick writes only to the terminal it was given or opened, and
// fzf's own output never reaches the caller's stdout.
func Pick(rows []Row, o Options) (int, error) {
	o.Multi = false
	chosen, err := pick(rows, o)
	if err != nil {
		return -1, err
	}
	return chosen[0], nil
}

// PickMany is Pick choosing several rows: the ones the user marked, in the
// order given, or the selected one when none was marked. It returns at
// least one index, or an error as Pick does.
func PickMany(rows []Row, o Options) ([]int, error) {
	o.Multi = true
	return pick(rows, o)
}

func pick(rows []Row, o Options) ([]int, error) {
	if err := checkKeys(rows); err != nil {
		return nil, err
	}
	for _, a := range append(slices.Clip(o.Preview), o.TextCommand...) {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, fmt.Errorf("command word %q: holds a NUL byte", a)
		}
	}
	// The picker opens on at least one row: until one has come, or the
	// last batch, it waits.
	for len(rows) == 0 && o.More != nil {
		batch, ok := <-o.More
		if !ok {
			o.More = nil
			break
		}
		if err := checkKeys(batch); err != nil {
			return nil, err
		}
		rows = batch
	}
	if len(rows) == 0 {
		return nil, ErrNoMatch
	}
	in, out, done, err := terminal(o.In, o.Out)
	if err != nil {
		return nil, err
	}
	defer done()
	fzf, err := findFZF(o.FZF)
	if err != nil {
		return nil, err
	}
	if fzf != "" {
		// fzf reads its lines as they come, but they are laid out in
		// columns as wide as the widest row's: it is given them all.
		for o.More != nil {
			batch, ok := <-o.More
			if !ok {
				break
			}
			if err := checkKeys(batch); err != nil {
				return nil, err
			}
			rows = append(rows, batch...)
		}
		return runFZF(fzf, rows, o, out)
	}
	return builtin(rows, o, in, out)
}

// checkKeys refuses rows of an invalid key (ValidKey).
func checkKeys(rows []Row) error {
	for _, r := range rows {
		if !ValidKey(r.Key) {
			return fmt.Errorf("%w %q: only letters, digits and : . _ - are allowed", ErrBadKey, r.Key)
		}
	}
	return nil
}

// terminal returns the terminal to pick on, opening /dev/tty for what the
// caller left nil, and a function that closes what it opened.
func terminal(in, out *os.File) (*os.File, *os.File, func(), error) {
	done := func() {}
	if in == nil || out == nil {
		tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w: %w", ErrNoTerminal, err)
		}
		done = func() { tty.Close() }
		if in == nil {
			in = tty
		}
		if out == nil {
			out = tty
		}
	}
	for _, f := range []*os.File{in, out} {
		if !term.IsTerminal(int(f.Fd())) {
			done()
			return nil, nil, nil, fmt.Errorf("%w: %s is not one", ErrNoTerminal, f.Name())
		}
	}
	return in, out, done, nil
}

// findFZF resolves Options.FZF to a program, or "" for the built-in picker.
func findFZF(spec string) (string, error) {
	switch spec {
	case "-":
		return "", nil
	case "":
		p, err := exec.LookPath("fzf")
		if err != nil {
			return "", nil
		}
		return p, nil
	}
	p, err := exec.LookPath(spec)
	if err != nil {
		return "", fmt.Errorf("fzf: %w", err)
	}
	return p, nil
}

// Usable reports, without drawing anything, why Pick could not run on the
// terminal o names (or /dev/tty): ErrNoTerminal, or nil. A caller asks
// before gathering rows, so a script without a terminal hears that first.
func Usable(o Options) error {
	if os.Getenv("TERM") == "dumb" {
		return fmt.Errorf("%w: TERM=dumb cannot show a picker", ErrNoTerminal)
	}
	_, _, done, err := terminal(o.In, o.Out)
	if err != nil {
		return err
	}
	done()
	return nil
}

// noMatch is ErrNoMatch. It names ErrCancelled in a method, not a field:
// a variable that copied ErrCancelled would be set by code run when the
// process starts, and every shim run loads this package.
type noMatch struct{}

func (noMatch) Error() string { return "nothing matched: cancelled" }
func (noMatch) Unwrap() error { return ErrCancelled }
