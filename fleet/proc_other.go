//go:build !linux && !darwin

package fleet

import "time"

// Elsewhere the start time of another process is not read: Alive says no,
// so no run is ever shown as running that might not be.
func startTime(int) (string, bool) { return "", false }

// BootID names this boot of the machine: unknown here.
func BootID() string { return "" }

// BootTime is when this boot began: unknown here.
func BootTime() time.Time { return time.Time{} }
