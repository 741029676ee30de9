//go:build linux || openbsd || dragonfly

package config

import "syscall"

// mtime is a stat's modification time in nanoseconds.
func mtime(st *syscall.Stat_t) int64 { return st.Mtim.Nano() }
