package index

import (
	"sync"
	"testing"
	"time"
)

// waits reports whether reserve(n) is still waiting after d, and returns
// what it reported once it stopped waiting (after the caller made room),
// through the channel. A wait that must end is given long (a loaded
// machine may not run it at once); one that must not, a tenth of a second.
func waits(f *prefetch, n int64, d time.Duration) (bool, chan bool) {
	got := make(chan bool, 1)
	go func() { got <- f.reserve(n) }()
	select {
	case <-got:
		return false, got
	case <-time.After(d):
		return true, got
	}
}

func newAhead() *prefetch {
	f := &prefetch{done: make(chan struct{})}
	f.room = sync.NewCond(&f.mu)
	return f
}

func TestReadAheadBounded(t *testing.T) {
	t.Run("files", func(t *testing.T) {
		f := newAhead()
		for range aheadFiles {
			if !f.reserve(1) {
				t.Fatal("reserve refused before the writer stopped")
			}
		}
		waiting, got := waits(f, 1, 100*time.Millisecond)
		if !waiting {
			t.Fatalf("file %d was let in past the read-ahead of %d files", aheadFiles+1, aheadFiles)
		}
		f.release(1)
		if !<-got {
			t.Fatal("the waiting file was refused once there was room")
		}
	})
	t.Run("bytes", func(t *testing.T) {
		f := newAhead()
		// The first file is read whatever its size: a refresh never stalls on one.
		if waiting, _ := waits(f, 3*aheadBytes, 10*time.Second); waiting {
			t.Fatal("a file larger than the read-ahead waited with nothing ahead of it")
		}
		waiting, got := waits(f, 1, 100*time.Millisecond)
		if !waiting {
			t.Fatal("a file was let in past the read-ahead's bytes")
		}
		f.release(3 * aheadBytes)
		if !<-got {
			t.Fatal("the waiting file was refused once there was room")
		}
	})
	t.Run("stop", func(t *testing.T) {
		f := newAhead()
		for range aheadFiles {
			f.reserve(1)
		}
		waiting, got := waits(f, 1, 100*time.Millisecond)
		if !waiting {
			t.Fatal("not waiting")
		}
		f.stop()
		select {
		case ok := <-got:
			if ok {
				t.Fatal("reserve let a file in after the writer stopped")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("reserve still waits after the writer stopped")
		}
	})
}
