// Package catalog is what fleetcom knows of conversations: the records in
// its store, and the conversations the agents' own stores hold that no
// record knows yet ("found"). It decides which conversation a resume goes
// back to and returns that decision as a Plan: the conversation, its
// agent, the line that continues it, its directory and what to check
// before running it. Adopting a found conversation (recording it once its
// guards pass) happens here too.
//
// It prints nothing and runs nothing: cmd/fleetcom shows a plan or hands it
// to package shim. It reads the environment only through the getenv it is
// given, to resolve agent homes.
//
// Invariants: an ID only ever goes back to the agent that made it; every
// line a Plan carries was built by harness.ResumeLine from values that
// passed the agent's ID grammar; a refused adoption writes nothing.
package catalog
