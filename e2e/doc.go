// Package e2e proves fleetcom against the real agent CLIs, driven
// interactively in tmux and offline against the fake model API of package
// fakeapi. See README.md for the command, what is checked and the facts
// measured on the pinned versions.
//
// The map: agents.go is the table of CLIs the suite drives, which each CLI's
// world file (<cli>_world.go) fills from init: its npm package and pinned
// version, its part of a World (environment, config files, trust) and its
// screen cues (ready, quit, exit hint), and the behaviours that differ
// between its versions. install.go installs one version of one CLI into a
// prefix of its own; versions.go picks the versions a run drives
// (FLEETCOM_E2E_VERSIONS); main_test.go runs each test once per picked
// version, as a subtest named by it. world.go and config.go make a scratch
// user (home, XDG dirs, every CLI's set-up, environment) around one fake
// API; tmux.go runs programs in a private tmux server (internal/termtest's)
// and waits on screen text; drive.go and stores.go hold what is common to driving the CLIs and
// reading what they filed; fleetcom.go builds and runs fleetcom. Each CLI's
// own files are named after it: <cli>_world.go, <cli>_store.go (what it
// files: transcripts, rollouts, session folders, and what recording hooks
// and notifiers received), and its tests, *_<cli>_test.go and
// <cli>_*_test.go. Direct*, ClaudeHint and Move* need no fleetcom, Shim*
// drive the CLIs through fleetcom's shims; agents_test.go needs neither and
// holds the table to the agent list (harness/agents).
//
// Nothing here touches the real user's home: every process runs with an
// environment built from scratch.
package e2e
