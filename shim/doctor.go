package shim

// The runtime's own rules, exported for `fleetcom doctor`, which must judge
// an installation exactly as a shim run would.

// FindReal returns the real binary of tool as a shim run finds it: the
// FLEETCOM_<TOOL>_BIN or configured override when set, else the first tool
// on PATH that is neither this executable nor inside shimDir. The error is
// ErrNoReal when there is none.
func FindReal(tool string, cfg Config, configFile, shimDir string) (string, error) {
	real, _, err := newFinder(tool, cfg.Bin(tool), configFile, shimDir).find()
	return real, err
}

// CheckRoot applies the rule an existing capture-asset root must pass before
// a run uses it: a real directory of this user that group and others cannot
// write.
func CheckRoot(dir string) error { return checkPrivate(dir) }
