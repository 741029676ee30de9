package shim

import (
	"github.com/fleetcom/fleetcom/config"
	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// The runtime's own rules, exported for `fleetcom doctor`, which must judge
// an installation exactly as a shim run would.

// FindReal returns the real binary of tool as a shim run finds it: the
// FLEETCOM_<TOOL>_BIN or configured override when set, else the first tool
// on PATH that is neither this executable nor inside shimDir. The error is
// ErrNoReal when there is none.
func FindReal(a harness.Agent, cfg config.Config, configFile, shimDir string) (string, error) {
	f := newFinder(a, cfg.Bin(a.Name), configFile, shimDir)
	real, _, err := f.find()
	return real, err
}

// CheckRoot applies the rule an existing capture-asset root must pass before
// a run uses it: a real directory of this user that group and others cannot
// write.
func CheckRoot(dir string) error {
	_, err := safe.PrivateDir(dir)
	return err
}
