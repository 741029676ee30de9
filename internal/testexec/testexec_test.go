package testexec

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

// TestNoTextFileBusy writes and at once runs many small scripts while other
// goroutines fork without pause: each run must find its file free. With
// os.WriteFile in place of WriteFile this fails within a few hundred
// rounds on a 2-core machine.
func TestNoTextFileBusy(t *testing.T) {
	rounds := 250
	if testing.Short() {
		rounds = 50
	}
	sh, err := exec.LookPath("true")
	if err != nil {
		t.Skip("needs true(1)")
	}
	dir := t.TempDir()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				exec.Command(sh).Run()
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	for i := range rounds {
		p := filepath.Join(dir, "prog"+strconv.Itoa(i))
		if err := WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := exec.Command(p).Run(); errors.Is(err, syscall.ETXTBSY) {
			t.Fatalf("round %d: a fork kept the new file open for writing: %v", i, err)
		} else if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
	}
}
