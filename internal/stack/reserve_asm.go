//go:build amd64 || arm64

package stack

// reserve has a 64 KiB frame and does nothing with it: its prologue is
// what grows the stack. In assembly, so that nothing zeroes the frame.
func reserve()
