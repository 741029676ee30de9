// Package rlimit keeps the limit on open files that the process started with.
//
// Go's syscall package raises the soft limit to the hard one while it
// initialises, and restores the original for the programs os/exec starts. A
// program started another way (the shim's session leader, which runs no Go
// runtime code between clone and exec) needs the original from here: the
// syscall package keeps it to itself.
//
// The package imports nothing, so it is initialised before syscall: the
// language initialises packages in the order of their import paths, each one
// once its imports are, and "github.com/…" sorts before "syscall".
package rlimit

// nofile is RLIMIT_NOFILE as the process started with it: soft, hard.
var nofile [2]uint64

// known says whether nofile was read.
var known bool

func init() { known = getNofile(&nofile) == 0 }

// Nofile returns the soft and hard limits on open files the process started
// with; ok is false where they could not be read.
func Nofile() (soft, hard uint64, ok bool) { return nofile[0], nofile[1], known }
