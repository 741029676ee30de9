// Package harness holds fleetcom's pure decision core for each agent CLI: which
// command shapes are accepted, what instrumentation they receive, how a
// conversation ID is read from each kind of evidence (capture payloads, the
// terminal's exit hint, the tool's own session store), and how the canonical
// resume line is built.
//
// Every ID that enters fleetcom passes ValidID, the one validation boundary,
// before it is returned from this package; the resume-line builder checks again.
//
// A new agent is a new file here implementing Harness. This package reads the
// tools' own homes (transcripts, rollouts, config) but does no terminal I/O and
// never touches fleetcom's session store.
//
// Discovery (discover.go, <tool>find.go) finds conversations that no record
// knows in the tools' own stores, for a directory or by ID, and checks the
// preconditions of adopting one. Its only writes are the Codex rollout index
// (codexindex.go), a cache kept in a directory the caller hands it.
package harness
