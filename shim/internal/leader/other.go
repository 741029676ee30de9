//go:build !linux || !(amd64 || arm64)

package leader

import "syscall"

// job is empty here: there is never a leader.
type job struct{}

func (*job) loadStop() int32                        { return 0 }
func (*job) loadStatus() (syscall.WaitStatus, bool) { return 0, false }

// Start returns ErrUnsupported: the trampoline is written for Linux on amd64
// and arm64 only.
func Start(s Spec) (*Leader, error) { return nil, ErrUnsupported }
