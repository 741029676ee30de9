// Package harness is fleetcom's knowledge of each agent CLI, one file (or a
// few named after it: claude.go, claudefind.go, claudemove.go) per agent.
// An agent file describes its agent with a Spec (name, home, ID grammar,
// resume spelling, options a resume drops, the files its runs need in their
// capture namespace, the versions it was proven on) and a Behaviour (how an
// accepted command is instrumented, how the exit hint is read, whether the
// store holds a conversation), and registers both from init. Optional
// interfaces add what not every agent has (capability.go): a capture channel
// (Capturer), correlation with the store (Correlator), titles (Titler),
// previews (Excerpter), discovery and adoption (Finder), the processes
// holding a conversation (Holder), a doctor check (Diagnoser), state
// events in its capture payloads (Stater, from hooks), its own record of
// what each running process does (Viewer), the files
// a conversation is made of, for export, import and move (Mover), or why
// they cannot leave their place (Unmovable), the date
// of a conversation's last message (Activer, activity.go), and the
// name a user gave a conversation (Namer, <agent>name.go), which is shown
// and matched but never put on a command line. Every other package reaches
// agents through All and Lookup and names none of them: adding an agent is
// adding its files, and removing one removes them (registry_test.go holds
// both).
//
// The pure decisions (detecting accepted forms, instrumenting, parsing,
// scraping, building the resume line) are functions over values. Every ID
// passes its agent's Grammar, the validation boundary, before it leaves this
// package, and ResumeLine checks again.
//
// This package reads the agents' own homes (transcripts, rollouts, config)
// and what an agent's installer left beside its binary (installed.go); only
// Probe, for `fleetcom doctor`, runs an agent's binary to learn its version
// and what it supports (probe.go, cached per binary, failures too), so a
// shim run starts nothing but the CLI. It does no terminal I/O and never
// touches fleetcom's session store. Discovery (discover.go, <agent>find.go)
// finds conversations that no record knows; its only writes are caches in a
// directory the caller hands it (the Codex rollout index, codexindex.go).
// Writes into an agent's home happen only through a Mover, when the user
// imports or moves a conversation.
package harness
