//go:build race

package shim

// raceBuild says whether this test binary was built with the race detector.
const raceBuild = true
