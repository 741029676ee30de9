// Package e2e proves fleetcom against the real Claude Code, Codex and Grok
// CLIs, driven interactively in tmux and offline against the fake model API of
// package fakeapi. See README.md for the command, what is checked and the
// facts measured on the pinned versions.
//
// The map: install.go installs the pinned CLIs with npm; world.go and
// config.go make a scratch user (home, XDG dirs, tool homes, offline config,
// environment) around one fake API; tmux.go runs programs in a private tmux
// server and waits on screen text; drive.go knows each CLI's screen markers
// and exit hints; stores.go reads what the CLIs filed (transcripts, rollouts)
// and what recording hooks and notifiers received; fleetcom.go builds and
// runs fleetcom. Grok has files of its own: grok.go (install, screen cues,
// exit hint), grok_config.go (its config and hooks in a World), grok_store.go
// (its session folders), grok_rig_test.go (installing it once per test
// process) and grok_helpers_test.go (what the Grok tests check with). The tests are *_test.go: Direct* need no fleetcom, Shim* drive
// the CLIs through fleetcom's shims.
//
// Nothing here touches the real user's home: every process runs with an
// environment built from scratch.
package e2e
