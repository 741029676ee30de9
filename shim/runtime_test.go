package shim

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fleetcom/fleetcom/harness"
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

func TestRuntimeRoot(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private")
	if got, err := openRoot(Root{Dir: private}); err != nil || filepath.Base(got) != "private" {
		t.Errorf("a new private root: %q, %v", got, err)
	}
	link := filepath.Join(dir, "link")
	os.Symlink(private, link)
	if got, err := openRoot(Root{Dir: link + "/", Explicit: true}); err != nil || filepath.Base(got) != "private" {
		t.Errorf("a symlink to a private root resolves to it: %q, %v", got, err)
	}
	for name, mode := range map[string]os.FileMode{"wide": 0o777, "group": 0o770} {
		d := filepath.Join(dir, name)
		os.Mkdir(d, 0o700)
		os.Chmod(d, mode)
		if _, err := openRoot(Root{Dir: d, Explicit: true}); err == nil || !strings.Contains(err.Error(), "writable by others") {
			t.Errorf("%s root: %v", name, err)
		}
		// A private directory below it is no better: whoever can write the
		// parent can swap it.
		below := filepath.Join(d, "fleetcom")
		if _, err := openRoot(Root{Dir: below, Explicit: true}); err == nil || !strings.Contains(err.Error(), "above it") {
			t.Errorf("root under a %s parent: %v", name, err)
		}
		if _, err := newNamespace(Root{Dir: below, Explicit: true}, nil); err == nil {
			t.Errorf("a namespace was created under a %s parent", name)
		}
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := openRoot(Root{Dir: file, Explicit: true}); err == nil {
		t.Error("a file accepted as the root")
	}
	if _, err := openRoot(Root{Dir: "relative/dir", Explicit: true}); err == nil {
		t.Error("a relative root accepted")
	}
	if os.Getuid() != 0 {
		t.Log("a directory owned by another user needs root to create; the cases above ran")
		return
	}
	other := filepath.Join(dir, "other")
	os.Mkdir(other, 0o755)
	if err := os.Chown(other, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if _, err := openRoot(Root{Dir: other, Explicit: true}); err == nil || !strings.Contains(err.Error(), "uid 65534") {
		t.Errorf("another user's root: %v", err)
	}
	// The case: <other user's dir>/fleetcom, which that user can
	// rename away and replace.
	if _, err := newNamespace(Root{Dir: filepath.Join(other, "fleetcom"), Explicit: true}, nil); err == nil {
		t.Error("a namespace was created under another user's directory")
	}
}

// plantNamespace makes a directory shaped like a namespace of process p,
// with a marker (unless marker is false) and a file inside.
func plantNamespace(t *testing.T, root string, p process, marker bool) string {
	t.Helper()
	dir := filepath.Join(root, strconv.Itoa(p.pid)+"-1a2b3c4d5e6f")
	os.MkdirAll(dir, 0o700)
	if marker {
		os.WriteFile(filepath.Join(dir, markerName), p.marker(), 0o600)
	}
	os.WriteFile(filepath.Join(dir, "task.json"), []byte("x"), 0o600)
	return dir
}

func TestNamespace(t *testing.T) {
	root := Root{Dir: filepath.Join(t.TempDir(), "fleetcom")}
	os.MkdirAll(root.Dir, 0o700)
	self := currentProcess()
	if self.pidns == "" {
		t.Skip("no /proc/self/ns/pid here: namespaces are never swept, so there is nothing to test")
	}
	exited := exec.Command("true")
	exited.Run()
	live := exec.Command("sleep", "60")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { live.Process.Kill(); live.Wait() }()

	dead := plantNamespace(t, root.Dir, process{pid: exited.Process.Pid, start: "1", pidns: self.pidns}, true)
	running := plantNamespace(t, root.Dir, process{pid: live.Process.Pid, start: startTime(live.Process.Pid), pidns: self.pidns}, true)
	reused := filepath.Join(root.Dir, strconv.Itoa(live.Process.Pid)+"-aaaaaaaaaaaa")
	os.MkdirAll(reused, 0o700)
	os.WriteFile(filepath.Join(reused, markerName), process{pid: live.Process.Pid, start: "12345", pidns: self.pidns}.marker(), 0o600)
	otherNS := plantNamespace(t, root.Dir, process{pid: 999999, start: "1", pidns: "pid:[1]"}, true)
	// Shaped like a namespace of a dead process, but fleetcom did not make
	// it: a user's notes, or a namespace of an older version.
	unmarked := plantNamespace(t, root.Dir, process{pid: 999998}, false)
	notes := filepath.Join(root.Dir, "2023-10")
	os.MkdirAll(notes, 0o700)
	os.WriteFile(filepath.Join(notes, "report.txt"), []byte("keep me"), 0o600)
	keep := filepath.Join(root.Dir, "not-a-namespace")
	os.MkdirAll(keep, 0o700)

	// A per-run asset, as an agent whose hook needs a file would declare.
	ns, err := newNamespace(root, []harness.Asset{{Name: "hook-settings.json", Mode: 0o600, Data: []byte("{}")}})
	if err != nil {
		t.Fatal(err)
	}
	// The child starts now; the marker and the sweep come while it does.
	if _, err := os.Lstat(filepath.Join(ns.dir, markerName)); err == nil {
		t.Error("the marker was written before the child could start")
	}
	if _, err := os.Stat(dead); err != nil {
		t.Error("the sweep ran before the child could start")
	}
	if err := ns.settle(); err != nil {
		t.Fatal(err)
	}
	want := map[string]os.FileMode{"": 0o700, "hook-settings.json": 0o600, markerName: 0o600, filepath.Base(ns.capture): 0o600}
	for name, mode := range want {
		fi, err := os.Lstat(filepath.Join(ns.dir, name))
		if err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: %v, mode %v; want %v", name, err, fi.Mode().Perm(), mode)
		}
	}
	// Only the run's own agent's files.
	if entries, _ := os.ReadDir(ns.dir); len(entries) != len(want)-1 {
		t.Errorf("namespace holds %d files, want %d", len(entries), len(want)-1)
	}
	if !strings.HasPrefix(filepath.Base(ns.dir), strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("namespace %s is not <pid>-<nonce>", ns.dir)
	}
	for _, gone := range []string{dead, reused} {
		if _, err := os.Stat(gone); err == nil {
			t.Errorf("%s: the namespace of a run that is over was not swept", filepath.Base(gone))
		}
	}
	for _, kept := range []string{running, otherNS, unmarked, notes, keep} {
		if _, err := os.Stat(kept); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(kept), err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(notes, "report.txt")); string(b) != "keep me" {
		t.Error("a user's file in the root was touched")
	}
	// A file the namespace did not make (a hook's own) goes with it.
	os.WriteFile(filepath.Join(ns.dir, "hook-output.tmp"), []byte("x"), 0o600)
	ns.remove()
	if _, err := os.Stat(ns.dir); err == nil {
		t.Error("namespace left behind")
	}
}

// A stable asset lives in the root, outside the run's namespace, and stays
// when the run ends: Codex may start the notifier as it exits.
func TestStableAsset(t *testing.T) {
	root := Root{Dir: filepath.Join(t.TempDir(), "fleetcom")}
	ns, err := newNamespace(root, mustAgent("codex").Assets)
	if err != nil {
		t.Fatal(err)
	}
	script := ns.assets["codex-notify.sh"]
	if filepath.Dir(script) != ns.root || !strings.HasPrefix(filepath.Base(script), "codex-notify-") {
		t.Fatalf("notifier at %s, want a stable name in %s", script, ns.root)
	}
	if err := ns.settle(); err != nil {
		t.Fatal(err)
	}
	ns.remove()
	if _, err := os.Lstat(ns.dir); err == nil {
		t.Errorf("the run's namespace %s outlived it", ns.dir)
	}
	fi, err := os.Stat(script)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the stable notifier did not outlive its run: %v", err)
	}
	again, err := newNamespace(root, mustAgent("codex").Assets)
	if err != nil || again.assets["codex-notify.sh"] != script {
		t.Errorf("a second run got %v, %v", again.assets, err)
	}
	again.remove()
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

// A notifier that finishes after the TUI's last redraw is still seen: the
// tap looks again once output has stopped, without waiting for more. The
// tap's clock is the test's, so each look falls exactly when it is due.
func TestTapSettles(t *testing.T) {
	capture := filepath.Join(t.TempDir(), "task.json")
	os.WriteFile(capture, nil, 0o600)
	tp := newTap(NewTail(16), capture)
	clk := newFakeClock()
	tp.clock = clk
	seen := make(chan struct{}, 8)
	stop := tp.follow(func() { seen <- struct{}{} })
	defer stop()
	// looked reports whether a look has taken in the file as it is now.
	looked := func() bool {
		fi, err := os.Stat(capture)
		if err != nil {
			t.Fatal(err)
		}
		tp.mu.Lock()
		defer tp.mu.Unlock()
		return tp.size == fi.Size()
	}
	waitSeen := func(what string) {
		t.Helper()
		select {
		case <-seen:
		case <-time.After(time.Minute):
			t.Fatalf("%s: the change was looked at but never reported", what)
		}
	}
	tp.Write([]byte("start")) // the first look takes in the empty file
	waitSeen("the first look")
	clk.advance(10 * time.Millisecond) // a new burst
	tp.Write([]byte("turn over"))
	os.WriteFile(capture, []byte("{\"type\":\"agent-turn-complete\"}\n"), 0o600)
	clk.advance(settleGaps[0] - time.Nanosecond)
	if looked() {
		t.Fatal("looked again before the output had been silent for the first gap")
	}
	clk.advance(time.Nanosecond)
	if !looked() {
		t.Fatal("a change after the last output was not looked at after the first gap")
	}
	waitSeen("a change after the last output")
	// Output again once the long gaps have begun, then another late change:
	// the looks start over, and it is seen at the first short gap.
	clk.advance(settleGaps[1])
	tp.Write([]byte("next turn"))
	os.WriteFile(capture, []byte("{\"type\":\"agent-turn-complete\"}\n{}\n"), 0o600)
	clk.advance(settleGaps[0])
	if !looked() {
		t.Fatal("after more output, a late change waited for a long gap")
	}
	waitSeen("a late change after more output")
	// Stopped, the tap looks no more.
	stop()
	os.WriteFile(capture, []byte("later\n"), 0o600)
	clk.advance(settleGaps[len(settleGaps)-1])
	if looked() {
		t.Error("a stopped tap still looked")
	}
}

// physicalDir asks the kernel in a small buffer first: a long path and a
// symlinked one must come out whole and resolved.
func TestPhysicalDir(t *testing.T) {
	real := t.TempDir()
	for range 12 {
		real = filepath.Join(real, strings.Repeat("d", 40))
	}
	if err := os.MkdirAll(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	want, err := filepath.EvalSymlinks(real)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(link)
	t.Setenv("PWD", link)
	got, err := physicalDir()
	if err != nil || got != want {
		t.Errorf("physicalDir = %q, %v; want %q (%d bytes)", got, err, want, len(want))
	}
}
