// Package termtest is the one terminal kit of fleetcom's tests: a private
// tmux server whose panes a test types into and reads back (tmux.go), a
// pseudo-terminal with a command on it, its output gathered as a user's
// terminal would receive it (pty.go), and a small strict model of a
// terminal screen to read that output as a grid (screen.go).
//
// Tests import it, and so does the e2e package, which is test code in
// non-test files; nothing that ships does. TestOnlyTestsImport holds
// that: fleetcom and fleetcom-shim never link it.
//
// Waits end on events where the kit has them (new output, the terminal
// hanging up, the process exiting) and poll otherwise; every wait has a
// deadline that only ends a wait that failed, never a measure of speed.
package termtest
