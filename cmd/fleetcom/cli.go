package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fleetcom/fleetcom/catalog"
	"github.com/fleetcom/fleetcom/shim"
)

// Exit statuses (docs/reference.md, "Exit statuses"). A command that runs a child
// exits with the child's status instead.
const (
	exitOK       = 0
	exitNotFound = 1 // nothing found, or a precondition failed
	exitUsage    = 2 // bad usage or invalid input
	exitNoReal   = 127
	// exitCancelled: a picker left without a choice (Esc, Ctrl-C), as
	// fzf and a shell report an interrupted command.
	exitCancelled = 130
)

var stdout io.Writer = os.Stdout

// command is one subcommand: everything parsing, help and completion know
// of it, in one place.
type command struct {
	name    string
	args    string // the positional arguments in the usage line: "[TOOL] [ID|PREFIX]"
	summary string // one line, for the command list and completion menus
	help    string // what follows the usage line in `fleetcom help NAME`
	flags   []flag
	// raw: the arguments are a command line of their own, taken as they
	// are after an optional "--".
	raw    bool
	hidden bool
	// complete offers candidates for the positional argument after pos.
	complete func(in input, pos []string, ids idSource) []candidate
	run      func(in input) error
}

// flag is one flag of a command.
type flag struct {
	name  string // "-C", "--exec"
	value string // what it takes, for the usage line ("DIR"); "" for a switch
	dir   bool   // the value is a directory: completion lists directories
	many  bool   // may be given more than once (all returns every value)
	help  string
}

// input is a parsed command line.
type input struct {
	flags map[string]string
	multi map[string][]string
	args  []string
	// cur is, for completion only, the word being completed.
	cur string
}

func (in input) has(name string) bool     { _, ok := in.flags[name]; return ok }
func (in input) get(name string) string   { return in.flags[name] }
func (in input) all(name string) []string { return in.multi[name] }

// usageError is bad usage or invalid input: exit status 2.
type usageError struct{ msg, hint string }

func (e usageError) Error() string { return e.msg }
func (e usageError) Hint() string  { return e.hint }

func usagef(format string, args ...any) error { return usageError{msg: fmt.Sprintf(format, args...)} }

// notFoundError is "nothing found" or a failed precondition: exit status 1.
type notFoundError struct{ msg, hint string }

func (e notFoundError) Error() string { return e.msg }
func (e notFoundError) Hint() string  { return e.hint }

// exitStatus carries a child's status out of a command that ran one; it is
// not a failure of fleetcom's and is not reported.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// exitCode is the status an error stands for, however deeply it is wrapped.
func exitCode(err error) int {
	var st exitStatus
	var u usageError
	var nf notFoundError
	var ce *catalog.Error
	var nr *shim.NoRealError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &st):
		return int(st)
	case errors.As(err, &u):
		return exitUsage
	case errors.As(err, &nf):
		return exitNotFound
	case errors.As(err, &ce):
		if ce.Kind == catalog.Invalid {
			return exitUsage
		}
		return exitNotFound
	case errors.As(err, &nr):
		return exitNoReal
	}
	return exitNotFound
}

// lookup finds a command by name.
func lookup(name string) (*command, bool) {
	t := commandTable()
	for i := range t {
		if t[i].name == name {
			return &t[i], true
		}
	}
	return nil, false
}

// dispatch runs the fleetcom command line and returns the exit status.
func dispatch(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usageText())
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "--help":
		name = "help"
	case "-v", "--version":
		name = "version"
	}
	cmd, ok := lookup(name)
	if !ok {
		err := usageError{msg: fmt.Sprintf("unknown command %q", name), hint: "run 'fleetcom help' for the list of commands"}
		if s := suggest(name, shownCommands()); s != "" {
			err.hint = fmt.Sprintf("did you mean 'fleetcom %s'?", s)
		}
		report(err)
		return exitUsage
	}
	if !cmd.raw && !cmd.hidden && cmd.name != "help" && wantsHelp(args[1:]) {
		fmt.Fprint(stdout, cmd.helpText())
		return exitOK
	}
	in, err := cmd.parse(args[1:])
	if err == nil {
		err = cmd.run(in)
	}
	afterCatalogs()
	code := exitCode(err)
	var st exitStatus
	if err != nil && !errors.As(err, &st) {
		report(err)
	}
	return code
}

// wantsHelp reports a -h or --help among the arguments, before any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "--help" {
			return true
		}
	}
	return false
}

// parse separates flags from positional arguments, which may be
// interleaved. "-C DIR", "-C=DIR" and "--flag" forms are accepted; "--"
// ends the flags.
func (c *command) parse(args []string) (input, error) {
	in := input{flags: map[string]string{}, multi: map[string][]string{}}
	if c.raw {
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		in.args = args
		return in, nil
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			in.args = append(in.args, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			in.args = append(in.args, a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		f, ok := c.flag(name)
		switch {
		case !ok:
			return input{}, c.unknownFlag(name)
		case f.value != "" && hasValue:
			in.flags[name] = value
			in.multi[name] = append(in.multi[name], value)
		case f.value != "":
			if i+1 >= len(args) {
				return input{}, c.misuse("flag %s needs a value (%s)", name, f.value)
			}
			i++
			in.flags[name] = args[i]
			in.multi[name] = append(in.multi[name], args[i])
		case hasValue:
			return input{}, c.misuse("flag %s takes no value", name)
		default:
			in.flags[name] = "true"
		}
	}
	return in, nil
}

func (c *command) flag(name string) (flag, bool) {
	for _, f := range c.flags {
		if f.name == name {
			return f, true
		}
	}
	return flag{}, false
}

// misuse is a usage error that shows the command's usage line.
func (c *command) misuse(format string, args ...any) error {
	return usageError{msg: fmt.Sprintf(format, args...), hint: "usage: " + c.usage()}
}

func (c *command) unknownFlag(name string) error {
	names := make([]string, len(c.flags))
	for i, f := range c.flags {
		names[i] = f.name
	}
	err := usageError{msg: fmt.Sprintf("unknown flag %s for %s", name, c.name), hint: "usage: " + c.usage()}
	if s := suggest(name, names); s != "" {
		err.hint = fmt.Sprintf("did you mean %s? usage: %s", s, c.usage())
	}
	return err
}

// usage is the command's usage line, made from its table entry.
func (c *command) usage() string {
	parts := []string{"fleetcom", c.name}
	if c.args != "" {
		parts = append(parts, c.args)
	}
	for _, f := range c.flags {
		switch {
		case f.value != "" && f.many:
			parts = append(parts, "["+f.name+" "+f.value+"]...")
		case f.value != "":
			parts = append(parts, "["+f.name+" "+f.value+"]")
		default:
			parts = append(parts, "["+f.name+"]")
		}
	}
	return strings.Join(parts, " ")
}

// helpText is `fleetcom help NAME`: the usage line, the text, the flags.
func (c *command) helpText() string {
	var b strings.Builder
	b.WriteString("Usage: " + c.usage() + "\n")
	if c.help != "" {
		b.WriteString("\n" + c.help)
	}
	if len(c.flags) > 0 {
		b.WriteString("\n")
		width := 0
		for _, f := range c.flags {
			width = max(width, len(f.name)+len(f.value)+1)
		}
		for _, f := range c.flags {
			left := f.name
			if f.value != "" {
				left += " " + f.value
			}
			fmt.Fprintf(&b, "  %-*s  %s\n", width, left, f.help)
		}
	}
	return b.String()
}

// usageText lists the commands.
func usageText() string {
	var b strings.Builder
	b.WriteString("fleetcom keeps " + agentList("and") + " conversations resumable.\n\nUsage:\n")
	for _, c := range commandTable() {
		if !c.hidden {
			b.WriteString("  " + c.usage() + "\n")
		}
	}
	b.WriteString("\nRun 'fleetcom help COMMAND' for details.\n")
	return b.String()
}

// shownCommands lists the names of the commands help shows (not the
// hidden ones).
func shownCommands() []string {
	var out []string
	for _, c := range commandTable() {
		if !c.hidden {
			out = append(out, c.name)
		}
	}
	return out
}

// suggest returns the candidate closest to word when it is close enough to
// be what was meant: at most two edits, and fewer than half the word.
func suggest(word string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(word, c); d < bestD && d*2 < max(len(word), 2) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance of two short
// words: insertions, deletions, substitutions and swaps of two neighbours
// each count one, so "lsit" is one edit from "list".
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// writeJSON prints v for scripts: indented, and with & < > as they are
// (a resume line holds "&&"), but the C1 controls escaped (c1Escape).
func writeJSON(v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := stdout.Write(c1Escape(b.Bytes()))
	return err
}

// jsonArray writes a JSON array for scripts an element at a time, in the
// bytes writeJSON gives the whole slice: a listing of thousands is never
// held, nor encoded into one growing buffer.
type jsonArray struct {
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder
	n   int
}

func newJSONArray(w io.Writer) *jsonArray {
	a := &jsonArray{w: bufio.NewWriterSize(w, 64<<10)}
	a.enc = json.NewEncoder(&a.buf)
	// An element of an indented array: its lines after the first one
	// step in once more.
	a.enc.SetIndent("  ", "  ")
	a.enc.SetEscapeHTML(false)
	return a
}

// add writes v, the array's next element.
func (a *jsonArray) add(v any) error {
	a.buf.Reset()
	if err := a.enc.Encode(v); err != nil {
		return err
	}
	if a.n == 0 {
		a.w.WriteString("[\n  ")
	} else {
		a.w.WriteString(",\n  ")
	}
	a.n++
	_, err := a.w.Write(c1Escape(bytes.TrimSuffix(a.buf.Bytes(), []byte("\n"))))
	return err
}

// close ends the array and writes out what is left of it.
func (a *jsonArray) close() error {
	if a.n == 0 {
		a.w.WriteString("[]\n")
	} else {
		a.w.WriteString("\n]\n")
	}
	return a.w.Flush()
}

// c1Escape writes the C1 controls (U+0080 to U+009F) of encoded JSON as
// \u0080 to \u009f. Go escapes only U+0000 to U+001F, and a terminal
// that shows the JSON reads a raw C1 control as one (U+009B is CSI): text
// from files and other hosts must not drive it. The encoder's output is
// valid UTF-8, in which the bytes C2 80 to C2 9F are exactly these runes,
// always inside strings.
func c1Escape(j []byte) []byte {
	if !bytes.Contains(j, []byte{0xc2}) {
		return j
	}
	out := make([]byte, 0, len(j)+64)
	for i := 0; i < len(j); i++ {
		if j[i] == 0xc2 && i+1 < len(j) && j[i+1] >= 0x80 && j[i+1] <= 0x9f {
			out = fmt.Appendf(out, `\u%04x`, j[i+1])
			i++
			continue
		}
		out = append(out, j[i])
	}
	return out
}
