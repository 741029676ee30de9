// Package catalog is what fleetcom knows of conversations: the records in
// its store, and the conversations the agents' own stores hold that no
// record knows yet ("found"). It decides which conversation a resume goes
// back to and returns that decision as a Plan: the conversation, its
// agent, the line that continues it, its directory and what to check
// before running it. Adopting a found conversation (recording it once its
// guards pass) happens here too.
//
// Moving, exporting and importing conversations happen here too (move.go,
// carry.go, bundle*.go): a move is refused while a process has the
// conversation open (holders.go: the agent's bookkeeping, /proc/*/fd and
// command lines on Linux, lsof and ps elsewhere), carries every part of it
// whole, records it, and deletes of the old copy only what it copied and
// verified, last.
//
// It prints nothing, and runs nothing but lsof and ps where there is no
// /proc: cmd/fleetcom shows a plan or hands it to package shim. It reads the
// environment only through the getenv it is given, to resolve agent homes.
//
// A resume may name its conversation by ID, by ID prefix or by the name its
// agent keeps for it (names.go): this directory's conversations first, then
// every directory's records. When a directory has nothing, the directories
// of records that no longer exist (vanished.go) suggest a renamed project.
//
// Invariants: an ID only ever goes back to the agent that made it; every
// line a Plan carries was built by harness.ResumeLine from values that
// passed the agent's ID grammar; a refused adoption or import writes
// nothing; a failed move leaves the conversation and its record as they
// were.
package catalog
