// Package shim is the runtime around one agent CLI: what happens between a
// user typing `claude` (or `codex`, `grok`, `fleetcom run`, `fleetcom resume
// --exec`) and the real CLI's exit status coming back.
//
// Main flow (Run):
//   - An opaque command (anything but the accepted forms of package harness)
//     is a lookup of the real binary and an exec with argv unchanged: no
//     config is decoded, no ID generated, no store touched.
//   - An accepted command gets a private capture namespace under the runtime
//     root (namespace.go), the harness's instrumentation, and a child run by
//     Spawn: on its own PTY when stdin and stdout are terminals (pty.go,
//     copy.go, signal.go), in a session led by a small process of the
//     shim's own so that job control works as under a shell (jobs.go,
//     package internal/leader), else on the shim's own descriptors. A recorder
//     (record.go) writes the pinned ID to the store once the child has run a
//     moment, follows the capture file as the TUI redraws (watch.go), and at
//     exit applies the ID precedence: exit hint, capture, pinned, correlation.
//     Beside it the run's live state (live.go, package fleet) is written to
//     the live folder at the same moment and at each change of state: from
//     the agent's state hooks when its instrumentation gave it some, else
//     from the terminal (the copy loop stores the time of each chunk and
//     nudges for a typed Enter, nothing more). Its notices (notify.go) go to
//     the desktop, a program of the user's, or the terminal itself through
//     the PTY loop (aside.go).
//
// Finding the real binary (find.go) goes by what files are, never by editing
// PATH: the first <tool> on PATH that is neither this executable nor in the
// shim directory, and that this user may execute. As execvp(3) does, a file
// the kernel will not run as a program (no "#!") is run by /bin/sh, at the
// exec and at a child's start. A hop record in the environment lets a user's
// own wrapper named like the tool reach the CLI behind it, lets an agent
// that runs the tool again start a run of its own, and ends a genuine loop
// after maxHops.
//
// Invariants: nothing here calls os.Exit (main has the only exit point and
// re-raises a child's fatal signal with Reraise); the terminal is restored on
// every path; a failure of fleetcom's own machinery (runtime root, store,
// config) is reported through Options.Warn, once, after the child has the
// terminal back, and the command runs as typed; the child's status is
// returned untouched. This package knows nothing of XDG: cmd/fleetcom hands
// it every path (Paths).
package shim
