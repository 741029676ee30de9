package fleet

import "testing"

// A run's shim is a fleetcom by its program's name: fleetcom, the
// fleetcom-shim the shims link to when it is installed, or this program's
// own name; nothing else.
func TestFleetcomImage(t *testing.T) {
	for exe, want := range map[string]bool{
		"/usr/local/bin/fleetcom":          true,
		"/home/u/.local/bin/fleetcom-shim": true,
		"/x/" + selfName():                 true,
		"/usr/bin/claude":                  false,
		"/x/fleetcom-shim.old":             false,
	} {
		if got := fleetcomImage(exe); got != want {
			t.Errorf("fleetcomImage(%q) = %v, want %v", exe, got, want)
		}
	}
}
