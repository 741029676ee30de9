package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/google/go-cmp/cmp"
)

func TestPutRejectsInvalid(t *testing.T) {
	good := func() Record { return rec("anchor", 0xabc, "/work/project") }
	tests := []struct {
		name string
		edit func(*Record)
	}{
		{"unknown tool", func(r *Record) { r.Tool = "vim" }},
		{"empty tool", func(r *Record) { r.Tool = "" }},
		{"uppercase id", func(r *Record) { r.ID = strings.ToUpper(r.ID) }},
		{"id with shell syntax", func(r *Record) { r.ID = r.ID[:35] + ";" }},
		{"empty cwd", func(r *Record) { r.Cwd = "" }},
		{"relative cwd", func(r *Record) { r.Cwd = "work/project" }},
		{"unclean cwd", func(r *Record) { r.Cwd = "/work/../etc" }},
		{"trailing slash cwd", func(r *Record) { r.Cwd = "/work/project/" }},
		{"invalid UTF-8 in cwd", func(r *Record) { r.Cwd = "/work/\xff" }},
		{"relative home", func(r *Record) { r.Home = ".anchor" }},
		{"unknown source", func(r *Record) { r.Source = "guess" }},
		{"no source on a new record", func(r *Record) { r.Source = "" }},
		{"program with shell syntax", func(r *Record) { r.Program = "anchor;rm" }},
		{"program naming another tool", func(r *Record) { r.Program = "/usr/bin/bravo" }},
		{"program that is an option", func(r *Record) { r.Program = "-anchor" }},
		{"program with a space", func(r *Record) { r.Program = "/opt/my tools/anchor" }},
		{"option with a control character", func(r *Record) { r.Options = []string{"--x\n"} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openTest(t)
			before := listTree(t, s.dir)
			r := good()
			tt.edit(&r)
			if _, err := s.Put(r); err == nil {
				t.Fatalf("Put accepted %+v", r)
			}
			if d := cmp.Diff(before, listTree(t, s.dir)); d != "" {
				t.Errorf("a rejected Put changed the store (-before +after):\n%s", d)
			}
		})
	}
}

func TestPutStripsDisplayText(t *testing.T) {
	s, _ := openTest(t)
	r := rec("bravo", 1, "/w")
	r.Title, r.Command = "fix\x1b[2J the\x00 build\u0085", "bravo\r"
	got := mustPut(t, s, r)
	if got.Title != "fix[2J the build" || got.Command != "bravo" {
		t.Errorf("Title %q Command %q", got.Title, got.Command)
	}
}

func TestDirSymlinks(t *testing.T) {
	s, w := openTest(t)
	root := physicalTempDir(t)
	real := filepath.Join(root, "real")
	link := filepath.Join(root, "link")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	viaLink := mustPut(t, s, rec("anchor", 1, link))
	if viaLink.Cwd != real {
		t.Errorf("Put kept Cwd %q, want the physical %q", viaLink.Cwd, real)
	}
	mustPut(t, s, rec("echo", 2, real))
	for _, q := range []string{real, link, link + "/.", filepath.Join(link, "..", "link")} {
		got, err := s.Dir(q)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff([]string{"echo-" + testID(2), "anchor-" + testID(1)}, ids(got)); d != "" {
			t.Errorf("Dir(%q) (-want +got):\n%s", q, d)
		}
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
}

func TestDirKeepsDirectoriesApart(t *testing.T) {
	s, _ := openTest(t)
	root := physicalTempDir(t)
	names := []string{
		"repo", "repo-wt", "repo/sub", "repo.wt",
		"with space", `it's "quoted"`, "ünïcødé 日本", "$(touch x); `y`", "back\\slash",
	}
	for i, n := range names {
		p := filepath.Join(root, n)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		mustPut(t, s, rec("anchor", i, p))
		mustPut(t, s, rec("bravo", 100+i, p))
	}
	for i, n := range names {
		p := filepath.Join(root, n)
		got, err := s.Dir(p)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"bravo-" + testID(100+i), "anchor-" + testID(i)}
		if d := cmp.Diff(want, ids(got)); d != "" {
			t.Errorf("Dir(%q) (-want +got):\n%s", n, d)
		}
		for _, r := range got {
			if r.Cwd != p {
				t.Errorf("Dir(%q) returned Cwd %q", n, r.Cwd)
			}
		}
	}
	if got, err := s.Dir(filepath.Join(root, "nothing here")); err != nil || len(got) != 0 {
		t.Errorf("Dir of an unknown directory = %v, %v", ids(got), err)
	}
}

func TestOrderAndFind(t *testing.T) {
	s, w := openTest(t)
	mustPut(t, s, rec("anchor", 0x10, "/a"))
	mustPut(t, s, rec("bravo", 0x11, "/b"))
	mustPut(t, s, rec("echo", 0x20, "/a"))
	mustPut(t, s, rec("anchor", 0x10, "/a")) // touched again: newest now

	all, err := s.All()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"anchor-" + testID(0x10), "echo-" + testID(0x20), "bravo-" + testID(0x11)}
	if d := cmp.Diff(want, ids(all)); d != "" {
		t.Errorf("All (-want +got):\n%s", d)
	}
	for i := 1; i < len(all); i++ {
		if !all[i-1].Updated.After(all[i].Updated) {
			t.Errorf("All not newest first at %d", i)
		}
	}

	found, err := s.Find("0000001")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"anchor-" + testID(0x10), "bravo-" + testID(0x11)}, ids(found)); d != "" {
		t.Errorf("Find prefix (-want +got):\n%s", d)
	}
	if found, _ := s.Find(testID(0x20)); len(found) != 1 || found[0].Tool != "echo" {
		t.Errorf("Find exact = %v", ids(found))
	}
	if found, _ := s.Find("ffff"); len(found) != 0 {
		t.Errorf("Find of an absent prefix = %v", ids(found))
	}
	for _, bad := range []string{"", "../x", "a b", "x/y"} {
		if _, err := s.Find(bad); err == nil {
			t.Errorf("Find(%q) accepted", bad)
		}
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
}

func TestNewestFirstTies(t *testing.T) {
	a := Record{Tool: "bravo", ID: testID(2), Updated: at(5), Started: at(1)}
	b := Record{Tool: "anchor", ID: testID(2), Updated: at(5), Started: at(1)}
	c := Record{Tool: "anchor", ID: testID(1), Updated: at(5), Started: at(1)}
	d := Record{Tool: "anchor", ID: testID(9), Updated: at(5), Started: at(3)}
	e := Record{Tool: "anchor", ID: testID(0), Updated: at(6)}
	got := []Record{a, b, c, d, e}
	for _, perm := range [][]Record{got, {c, a, e, b, d}, {d, e, c, b, a}} {
		p := append([]Record(nil), perm...)
		slices.SortFunc(p, NewestFirst)
		if diff := cmp.Diff(ids([]Record{e, d, c, b, a}), ids(p)); diff != "" {
			t.Errorf("order (-want +got):\n%s", diff)
		}
	}
}

func TestGet(t *testing.T) {
	s, _ := openTest(t)
	put := mustPut(t, s, rec("echo", 3, "/g"))
	got, ok, err := s.Get("echo", testID(3))
	if err != nil || !ok {
		t.Fatalf("Get: %v %v", ok, err)
	}
	if d := cmp.Diff(put, got); d != "" {
		t.Errorf("Get (-put +got):\n%s", d)
	}
	if _, ok, err := s.Get("anchor", testID(3)); ok || err != nil {
		t.Errorf("Get under another tool = %v, %v", ok, err)
	}
	if _, _, err := s.Get("echo", "nope"); err == nil {
		t.Error("Get accepted an invalid id")
	}
}

func TestResumeLineNotStored(t *testing.T) {
	s, _ := openTest(t)
	dir := physicalTempDir(t)
	r := rec("anchor", 4, dir)
	mustPut(t, s, r)
	data, err := os.ReadFile(s.recordPath("anchor", testID(4)))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"resume"`) {
		t.Errorf("a record on disk holds a resume line:\n%s", data)
	}
}

func TestOpenNeedsBoundary(t *testing.T) {
	if _, err := Open(t.TempDir(), Config{}); err == nil {
		t.Error("Open without Config.Valid succeeded")
	}
}

func TestForget(t *testing.T) {
	s, w := openTest(t)
	dir := physicalTempDir(t)
	mustPut(t, s, rec("anchor", 1, dir))
	mustPut(t, s, rec("bravo", 2, dir))
	mustPut(t, s, rec("anchor", 3, "/elsewhere"))
	marker := filepath.Join(s.dir, "dirs", safe.PathKey(dir), "anchor-"+testID(1))
	if _, err := os.Stat(marker); err != nil {
		t.Fatal(err)
	}
	before, _ := s.All()

	if err := s.Forget("anchor", testID(1)); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Get("anchor", testID(1)); ok {
		t.Error("record still there")
	}
	if _, err := os.Lstat(marker); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("marker still there: %v", err)
	}
	before = slices.DeleteFunc(before, func(r Record) bool { return r.ID == testID(1) })
	after, _ := s.All()
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("Forget changed other records (-want +got):\n%s", d)
	}

	tree := listTree(t, s.dir)
	for _, c := range []struct{ tool, id string }{
		{"anchor", testID(1)}, // already forgotten
		{"anchor", testID(99)},
		{"echo", testID(2)}, // known ID, other tool
	} {
		err := s.Forget(c.tool, c.id)
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("Forget(%s, %s) = %v, want ErrNotExist", c.tool, c.id, err)
		}
	}
	if err := s.Forget("anchor", "not-an-id"); err == nil || errors.Is(err, os.ErrNotExist) {
		t.Errorf("Forget of an invalid id = %v", err)
	}
	if d := cmp.Diff(tree, listTree(t, s.dir)); d != "" {
		t.Errorf("failed Forgets changed the store (-before +after):\n%s", d)
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
}

func TestModes(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	s, _ := openTest(t)
	dir := physicalTempDir(t)
	r := mustPut(t, s, rec("anchor", 1, dir))
	want := map[string]fs.FileMode{
		s.dir:                                           fs.ModeDir | 0o700,
		filepath.Join(s.dir, "records"):                 fs.ModeDir | 0o700,
		filepath.Join(s.dir, "dirs"):                    fs.ModeDir | 0o700,
		filepath.Join(s.dir, "locks"):                   fs.ModeDir | 0o700,
		filepath.Join(s.dir, "dirs", safe.PathKey(dir)): fs.ModeDir | 0o700,
		filepath.Join(s.dir, "dirs", safe.PathKey(dir), "anchor-"+r.ID):            0o600,
		filepath.Join(s.dir, "records", "anchor-"+r.ID+".json"):                    0o600,
		filepath.Join(s.dir, "locks", fmt.Sprintf("%02d", stripe("anchor", r.ID))): 0o600,
	}
	for p, m := range want {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Error(err)
			continue
		}
		if fi.Mode() != m {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode(), m)
		}
	}
}

// TestConcurrentGoroutines shares one Store between goroutines updating one
// conversation; the race detector and the merged result check it.
func TestConcurrentGoroutines(t *testing.T) {
	s, w := openTest(t)
	dir := physicalTempDir(t)
	var wg sync.WaitGroup
	for n := range 40 {
		wg.Go(func() {
			r := rec("echo", 9, dir)
			r.Started = at(100 + n)
			r.Resumable = n == 17
			if _, err := s.Put(r); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, ok, err := s.Get("echo", testID(9))
	if err != nil || !ok || !got.Started.Equal(at(100)) || !got.Resumable {
		t.Errorf("lost an update: %+v %v %v", got, ok, err)
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("warnings: %q", m)
	}
}

// A store others can write to is not read: a record planted there could
// name any program for resume --exec to run.
func TestOpenRefusesSharedStore(t *testing.T) {
	for _, sub := range []string{"", "records", "dirs", "locks"} {
		dir := filepath.Join(t.TempDir(), "fleetcom")
		if _, err := Open(dir, Config{Valid: testValid}); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(dir, sub), 0o777)
		if _, err := Open(dir, Config{Valid: testValid}); !errors.Is(err, ErrNotPrivate) {
			t.Errorf("store with %q world-writable: %v", sub, err)
		}
		os.Chmod(filepath.Join(dir, sub), 0o770)
		if _, err := Open(dir, Config{Valid: testValid}); !errors.Is(err, ErrNotPrivate) {
			t.Errorf("store with %q group-writable: %v", sub, err)
		}
	}
}

func TestForgetLeavesTombstone(t *testing.T) {
	s, _ := openTest(t)
	dir := physicalTempDir(t)
	mustPut(t, s, rec("anchor", 5, dir))
	if err := s.Forget("anchor", testID(5)); err != nil {
		t.Fatal(err)
	}
	if got := s.Forgotten(); !got["anchor-"+testID(5)] || len(got) != 1 {
		t.Errorf("Forgotten = %v", got)
	}
	s.Remember("anchor", testID(5))
	if got := s.Forgotten(); len(got) != 0 {
		t.Errorf("after Remember: %v", got)
	}
}

// An adopted conversation keeps its real last activity: it does not jump
// ahead of conversations active since.
func TestOrderByActivity(t *testing.T) {
	s, _ := openTest(t)
	dir := physicalTempDir(t)
	recent := rec("anchor", 1, dir)
	recent.Ended, recent.Exit = ptr(at(3600)), ptr(0)
	mustPut(t, s, recent)
	old := rec("bravo", 2, dir)
	old.Source, old.Ended = "adopted", ptr(at(-9*24*3600))
	mustPut(t, s, old) // written last, active long ago
	got, _ := s.Dir(dir)
	if len(got) != 2 || got[0].ID != testID(1) {
		t.Errorf("Dir order = %v, want the recently active one first", ids(got))
	}
}

// A FIFO where a tombstone goes makes Forget and Tombstone fail at once,
// and the record stays: forgetting never waits on a planted file.
func TestTombstoneFIFO(t *testing.T) {
	s, _ := openTest(t)
	dir := physicalTempDir(t)
	mustPut(t, s, rec("anchor", 6, dir))
	os.Mkdir(filepath.Join(s.dir, "forgotten"), 0o700)
	for _, n := range []int{6, 7} {
		if err := syscall.Mkfifo(filepath.Join(s.dir, "forgotten", markerName("anchor", testID(n))), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan [2]error, 1)
	go func() { done <- [2]error{s.Forget("anchor", testID(6)), s.Tombstone("anchor", testID(7))} }()
	select {
	case errs := <-done:
		for _, err := range errs {
			if !errors.Is(err, safe.ErrNotRegular) {
				t.Errorf("forgetting over a FIFO: %v, want ErrNotRegular", err)
			}
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Forget blocked on a FIFO")
	}
	if _, ok, _ := s.Get("anchor", testID(6)); !ok {
		t.Error("the record went although its tombstone could not be written")
	}
	if got := s.Forgotten(); len(got) != 0 {
		t.Errorf("a FIFO counted as a tombstone: %v", got)
	}
}
