//go:build !amd64 && !arm64

package stack

func reserve() {}
