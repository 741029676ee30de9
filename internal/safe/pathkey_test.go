package safe

import "testing"

// PathKey names files already on users' disks: it must stay the first half
// of the path's SHA-256, in hex.
func TestPathKeyStable(t *testing.T) {
	for p, want := range map[string]string{
		"/":                 "8a5edab282632443219e051e4ade2d1d",
		"/home/ana/src/app": "565e5d46c0953fdce5465114654ac5bc",
	} {
		if got := PathKey(p); got != want {
			t.Errorf("PathKey(%q) = %s, want %s", p, got, want)
		}
	}
}
