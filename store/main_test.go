package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
)

// childEnv selects a subprocess role when the test binary re-executes itself.
const childEnv = "FLEETCOM_STORE_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
	case "writer":
		os.Exit(writerChild())
	case "looper":
		os.Exit(looperChild())
	default:
		fmt.Fprintln(os.Stderr, "unknown child role")
		os.Exit(3)
	}
	code := m.Run()
	removeBenchStores()
	os.Exit(code)
}

// t0 is a fixed instant the tests build times from.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func at(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }

func ptr[T any](v T) *T { return &v }

// testID returns a distinct valid ID for n.
func testID(n int) string {
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n)
}

// tools are the tool names the tests store records of.
var tools = []string{"anchor", "bravo", "echo"}

// testValid stands in for harness's validation boundary: these tools, with
// UUID IDs.
func testValid(tool, id string) bool {
	return slices.Contains(tools, tool) && safe.UUID(id)
}

// warnings collects what a store reports about damaged files.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) add(m string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, m)
}

// take returns the messages so far and forgets them.
func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.msgs
	w.msgs = nil
	return m
}

// clock is a settable Config.Now that steps one millisecond per call, so
// successive writes have distinct, predictable Updated stamps.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Millisecond)
	return c.now
}

// openTest opens a store in a fresh temp dir with warnings collected and the
// test resume builder.
func openTest(t testing.TB) (*Store, *warnings) {
	t.Helper()
	return openAt(t, filepath.Join(t.TempDir(), "state"))
}

func openAt(t testing.TB, dir string) (*Store, *warnings) {
	t.Helper()
	w := &warnings{}
	s, err := Open(dir, Config{Valid: testValid, Warn: w.add, Now: (&clock{now: t0.Add(time.Hour)}).Now})
	if err != nil {
		t.Fatal(err)
	}
	return s, w
}

// physicalTempDir returns a new directory in its physical form, since the
// temp root may itself sit behind a symlink.
func physicalTempDir(t testing.TB) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func rec(tool string, n int, cwd string) Record {
	return Record{
		Tool:    tool,
		ID:      testID(n),
		Cwd:     cwd,
		Command: tool,
		Program: tool,
		Source:  "pinned",
		Started: at(n),
		Home:    "/home/u/." + tool,
	}
}

func mustPut(t testing.TB, s *Store, r Record) Record {
	t.Helper()
	out, err := s.Put(r)
	if err != nil {
		t.Fatalf("Put(%s %s): %v", r.Tool, r.ID, err)
	}
	return out
}

func ids(rs []Record) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Tool+"-"+r.ID)
	}
	return out
}

// listTree returns every path under root, relative, sorted, so tests can
// check that an operation changed nothing else. Lock files are left out: they
// are created on first use and hold no data.
func listTree(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if !strings.HasPrefix(rel, "locks"+string(filepath.Separator)) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}
