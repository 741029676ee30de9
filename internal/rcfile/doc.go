// Package rcfile reads a shell's startup files (bash, zsh, fish) the way
// the shell would reach them, to say where the `fleetcom init` line is and
// which lines put a directory in front of PATH after it. install.sh asks
// this through `fleetcom __ahead` before a login shell meets the problem;
// `fleetcom doctor` uses it to name the line behind a shim that does not
// come first, and the fix.
//
// The main flow: Chains lists, per way the shell starts (bash: login and
// interactive; zsh and fish: one), the lines it reads in order, following
// a line that sources another file named literally (chains.go). Each line
// is then read on its own (line.go): what it sources, whether it runs the
// init line, which directories it puts in front (PATH=…, zsh's path=(…),
// fish's set and fish_add_path, `brew shellenv`, macOS's path_helper).
// Blame, Ahead, InitLines and HookDropped answer over those chains.
//
// Invariants: nothing is run and nothing is written. A file is read only
// when it is a regular file, at most 1 MiB, and sourcing is followed a few
// levels deep, never round a loop. A word is expanded only as far as is
// known without running anything (quotes, ~, $HOME, $ZDOTDIR,
// $XDG_CONFIG_HOME); a directory named any other way is not guessed at.
// The environment is not read here: the caller passes the Home the words
// expand against.
//
// It imports internal/safe only (to read a file without being blocked by
// what sits in its place), and nothing of the rest of fleetcom.
package rcfile
