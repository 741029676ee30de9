//go:build linux && (amd64 || arm64)

package rlimit

// getNofile reads RLIMIT_NOFILE with prlimit64 into lim and returns the error
// number, 0 on success. It is written in assembly: the package may import
// nothing, not even syscall.
//
//go:noescape
func getNofile(lim *[2]uint64) uintptr
