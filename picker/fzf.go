package picker

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"
)

// fzf is given the rows as lines "INDEX<tab>KEY<tab>COLUMNS", shows only
// COLUMNS (--with-nth=3..), matches only what it shows, and prints the
// chosen line whole, from which the index comes back.
//
// The preview command never appears in the template fzf hands its shell:
// each word of the argv travels in an environment variable of its own
// (previewEnv) and the template only names them, each in double quotes,
// followed by fzf's own quoted field {2}, the key. So no path, however odd
// (spaces, quotes, backslashes, $, or braces fzf would read as its own
// placeholders), is ever parsed by a shell or by fzf. fzf runs the template
// with $SHELL -c; SHELL is set to /bin/sh for it, and "$NAME" means the same
// in bash, zsh, dash and fish anyway.
//
// The user's FZF_DEFAULT_OPTS (colours, keys, layout) are honoured, but
// every option that would change what fzf reads or prints is turned off on
// the command line, where it takes precedence; options that cannot be turned
// off (--expect) only add lines before the chosen one, which is the last.
// Every option used exists in fzf 0.20 and later.

// previewVar is the prefix of the environment variables holding the
// preview argv.
const previewVar = "FLEETCOM_PREVIEW_"

// previewCommand is the template for a preview argv of n words.
func previewCommand(n int) string { return varWords(previewVar, n) + "{2}" }

// previewEnv is the environment that previewCommand(len(argv)) reads.
func previewEnv(argv []string) []string { return varEnv(previewVar, argv) }

// varWords is the words of an argv of n words held in the environment
// variables prefix0, prefix1…, each named in double quotes, and a space.
func varWords(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "\"$%s%d\" ", prefix, i)
	}
	return b.String()
}

// varEnv is the environment that varWords(prefix, len(argv)) reads.
func varEnv(prefix string, argv []string) []string {
	env := make([]string, len(argv))
	for i, a := range argv {
		env[i] = prefix + strconv.Itoa(i) + "=" + a
	}
	return env
}

// fzfArgs are fzf's arguments for a header line and a preview argv of n
// words, shown in the given preview window.
func fzfArgs(header string, n int, window string, multi bool) []string {
	many := "--no-multi"
	if multi {
		many = "--multi"
	}
	args := []string{
		many, "--no-read0", "--no-print0", "--no-print-query", "--no-tac",
		"--no-ansi", "--no-select-1", "--no-exit-0", "--no-header-lines", "--no-phony",
		"--no-sort", "--layout=reverse", `--delimiter=\t`, "--with-nth=3..", "--nth=1..",
		"--header=" + header,
	}
	if n > 0 {
		args = append(args, "--preview="+previewCommand(n), "--preview-window="+window)
	}
	return args
}

// fzfLayout decides where the preview goes on a terminal cols wide and how
// many cells that leaves the list: beside it on a wide terminal, below it on
// a narrow one.
func fzfLayout(cols int, preview bool) (list int, window string) {
	switch {
	case !preview:
		return max(cols-4, 20), ""
	case cols >= 100:
		return max(cols-cols/2-4, 20), "right:50%:wrap"
	}
	return max(cols-4, 20), "down:50%:wrap"
}

// fzfInput is the lines fzf reads, and the header, laid out for list cells.
func fzfInput(t *table, rows []Row, list int) ([]byte, string) {
	widths := fit(t.natural, list)
	var b bytes.Buffer
	for i, cells := range t.cells {
		fmt.Fprintf(&b, "%d\t%s\t%s\n", i, rows[i].Key, strings.TrimRight(format(cells, widths), " "))
	}
	return b.Bytes(), strings.TrimRight(format(t.header, widths), " ")
}

// runFZF picks with the fzf at path. fzf opens the controlling terminal
// itself for keys and draws on its stderr, which is out; its stdout, where
// it prints the choice, is a pipe read here, never the caller's.
func runFZF(path string, rows []Row, o Options, out *os.File) ([]int, error) {
	cols, _, err := term.GetSize(int(out.Fd()))
	if err != nil || cols <= 0 {
		cols = 80
	}
	list, window := fzfLayout(cols, len(o.Preview) > 0)
	input, header := fzfInput(newTable(o.Header, rows), rows, list)

	var stdout bytes.Buffer
	args := fzfArgs(header, len(o.Preview), window, o.Multi)
	if o.Query != "" {
		args = append(args, "--query="+o.Query)
	}
	env := append(append(os.Environ(), "SHELL=/bin/sh"), previewEnv(o.Preview)...)
	if len(o.TextCommand) > 0 {
		// Without its file the list is only not searched by text.
		if file, remove, err := writeTextFile(input); err == nil {
			defer remove()
			args = append(args, textBinding(len(o.TextCommand)))
			env = append(env, textEnv(o.TextCommand, file)...)
		}
	}
	cmd := exec.Command(path, args...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(input)
	cmd.Stdout = &stdout
	cmd.Stderr = out
	// Once fzf has exited, its choice is in: a process it started (a
	// preview, an execute binding) that still holds the pipe must not
	// hold the picker.
	cmd.WaitDelay = time.Second

	// fzf restores the terminal itself when it is signalled. Signals sent
	// to this process alone are passed on, so that fzf never outlives it
	// holding the terminal; either way the picker reports the signal.
	sigc := make(chan os.Signal, 4)
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		if !signal.Ignored(s) {
			signal.Notify(sigc, s)
		}
	}
	defer signal.Stop(sigc)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start fzf: %w", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	var caught os.Signal
	for exited := false; !exited; {
		select {
		case s := <-sigc:
			if caught == nil {
				caught = s
			}
			_ = cmd.Process.Signal(s)
		case err = <-waited:
			exited = true
		}
	}
	if caught != nil {
		return nil, &SignalError{caught.(syscall.Signal)}
	}
	if errors.Is(err, exec.ErrWaitDelay) && cmd.ProcessState.Success() {
		err = nil // fzf chose; what it left running has its output cut
	}
	return fzfResult(err, stdout.Bytes(), rows)
}

// fzfResult reads fzf's exit status and output: 0 and the chosen lines, 1
// when nothing matched, 130 when the user left (Esc, Ctrl-C). Lines that
// are not rows it was given (what --expect adds before them) are passed
// over; a row chosen twice counts once.
func fzfResult(err error, output []byte, rows []Row) ([]int, error) {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		switch exit.ExitCode() {
		case 1:
			return nil, ErrNoMatch
		case 130:
			return nil, ErrCancelled
		}
		return nil, fmt.Errorf("fzf: %w", err)
	}
	if err != nil {
		return nil, fmt.Errorf("fzf: %w", err)
	}
	var chosen []int
	seen := map[int]bool{}
	for _, rec := range strings.FieldsFunc(string(output), func(r rune) bool { return r == '\n' || r == 0 }) {
		fields := strings.SplitN(rec, "\t", 3)
		if len(fields) != 3 {
			continue
		}
		if i, err := strconv.Atoi(fields[0]); err == nil && i >= 0 && i < len(rows) && rows[i].Key == fields[1] && !seen[i] {
			seen[i] = true
			chosen = append(chosen, i)
		}
	}
	if len(chosen) == 0 {
		return nil, fmt.Errorf("fzf printed no row it was given")
	}
	return chosen, nil
}
