package shim

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestHopRecord(t *testing.T) {
	h := hop{pid: 42, depth: 3, args: argsPrint([]string{"--session-id", "x"}), skip: []string{"/a/claude", "/b/claude"}}
	got, ok := parseHop(h.String())
	if !ok || got.pid != 42 || got.depth != 3 || got.args != h.args || !cmp.Equal(got.skip, h.skip) {
		t.Fatalf("round trip: %+v, %v", got, ok)
	}
	for _, bad := range []string{"", "x", "1", "-1:0:a", "1:-2:a", "a:b:c", "0:0:"} {
		if _, ok := parseHop(bad); ok {
			t.Errorf("parseHop(%q) accepted", bad)
		}
	}
	if argsPrint([]string{"a b"}) == argsPrint([]string{"a", "b"}) {
		t.Error("argument boundaries must change the fingerprint")
	}
}

// A hop record left by this very process (the exec'd wrapper case) is near;
// one from an unrelated pid is not, and an accepted form other than the
// launched one is always a run of its own.
func TestHopPassOn(t *testing.T) {
	launched := []string{"--session-id", "x", "--settings", "f"}
	self := hop{pid: os.Getpid(), args: argsPrint(launched)}
	if !self.passOn([]string{"-p", "hi"}, false) {
		t.Error("an opaque call from the launched process must pass on")
	}
	if !self.passOn(launched, true) {
		t.Error("the launched arguments themselves must pass on")
	}
	if self.passOn(nil, true) {
		t.Error("a bare accepted form from near the shim is a run of its own")
	}
	parent := hop{pid: os.Getppid(), args: argsPrint(launched)}
	if !parent.passOn([]string{"x"}, false) {
		t.Error("the parent is near")
	}
	far := hop{pid: 1 << 22, args: argsPrint(launched)}
	if far.passOn([]string{"x"}, false) {
		t.Error("an unrelated pid is not near")
	}
}

func TestParentOf(t *testing.T) {
	if got := parentOf(os.Getpid()); got != os.Getppid() {
		t.Fatalf("parentOf(self) = %d, want %d", got, os.Getppid())
	}
	if parentOf(1<<22) != 0 {
		t.Fatal("a missing pid has no parent")
	}
}

func TestFinder(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string, mode os.FileMode) string {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("#!/bin/sh\n"), mode)
		return p
	}
	shims := filepath.Join(dir, "shims")
	mk(filepath.Join(shims, "claude"), 0o755)
	notExec := mk(filepath.Join(dir, "noexec", "claude"), 0o644)
	wrapper := mk(filepath.Join(dir, "wrap", "claude"), 0o755)
	real := mk(filepath.Join(dir, "real", "claude"), 0o755)
	os.Symlink(shims, filepath.Join(dir, "shimlink"))
	path := strings.Join([]string{shims, shims + "/", filepath.Join(dir, "shimlink"), filepath.Dir(notExec),
		filepath.Dir(wrapper), filepath.Dir(real)}, ":")

	f := finder{tool: "claude", path: path, shimDir: shims}
	if got, fromPath, err := f.find(); err != nil || got != wrapper || !fromPath {
		t.Fatalf("find = %q, %v, %v; want the first candidate outside the shim dir", got, fromPath, err)
	}
	f.skip = []string{wrapper}
	if got, _, _ := f.find(); got != real {
		t.Fatalf("a skipped wrapper must lead to the CLI behind it, got %q", got)
	}
	f.skip = []string{wrapper, real}
	if got, _, _ := f.find(); got != wrapper {
		t.Fatalf("with everything skipped the first candidate is tried again, got %q", got)
	}
	f = finder{tool: "claude", path: shims, shimDir: shims}
	if _, _, err := f.find(); err != ErrNoReal {
		t.Fatalf("only the shim on PATH: %v", err)
	}
	f = newFinder(mustAgent("claude"), notExec, "/cfg.toml", shims)
	if _, _, err := f.find(); err == nil || !strings.Contains(err.Error(), "bin in /cfg.toml") {
		t.Fatalf("a configured bin that is not executable: %v", err)
	}
}

func TestCheckPrivate(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private")
	os.Mkdir(private, 0o700)
	if err := checkPrivate(private); err != nil {
		t.Errorf("private dir refused: %v", err)
	}
	wide := filepath.Join(dir, "wide")
	os.Mkdir(wide, 0o700)
	os.Chmod(wide, 0o777)
	if err := checkPrivate(wide); err == nil || !strings.Contains(err.Error(), "writable by others") {
		t.Errorf("world-writable dir: %v", err)
	}
	group := filepath.Join(dir, "group")
	os.Mkdir(group, 0o700)
	os.Chmod(group, 0o770)
	if err := checkPrivate(group); err == nil {
		t.Error("group-writable dir accepted")
	}
	link := filepath.Join(dir, "link")
	os.Symlink(private, link)
	if err := checkPrivate(link); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("symlink: %v", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	if err := checkPrivate(file); err == nil {
		t.Error("a file accepted as a directory")
	}
	if os.Getuid() != 0 {
		t.Skip("a directory owned by another user needs root to create; the cases above ran")
	}
	other := filepath.Join(dir, "other")
	os.Mkdir(other, 0o700)
	if err := os.Chown(other, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := checkPrivate(other); err == nil || !strings.Contains(err.Error(), "belongs to uid 65534") {
		t.Errorf("another user's dir: %v", err)
	}
	if _, err := newNamespace(Root{Dir: other, Explicit: true}, nil); err == nil {
		t.Error("a namespace was created in another user's root")
	}
}

func TestNamespace(t *testing.T) {
	root := Root{Dir: filepath.Join(t.TempDir(), "fleetcom")}
	dead := filepath.Join(root.Dir, "999999999-ab12")
	os.MkdirAll(dead, 0o700)
	keep := filepath.Join(root.Dir, "not-a-namespace")
	os.MkdirAll(keep, 0o700)
	ns, err := newNamespace(root, mustAgent("claude").Assets)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{"": 0o700, "claude-settings.json": 0o600, filepath.Base(ns.capture): 0o600}
	for name, mode := range want {
		fi, err := os.Lstat(filepath.Join(ns.dir, name))
		if err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: %v, mode %v; want %v", name, err, fi.Mode().Perm(), mode)
		}
	}
	// Only the run's own agent's files: a claude run writes no notifier.
	if entries, _ := os.ReadDir(ns.dir); len(entries) != len(want)-1 {
		t.Errorf("namespace holds %d files, want %d", len(entries), len(want)-1)
	}
	if !strings.HasPrefix(filepath.Base(ns.dir), strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("namespace %s is not <pid>-<nonce>", ns.dir)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Error("a dead shim's namespace was not swept")
	}
	if _, err := os.Stat(keep); err != nil {
		t.Error("an unrelated entry of the root was removed")
	}
	ns.remove()
	if _, err := os.Stat(ns.dir); err == nil {
		t.Error("namespace left behind")
	}
}

// The tap copies output to the tail and looks at the capture file on the
// way, reporting only real changes.
func TestTapFollows(t *testing.T) {
	capture := filepath.Join(t.TempDir(), "task.json")
	os.WriteFile(capture, nil, 0o600)
	tp := newTap(NewTail(16), capture)
	seen := make(chan struct{}, 8)
	stop := tp.follow(func() { seen <- struct{}{} })
	defer stop()
	os.WriteFile(capture, []byte("one\n"), 0o600)
	tp.Write([]byte("redraw"))
	<-seen
	f, _ := os.OpenFile(capture, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte("two\n"))
	f.Close()
	tp.Write([]byte("soon")) // within lookGap: not looked at yet
	tp.next = time.Time{}    // as if the gap had passed
	tp.Write([]byte("again"))
	<-seen
	tp.next = time.Time{}
	tp.Write([]byte("!")) // nothing changed since
	if got := string(tp.tail.Bytes()); got != "redrawsoonagain!" {
		t.Errorf("tail = %q", got)
	}
	select {
	case <-seen:
		t.Error("a look without a change reported one")
	default:
	}
	// No capture file, nothing to look at.
	none := newTap(NewTail(4), "")
	none.Write([]byte("x"))
	select {
	case <-none.changed:
		t.Error("a tap without a capture file cued")
	default:
	}
}
