// Package stack grows the calling goroutine's stack in one step.
//
// A goroutine starts with a stack of a few KiB, and the runtime doubles it
// each time a call does not fit, copying it and walking every frame on it.
// In a new process each walk faults in pages of the function tables, and the
// shim's way to its child doubles the stack four or five times, the later
// ones deep in calls. Reserve, called while the stack is still shallow,
// makes one copy of a few frames to a stack big enough for the rest. The
// pages it reserves cost nothing until they are used.
package stack

// Reserve makes room for about 64 KiB of frames below the caller's.
func Reserve() { reserve() }
