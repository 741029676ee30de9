//go:build !linux && !darwin

package fleet

import "time"

// Elsewhere the start time of another process is not read: Alive says no,
// so no run is ever shown as running that might not be.
func startTime(int) (string, bool) { return "", false }

// readBootID: the boot is not named here.
func readBootID() string { return "" }

// BootTime is when this boot began: unknown here.
func BootTime() time.Time { return time.Time{} }

// procOf: not read here (Live says no).
func procOf(int) (string, int, bool) { return "", 0, false }

func image(int) (string, bool) { return "", false }

func fleetcomImage(string) bool { return false }
