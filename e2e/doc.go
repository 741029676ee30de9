// Package e2e proves fleetcom against the real Claude Code and Codex CLIs,
// driven interactively in tmux and offline against the fake model API of
// package fakeapi. See README.md for the command, what is checked and the
// facts measured on the pinned versions.
//
// The map: install.go installs the pinned CLIs with npm; world.go and
// config.go make a scratch user (home, XDG dirs, tool homes, offline config,
// environment) around one fake API; tmux.go runs programs in a private tmux
// server and waits on screen text; drive.go knows each CLI's screen markers
// and exit hints; stores.go reads what the CLIs filed (transcripts, rollouts)
// and what recording hooks and notifiers received; fleetcom.go builds and
// runs fleetcom. The tests are *_test.go: Direct* need no fleetcom, Shim*
// drive the CLIs through fleetcom's shims.
//
// Nothing here touches the real user's home: every process runs with an
// environment built from scratch.
package e2e
