package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// The benchmarks answer one question: does a lookup or a write cost in
// proportion to its directory, or to the whole store? Each runs over stores of
// growing size with ten records per directory:
//
//	records=0       an empty store
//	records=10      one directory of ten records
//	records=10000   1,000 directories
//	records=100000  10,000 directories
//
// so the ns/op of records=10000 and records=100000 divided by records=0 (or
// records=10) is the ratio to read; near 1 means the cost follows the
// directory. Put includes its fsyncs, so on a disk it measures the disk as
// much as the code; TMPDIR=/dev/shm (tmpfs) takes the disk out. Stores are
// built once per process by writing files in the store's own format, under
// TMPDIR, and removed when the process ends.

var benchSizes = []int{0, 10, 10_000, 100_000}

const perDir = 10

var bench struct {
	mu     sync.Mutex
	root   string
	stores map[int]string
}

// benchStore returns the directory of a store holding n records, and the
// working directories they belong to (at least one, even when n is 0).
func benchStore(b *testing.B, n int) (string, []string) {
	b.Helper()
	bench.mu.Lock()
	defer bench.mu.Unlock()
	if bench.root == "" {
		root, err := os.MkdirTemp("", "fleetcom-store-bench-")
		if err != nil {
			b.Fatal(err)
		}
		bench.root, bench.stores = root, map[int]string{}
	}
	cwds := make([]string, max(1, n/perDir))
	for d := range cwds {
		cwds[d] = filepath.Join(bench.root, "work", fmt.Sprintf("p%05d", d))
	}
	if dir, ok := bench.stores[n]; ok {
		return dir, cwds
	}
	dir := filepath.Join(bench.root, fmt.Sprint("store-", n))
	if _, err := Open(dir, Config{Valid: testValid}); err != nil {
		b.Fatal(err)
	}
	for d, cwd := range cwds {
		if err := os.MkdirAll(cwd, 0o755); err != nil {
			b.Fatal(err)
		}
		for k := range min(n, perDir) {
			r := normalize(rec(tools[k%3], d*perDir+k, cwd))
			r.Updated = r.Started
			writeRaw(b, dir, r)
		}
	}
	// Flush the build now, so the first fsyncs timed do not pay for it.
	syscall.Sync()
	bench.stores[n] = dir
	return dir, cwds
}

// writeRaw writes a record and its marker without syncing: the fast way to
// build a big store, in the same format Put writes.
func writeRaw(b *testing.B, dir string, r Record) {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	idx := filepath.Join(dir, "dirs", safe.PathKey(r.Cwd))
	if err := os.MkdirAll(idx, 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(idx, markerName(r.Tool, r.ID)), nil, 0o600); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records", fileName(r.Tool, r.ID)), append(data, '\n'), 0o600); err != nil {
		b.Fatal(err)
	}
}

func removeBenchStores() {
	if bench.root != "" {
		os.RemoveAll(bench.root)
	}
}

func benchOpen(b *testing.B, n int) (*Store, []string) {
	dir, cwds := benchStore(b, n)
	s, err := Open(dir, Config{
		Valid: testValid,
		Warn:  func(m string) { b.Fatal("warning: ", m) },
	})
	if err != nil {
		b.Fatal(err)
	}
	return s, cwds
}

// BenchmarkDir looks up one directory, a different one each time.
func BenchmarkDir(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint("records=", n), func(b *testing.B) {
			s, cwds := benchOpen(b, n)
			i := 0
			for b.Loop() {
				recs, err := s.Dir(cwds[i%len(cwds)])
				if err != nil || len(recs) != min(n, perDir) {
					b.Fatalf("Dir = %d records, %v", len(recs), err)
				}
				i++
			}
		})
	}
}

// BenchmarkPutUpdate writes a later run of an existing conversation, a
// different one each time (in the empty store, the one it first creates).
func BenchmarkPutUpdate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint("records=", n), func(b *testing.B) {
			s, cwds := benchOpen(b, n)
			if n == 0 {
				mustPut(b, s, rec("anchor", 0, cwds[0]))
			}
			i := 0
			for b.Loop() {
				k := i % max(n, 1)
				r := rec(tools[k%perDir%3], k, cwds[k/perDir])
				r.Ended, r.Exit = ptr(at(i)), ptr(0)
				mustPut(b, s, r)
				i++
			}
			if n == 0 {
				s.Forget("anchor", testID(0))
			}
		})
	}
}

// BenchmarkPutNew writes a new conversation into an existing directory, a
// different one each time; the new records are forgotten afterwards.
func BenchmarkPutNew(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint("records=", n), func(b *testing.B) {
			s, cwds := benchOpen(b, n)
			var added []Record
			i := 0
			for b.Loop() {
				r := rec("bravo", 1<<30+i, cwds[i%len(cwds)])
				added = append(added, mustPut(b, s, r))
				i++
			}
			b.StopTimer()
			for _, r := range added {
				if err := s.Forget(r.Tool, r.ID); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
