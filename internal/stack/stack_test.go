package stack

import (
	"runtime"
	"testing"
)

// A goroutine that starts with the smallest stack has room for 64 KiB of
// frames after Reserve: the runtime's stack memory grows by at least that
// much in the one call.
func TestReserveGrowsTheStackAtOnce(t *testing.T) {
	grew := make(chan uint64)
	go func() {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		Reserve()
		runtime.ReadMemStats(&after)
		grew <- after.StackInuse - before.StackInuse
	}()
	if got := <-grew; got < 64<<10 {
		t.Errorf("stack memory grew by %d bytes, want at least 64 KiB", got)
	}
}
