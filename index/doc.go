// Package index is fleetcom's index of every conversation of every agent:
// one SQLite database, with SQLite's full-text engine (FTS5) for what was
// said, that every command reads instead of the agents' own stores.
//
// What it holds. One row per conversation (conv), keyed by tool and ID:
// its directory, title, summary and name, when it began and when its newest
// message was written, its turns and messages, whether its agent's store
// holds it now, and fleetcom's record of it when there is one. Its prompts
// and replies, capped per message and per conversation, are rows of the
// full-text table (chunk), one per read that found text: a conversation's
// rows are one range of rowids, so appending a turn adds a row and never
// rewrites the ones before it.
//
// How it is kept. The agents' readers (harness.Indexer for stores of files,
// harness.DBIndexer for a database) read incrementally: the index keeps, per
// file, its identity and the offset and state its reader stopped at, and per
// folder its modification time, so a refresh reads only what was appended
// and lists only folders whose entries changed. A quick refresh, which every
// command runs first, looks only where things change (see refresh.go); a
// full sweep looks at everything, and a caller runs it in the background when
// SweepDue says it is time. fleetcom's records come through Records, which
// says which of them changed.
//
// Invariants:
//   - It is a cache: deleting it loses nothing, and a database of another
//     version, or a damaged one, is rebuilt with one warning.
//   - It is private: its directory is this user's and not writable by
//     others (else Open refuses it), its files mode 0600.
//   - One writer at a time (a lock file beside the database), readers never
//     blocked by it (write-ahead logging); a refresh commits in steps, so a
//     killed one leaves the last step's state.
//   - A file read again from its start (replaced, cut short) replaces what
//     the index had of its conversation only when it says at least as much:
//     a half-written file never erases what was indexed before.
//   - Everything it returns is data: IDs and directories are checked again
//     (the agent's grammar, harness.ResumeLine) by whoever builds a command
//     line from them.
//
// It imports the SQLite module, whose initialisation no shim must pay for:
// only the fleetcom command links it, never the shim binary (cmd/fleetcom-shim).
package index
