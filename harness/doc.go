// Package harness is what fleetcom's knowledge of an agent CLI is made of,
// and the toolkit every agent shares. The agents themselves live in
// packages of their own, harness/<name> (claude, codex, copilot, gemini,
// grok, opencode), each exporting one value, its Agent; package
// harness/agents lists them, and is how the rest of fleetcom reaches them.
// This package imports none of them.
//
// An Agent is a Spec, what is data (name, home, ID grammar, resume
// spelling, options a resume drops, the files its runs need in their
// capture namespace, the versions it was proven on), and a Behaviour, what
// needs code (how an accepted command is instrumented, how the exit hint
// is read, whether the store holds a conversation) (agent.go). Optional
// interfaces add what not every agent has (capability.go): a capture
// channel (Capturer), correlation with the store (Correlator), titles
// (Titler), previews (Excerpter), discovery and adoption (Finder,
// discover.go), the processes holding a conversation (Holder), a doctor
// check (Diagnoser), state events in its capture payloads (Stater, from
// hooks) and its own record of what each running process does (Viewer,
// state.go), the files a conversation is made of, for export, import and
// move (Mover), or why they cannot leave their place (Unmovable, move.go),
// the date of a conversation's last message (Activer, activity.go), the
// name a user gave a conversation (Namer, HintNamer, names.go), which is
// shown and matched but never put on a command line, and a fact about its
// binary only running it tells (Prober, probe.go). Agent's methods answer
// "nothing" for an agent without the capability.
//
// The toolkit is what more than one agent needs: the accepted forms
// (detect.go) and the canonical resume line (resume.go); exit hints in
// terminal output (scrape.go: PlainText, Hint, ScrapeTail, BannerLine);
// the agents' stores read line by line, from either end (files.go,
// activity.go), titles, names and previews (CleanTitle, CleanName,
// ExcerptBuilder, PromptText); refusals and discovery's order (Refuse,
// SortNewest); the rewrites of a move (RewriteField and its kin, move.go);
// launch options a resume keeps (options.go); percent-encoded paths
// (percent.go); and what a binary's installer left beside it, or doctor
// learned by running it (installed.go, probe.go, probecache.go).
//
// The pure decisions (detecting accepted forms, instrumenting, parsing,
// scraping, building the resume line) are functions over values. Every ID
// passes its agent's Grammar, the validation boundary, before it leaves an
// agent's package, and ResumeLine checks again.
//
// This package and the agents read the agents' own homes (transcripts,
// rollouts, config) and what an installer left beside a binary; only
// Probe, for `fleetcom doctor`, runs an agent's binary to learn its version
// and what it supports (cached per binary, failures too), so a shim run
// starts nothing but the CLI. Nothing here does terminal I/O or touches
// fleetcom's session store. Discovery finds conversations that no record
// knows; its only writes are caches in a directory the caller hands it
// (Codex's rollout index). Writes into an agent's home happen only through
// a Mover, when the user imports or moves a conversation.
//
// A shim reaches this package and the agents' on every start: their
// package-level values (each Spec, Hint and Agent) are data the linker
// lays out, and nothing here has init work (harness/agents'
// TestNoInitWork).
package harness
