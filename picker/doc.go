// Package picker lets the user choose one row of a table on the terminal, or
// several (PickMany):
// `fleetcom resume -i` and `fleetcom pick` choose a conversation with it.
//
// Pick runs fzf when it is installed, with a preview of the highlighted row
// produced by a command the caller names (fzf.go), and otherwise a small
// picker of its own (builtin.go): a filter line, a header, the matching rows
// with the selected one highlighted, on the alternate screen (screen.go says
// why). The built-in picker is split so that the rules are tested without a
// terminal: keys.go turns bytes into keys, model.go applies keys to the
// filter and the selection, screen.go draws a frame as bytes; builtin.go,
// reader.go and wait_*.go are the terminal and the signals around them.
//
// Invariants:
//   - nothing from a row is written to the terminal or handed to fzf before
//     Printable has made it harmless: titles and directories come from files
//     and may hold escape sequences;
//   - a row key reaches a command line (the preview's), so keys are checked
//     (ValidKey) and anything else is refused before anything is drawn; the
//     preview argv is never parsed by a shell;
//   - the terminal is restored on every path, a panic included, and no read
//     of it is left pending when Pick returns;
//   - Pick writes only to the terminal, never to os.Stdout, which carries
//     the caller's result; and it never ends the process: a signal comes
//     back as a *SignalError.
//
// It imports nothing of fleetcom: it knows rows, keys and a preview argv,
// not records, tools or the store.
package picker
