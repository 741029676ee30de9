// Package fleet is what fleetcom knows of the runs going on now: which
// conversations are running under the shims on this machine, in which
// state, where, and in which order to show them; which changes of state are
// worth a notice. There is no daemon: each shim writes its own run's live
// file, and whoever asks reads them all.
//
// Main flow. A shim, once its child has run a moment, writes a Run to the
// live folder (Dir, <store>/live/<boot>-<pid>-<start>.json, atomically), and
// again at each change of state its Tracker reports; it removes the file
// when the user quits the run. The Tracker turns evidence into states: the agent's
// hook events (harness.Stater) where it reports them, else the activity on
// the run's terminal (a prompt sent starts a turn, QuietGap of silence ends
// it). `fleetcom status` reads the folder (Running): only runs whose CLI is
// alive (Alive: PID, start time and boot ID all match, so a reused PID
// never passes for a run), each brought up to date with the agent's own
// record of its process where it keeps one (Fresh, harness.Viewer), in
// status order (Order). A Noticer decides which changes are told.
//
// What restore finds (restore.go). A run its user quit removes its file. One
// that ended otherwise keeps it, marked with how (Ending: its terminal hung
// up, or a signal ended the CLI, as the shim saw it); a killed shim leaves
// its file as it was, and a reboot leaves files of another boot, which Alive
// refuses at once. None is ever shown as running. Lost lists them for
// `restore`: over, not running again, not resumed since (a new run of the
// conversation removes them, Tidy; a later end in the store's record counts
// too), since the last boot by default, newest first. Window builds the tmux
// windows `restore --exec` opens, one per conversation, Stagger apart.
//
// Invariants: a live file is read only if it passes the validation boundary
// (check: a registered agent, an ID of its grammar, a known state, an
// absolute directory, a well-formed tmux pane, a known end), from a regular
// file no larger than maxLive; a dead run is never returned by Running; no
// value reaches a tmux command line but a registered tool, an ID of its
// grammar and words quoted by safe.Quote, with '#' doubled where tmux reads
// formats. This package imports harness and internal/safe only; it writes
// nothing but the live folder, and runs nothing but tmux (ListPanes, and
// restore's windows) when asked to.
package fleet
