//go:build !linux

package shim

// Job control is tested on Linux only, the only system with a session
// leader (package internal/leader); the roles do nothing elsewhere.
const (
	jobShellEnv = "FLEETCOM_SHIMTEST_JOBSHELL"
	restEnv     = "FLEETCOM_SHIMTEST_REST"
)

func jobShellRole()                           {}
func jobChildRole(role string, args []string) {}
