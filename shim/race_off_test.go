//go:build !race

package shim

const raceBuild = false
