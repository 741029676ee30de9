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
// it). `fleetcom status` reads the folder (Running), only from a store
// nobody else can write to (Private): only runs whose CLI is alive under
// its shim (Live: PID, start time and boot ID all match, so a reused PID
// never passes for a run, and the process is the child of the shim, or of
// the session leader the shim put between them, and the shim a fleetcom,
// so a file naming any other process is no run), each brought up to date
// with the agent's own record of its process where it keeps one (Fresh,
// harness.Viewer), in status order (Order). A Noticer decides which
// changes are told.
//
// What restore finds (restore.go). A run its user quit removes its file. One
// that ended otherwise keeps it, marked with how (Ending: its terminal hung
// up, or a signal ended the CLI, as the shim saw it); a killed shim leaves
// its file as it was, and a reboot leaves files of another boot, which Live
// refuses at once. A running shim dates its file anew every Beat, so a
// run that died unseen is known to have ended at most a beat after. None is
// ever shown as running. Lost lists them for `restore`: over, not running
// again, since the last boot by default, newest first, each saying when it
// was cut short or last seen alive, and the latest it can have ended (By).
// A new run of the conversation removes them once past its start-up (Tidy);
// ResumedSince tells the resumes that left no file (a message its agent's
// store dates after By, or a later end in the store's record). Widening
// names the remembered options that widen an agent's permissions. Window
// builds the tmux windows `restore --exec` opens, one per conversation,
// spaced by a Pace; each start is judged (StartCheck) from its window and
// its run's state, and StopAfter failed starts in a row stop restore.
//
// Other hosts (remote.go): `fleetcom status --json` run there over the
// user's ssh (Remote, Link), its answer read up to maxRemote bytes and
// maxRemoteRuns runs, each run checked as a live file is (Status.check).
//
// Invariants: a live file is read only if it passes the validation boundary
// (check: a registered agent, an ID of its grammar, a known state, an
// absolute directory, a terminal under /dev, a well-formed tmux pane, a
// known end), from a regular file no larger than maxLive in a private
// folder; a dead run is never returned by Running; no value reaches a tmux
// command line but a registered tool, an ID of its grammar and words quoted
// by safe.Quote, with '#' doubled where tmux reads formats; no value
// reaches ssh's but a host safe.Host accepts and a control socket path of
// plain characters. Every program run here is waited for with a bound
// (internal/bounded: its own process group, killed at the deadline), so
// neither a frozen tmux server nor an ssh's descendants can hold a caller.
// This package imports harness, internal/safe and internal/bounded only; it
// writes nothing but the live folder, and runs nothing but tmux (ListPanes,
// and restore's windows) and ssh (Link) when asked to.
package fleet
