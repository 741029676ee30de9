// Package e2e proves fleetcom against the real Claude Code, Codex and Grok
// CLIs, driven interactively in tmux and offline against the fake model API of
// package fakeapi. See README.md for the command, what is checked and the
// facts measured on the pinned versions.
//
// The map: install.go holds the table of real CLIs (command, npm package,
// pinned version, what its install needs) and installs one version of one
// CLI into a prefix of its own; versions.go picks the versions a run drives
// (FLEETCOM_E2E_VERSIONS) and holds the table of behaviours that differ
// between versions, keyed by the first version measured to show them;
// main_test.go runs each test once per picked version, as a subtest named by
// it. world.go and config.go make a scratch user (home, XDG dirs, tool
// homes, offline config, environment) around one fake API; tmux.go runs
// programs in a private tmux server and waits on screen text; drive.go knows
// each CLI's input line and exit hints; stores.go reads what the CLIs filed
// (transcripts, rollouts) and what recording hooks and notifiers received;
// fleetcom.go builds and runs fleetcom. Besides its row in the table, Grok
// has files of its own: grok.go (screen cues, exit hint), grok_config.go
// (its config and hooks in a World), grok_store.go (its session folders)
// and grok_helpers_test.go (its World, headless runs and what the Grok
// tests check with). The tests are *_test.go: Direct*, ClaudeHint and Move* need
// no fleetcom, Shim* drive the CLIs through fleetcom's shims.
//
// Nothing here touches the real user's home: every process runs with an
// environment built from scratch.
package e2e
