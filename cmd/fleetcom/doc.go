// Command fleetcom keeps agent CLI conversations resumable. Run under the
// name of an agent (through a shim symlink named after the agent's program)
// it is that agent's shim; under any other name it is the fleetcom command.
//
// This package is thin: it parses the command line, asks the other
// packages (catalog, fleet, shim, store, picker, harness) and prints what
// they answer. Its files, by group:
//
// Parsing and the command table. main.go chooses between the shim and the
// command by the name the binary was started under, and is the one caller
// of os.Exit. cli.go holds the exit statuses, the command, flag and input
// types, dispatch, the flag parser, the errors that carry an exit status
// and the usage text. commands.go is the table itself, built on first use
// so that a shim never pays for it: each command's usage, help, flags,
// completion and handler, read alike by parsing, help, completion and the
// manual page (man.go, `fleetcom __man`), with the handlers of help and
// version.
//
// Each command's file. resume.go (resume, and what the commands that start
// a conversation share: finishing a plan, running it, the directory a
// command works in), pick.go (pick, resume -i and the picker's preview),
// list.go (list, forget, prune), move.go (export, import, move), status.go
// with watch.go and watch_linux.go/watch_other.go (status and its --watch
// screen), restore.go, run.go (a command line run under the shim runtime),
// shims.go (shims install and remove, and the manual page beside them),
// init.go (the shell code `fleetcom init SHELL` prints), version.go (the
// version a build reports). running.go refuses to start a conversation that runs
// already, and hints.go suggests `move` for a directory whose records
// belong to one that is gone.
//
// The shim mode. shimmode.go hands the agent to shim.Run (through
// internal/shimenv, as cmd/fleetcom-shim does) and turns how the run ended
// into the exit status, re-raising a child's fatal signal once the
// terminal is restored. Nothing else of this package runs then. The shims
// `fleetcom shims install` makes link to fleetcom-shim when it sits beside
// this binary, so that their start does not load what only the commands
// need (the index's SQLite); shim mode here serves shims linked to
// fleetcom itself.
//
// Environment and paths. The locations (the XDG directories, the runtime
// root, the shim directory) come from the environment through
// internal/shimenv, which fleetcom-shim shares: they are resolved once into
// shim.Paths, and the other packages get plain paths. env.go also opens
// the store and the catalog, and makes the shim runtime's options, for
// every command that needs them.
//
// Output and messages. Results go to stdout, and nothing else does. Every
// message goes through msg.go (internal/msg), as "fleetcom: error: …", "warning: …" or
// "hint: …" on stderr, with the control characters of text read from files
// escaped. colour.go decides when colour is wanted (a terminal, no
// NO_COLOR); writeJSON in cli.go writes every --json answer.
//
// Completion. completion.go prints the shell's completion script
// (completions/, embedded) and finds fleetcom's own path for it;
// complete.go is `fleetcom __complete`, where every rule of what to offer
// lives, read from the command table, so the scripts only present it.
//
// Doctor. doctor.go runs the checks, by the rules the shims follow, and
// prints the report (text, where the PATH checks one startup line breaks
// are one problem; or JSON, a check per name, whose field names are
// stable);
// doctor_path.go checks which binary each name on PATH runs and, when
// another directory comes first, names the startup-file line behind it
// (internal/rcfile) and the fix; doctor_agents.go reports the agents'
// versions and the drift of their evidence channels.
//
// Setup. setup.go answers install.sh instead of letting it guess:
// `fleetcom __paths` (where fleetcom keeps its files, which agents it
// knows) and `fleetcom __ahead SHELL` (the one warning install.sh prints
// when startup-file lines, read by internal/rcfile, put agent CLIs in front
// of the shims: the lines, the CLIs each hides, and the fix).
//
// The tests play fleetcom and faithful fake agents from the test binary
// itself (main_test.go, fake*_test.go), drive scripts in testdata/script,
// real shells and terminals (ptydrive_test.go), and install.sh.
package main
