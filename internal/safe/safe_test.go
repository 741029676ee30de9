package safe

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestUUID(t *testing.T) {
	good := []string{"0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e", "01a22ba1-f9df-7000-8000-000000000000"}
	bad := []string{"", "0F8B2C3E-4D5A-4B6C-8D7E-9F0A1B2C3D4E", "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4", "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e0",
		"0f8b2c3e_4d5a-4b6c-8d7e-9f0a1b2c3d4e", "0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4g", "../../../../etc/passwd0000000000000"}
	for _, s := range good {
		if !UUID(s) {
			t.Errorf("UUID(%q) = false", s)
		}
	}
	for _, s := range bad {
		if UUID(s) {
			t.Errorf("UUID(%q) = true", s)
		}
	}
	if !UUIDPrefix("0f8b", 4) || UUIDPrefix("0f8", 4) || !UUIDPrefix("0f8b2c3e-", 4) || UUIDPrefix("0f8b2c3eX", 4) {
		t.Error("UUIDPrefix")
	}
}

func TestNewUUID(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := NewUUID()
		if !UUID(id) || id[14] != '4' || !strings.ContainsRune("89ab", rune(id[19])) {
			t.Fatalf("NewUUID() = %q: not a v4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("NewUUID() repeated %s", id)
		}
		seen[id] = true
	}
}

func TestUUIDTime(t *testing.T) {
	ms, ok := UUIDTime("01a22ba1-f9df-7000-8000-000000000000")
	if !ok || ms != 0x01a22ba1f9df {
		t.Errorf("UUIDTime = %d, %v", ms, ok)
	}
	if _, ok := UUIDTime("0f8b2c3e-4d5a-4b6c-8d7e-9f0a1b2c3d4e"); ok {
		t.Error("a v4 UUID has no time")
	}
}

// refusals makes what Open and ReadFile must refuse or follow: a FIFO, a
// regular file of ten bytes and a symlink to it, in dir.
func refusals(t *testing.T) (dir, fifo, reg, link string) {
	t.Helper()
	dir = t.TempDir()
	fifo = filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	reg = filepath.Join(dir, "reg")
	os.WriteFile(reg, []byte("0123456789"), 0o600)
	link = filepath.Join(dir, "link")
	os.Symlink(reg, link)
	return dir, fifo, reg, link
}

// refusesFIFO checks that open, given a FIFO, neither blocks nor accepts it.
func refusesFIFO(t *testing.T, name string, open func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- open() }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s(fifo) = %v, want ErrNotRegular", name, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s blocked on a FIFO", name)
	}
}

func TestOpenRefuses(t *testing.T) {
	dir, fifo, reg, link := refusals(t)
	refusesFIFO(t, "Open", func() error { _, err := Open(fifo, 0); return err })
	if _, err := Open(dir, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Open(dir) = %v", err)
	}
	if _, err := Open(link, NoFollow); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Open(link, NoFollow) = %v", err)
	}
	if f, err := Open(link, 0); err != nil {
		t.Errorf("Open(link) = %v", err)
	} else {
		f.Close()
	}
	if _, err := ReadFile(reg, 9, 0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile over the cap = %v", err)
	}
	if b, err := ReadFile(reg, 10, 0); err != nil || string(b) != "0123456789" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	if _, err := ReadFile("/dev/zero", 1<<20, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile(/dev/zero) = %v", err)
	}
}

// ReadFile works on the bare descriptor, so it holds the same line as Open
// on its own.
func TestReadFileRefuses(t *testing.T) {
	dir, fifo, _, link := refusals(t)
	refusesFIFO(t, "ReadFile", func() error { _, err := ReadFile(fifo, 10, 0); return err })
	for name, err := range map[string]error{
		"dir":              func() error { _, err := ReadFile(dir, 10, 0); return err }(),
		"link, NoFollow":   func() error { _, err := ReadFile(link, 10, NoFollow); return err }(),
		"missing":          func() error { _, err := ReadFile(filepath.Join(dir, "none"), 10, 0); return err }(),
		"/proc over a cap": func() error { _, err := ReadFile("/proc/self/maps", 16, 0); return err }(),
	} {
		want := ErrNotRegular
		switch name {
		case "missing":
			want = fs.ErrNotExist
		case "/proc over a cap":
			want = ErrTooLarge
		}
		if !errors.Is(err, want) {
			t.Errorf("ReadFile(%s) = %v, want %v", name, err, want)
		}
	}
	if b, err := ReadFile(link, 10, 0); err != nil || string(b) != "0123456789" {
		t.Errorf("ReadFile(link) = %q, %v", b, err)
	}
	// A file whose size says nothing (/proc) is read to its end.
	b, err := ReadFile("/proc/self/status", 1<<20, 0)
	if err != nil || !bytes.Contains(b, []byte("\nPid:\t")) {
		t.Errorf("ReadFile(/proc/self/status) = %d bytes, %v", len(b), err)
	}
}

func TestLockTimesOut(t *testing.T) {
	p := filepath.Join(t.TempDir(), "lock")
	unlock, err := Lock(p, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file description: a second Lock from
	// the same process conflicts like another process would.
	start := time.Now()
	if _, err := Lock(p, 50*time.Millisecond); !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("second Lock = %v, want ErrLockTimeout", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("waited %v for a 50ms bound", d)
	}
	unlock()
	u2, err := Lock(p, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("Lock after unlock: %v", err)
	}
	u2()
}

func TestWriteFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := WriteFile(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("two"), 0o640); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "two" || fi.Mode().Perm() != 0o640 {
		t.Errorf("got %q mode %v", b, fi.Mode())
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestQuoteForms(t *testing.T) {
	for in, want := range map[string]string{
		"program":    "program",
		"":           "''",
		"a b":        "'a b'",
		"it's":       `'it'"'"'s'`,
		`x\'; t #`:   `'x'"\\""'"'; t #'`,
		`\`:          `"\\"`,
		"=cmd":       "'=cmd'",
		"$HOME":      "'$HOME'",
		"/a/b:c@d=e": "/a/b:c@d=e",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestTOMLDepth(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	for doc, ok := range map[string]bool{
		"a = [[1], [2, [3]]]":                     true,
		"a = " + deep:                             false,
		"a = '" + deep + "'":                      true,
		"a = \"\\\"" + deep + "\"":                true,
		"# " + deep + "\nb = 1":                   true,
		`a = """` + deep + `"""`:                  true,
		`a = '''x''''` + "\nb = " + deep[:150000]: false,
		"t = {a = {b = {c = 1}}}":                 true,
		"[tab.le]\n[[arr]]\nx = [ { y = [1] } ]":  true,
	} {
		err := TOMLDepth([]byte(doc), 64)
		if (err == nil) != ok {
			t.Errorf("TOMLDepth(%.40q) = %v, want ok=%v", doc, err, ok)
		}
	}
}

func TestPrivateDir(t *testing.T) {
	base := t.TempDir() // under /tmp: sticky and root-owned, which is fine
	mine := filepath.Join(base, "mine")
	os.Mkdir(mine, 0o700)
	got, err := PrivateDir(mine)
	if err != nil {
		t.Fatalf("a private dir refused: %v", err)
	}
	if want, _ := filepath.EvalSymlinks(mine); got != want {
		t.Errorf("PrivateDir = %q, want %q", got, want)
	}
	// A trailing slash and a symlink on the way are resolved, and the
	// target is what is checked.
	link := filepath.Join(base, "link")
	os.Symlink(mine, link)
	if got, err := PrivateDir(link + "/"); err != nil || got != filepath.Clean(got) || filepath.Base(got) != "mine" {
		t.Errorf("PrivateDir(link/) = %q, %v", got, err)
	}
	wide := filepath.Join(base, "wide")
	os.Mkdir(wide, 0o700)
	os.Chmod(wide, 0o777)
	if _, err := PrivateDir(wide); err == nil {
		t.Error("a world-writable dir accepted")
	}
	// A private dir under a parent others can write to (no sticky bit).
	under := filepath.Join(wide, "fleetcom")
	os.Mkdir(under, 0o700)
	if _, err := PrivateDir(under); err == nil || !strings.Contains(err.Error(), "above it") {
		t.Errorf("a dir under a world-writable parent: %v", err)
	}
	os.Chmod(wide, 0o777|os.ModeSticky)
	if _, err := PrivateDir(under); err != nil {
		t.Errorf("a dir under a sticky parent refused: %v", err)
	}
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := PrivateDir(file); err == nil {
		t.Error("a file accepted")
	}
	if os.Getuid() != 0 {
		return
	}
	// As root, directories of another user can be made: one as the dir
	// itself, one as a parent.
	other := filepath.Join(base, "other")
	os.Mkdir(other, 0o755)
	os.Chown(other, 65534, 65534)
	if _, err := PrivateDir(other); err == nil || !strings.Contains(err.Error(), "uid 65534") {
		t.Errorf("another user's dir: %v", err)
	}
	inside := filepath.Join(other, "fleetcom")
	os.Mkdir(inside, 0o700)
	if _, err := PrivateDir(inside); err == nil || !strings.Contains(err.Error(), "above it, belongs to uid 65534") {
		t.Errorf("a dir under another user's parent: %v", err)
	}
}

// The writing helpers hold the same line as Open: a FIFO, a device, a
// directory or a symlink in the file's place is refused at once, and
// nothing is written through it.
func TestWritersRefuse(t *testing.T) {
	dir, fifo, reg, link := refusals(t)
	refusesFIFO(t, "AppendFile", func() error { _, err := AppendFile(fifo, []byte("x\n"), 0o600); return err })
	refusesFIFO(t, "Touch", func() error { return Touch(fifo, 0o600) })
	refusesFIFO(t, "ReadTail", func() error { _, _, err := ReadTail(fifo, 10, 0); return err })
	refusesFIFO(t, "Lock", func() error { _, err := Lock(fifo, time.Second); return err })
	// A FIFO someone holds open for reading opens without blocking: the
	// type check still refuses it.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	refusesFIFO(t, "AppendFile with a reader", func() error { _, err := AppendFile(fifo, []byte("x\n"), 0o600); return err })
	for name, err := range map[string]error{
		"append to a dir":     func() error { _, err := AppendFile(dir, nil, 0o600); return err }(),
		"append to a link":    func() error { _, err := AppendFile(link, []byte("x"), 0o600); return err }(),
		"touch a link":        Touch(link, 0o600),
		"append to /dev/null": func() error { _, err := AppendFile("/dev/null", []byte("x"), 0o600); return err }(),
		"tail of a link":      func() error { _, _, err := ReadTail(link, 10, NoFollow); return err }(),
		"lock a link":         func() error { _, err := Lock(link, time.Second); return err }(),
	} {
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", name, err)
		}
	}
	if b, _ := os.ReadFile(reg); string(b) != "0123456789" {
		t.Errorf("written through the link: %q", b)
	}
}

func TestAppendTouchTail(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := Touch(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if size, err := AppendFile(p, []byte("one\n"), 0o600); err != nil || size != 4 {
		t.Fatalf("AppendFile = %d, %v", size, err)
	}
	if size, err := AppendFile(p, []byte("two\n"), 0o644); err != nil || size != 8 {
		t.Fatalf("AppendFile = %d, %v", size, err)
	}
	if size, err := AppendExisting(p, []byte("3\n")); err != nil || size != 10 {
		t.Fatalf("AppendExisting = %d, %v", size, err)
	}
	gone := filepath.Join(filepath.Dir(p), "gone")
	if _, err := AppendExisting(gone, []byte("x\n")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("AppendExisting to a missing file: %v, want ErrNotExist", err)
	}
	if _, err := os.Lstat(gone); !os.IsNotExist(err) {
		t.Errorf("AppendExisting made the missing file: %v", err)
	}
	if err := Touch(p, 0o600); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	if b, cut, err := ReadTail(p, 100, NoFollow); err != nil || cut || string(b) != "one\ntwo\n3\n" {
		t.Errorf("ReadTail whole = %q, %v, %v", b, cut, err)
	}
	if b, cut, err := ReadTail(p, 5, NoFollow); err != nil || !cut || string(b) != "wo\n3\n" {
		t.Errorf("ReadTail of 5 = %q, %v, %v", b, cut, err)
	}
	// A file far larger than the window costs the window, not the file.
	huge := filepath.Join(t.TempDir(), "huge")
	f, _ := os.Create(huge)
	f.Truncate(8 << 30)
	f.WriteAt([]byte("last\n"), 8<<30)
	f.Close()
	if b, cut, err := ReadTail(huge, 16, 0); err != nil || !cut || len(b) != 16 || !strings.HasSuffix(string(b), "last\n") {
		t.Errorf("ReadTail of a huge file = %q, %v, %v", b, cut, err)
	}
}

func TestPrivate(t *testing.T) {
	base := t.TempDir()
	mine := filepath.Join(base, "mine")
	os.Mkdir(mine, 0o700)
	if err := Private(mine); err != nil {
		t.Errorf("a private dir refused: %v", err)
	}
	link := filepath.Join(base, "link")
	os.Symlink(mine, link)
	os.Chmod(base, 0o777)
	defer os.Chmod(base, 0o700)
	wide := filepath.Join(base, "wide")
	os.Mkdir(wide, 0o700)
	os.Chmod(wide, 0o770)
	file := filepath.Join(base, "file")
	os.WriteFile(file, nil, 0o600)
	for _, p := range []string{link, wide, file, filepath.Join(base, "none")} {
		if err := Private(p); err == nil {
			t.Errorf("Private(%s) accepted it", p)
		}
	}
}

func TestHost(t *testing.T) {
	for h, want := range map[string]bool{
		"box": true, "box1.example.com": true, "me@box": true, "a_b-c.d": true, "192.168.1.10": true,
		"": false, "-oProxyCommand=x": false, "me@-x": false, "@box": false, "me@": false,
		"a;b": false, "x`id`@box": false, "%h": false, "ssh://u@h:2222": false, "box:22": false,
		"a b": false, "a\x1b": false, "a@b@c": false, "[::1]": false, "box\n": false,
		strings.Repeat("a", 256): false,
	} {
		if Host(h) != want {
			t.Errorf("Host(%q) = %v", h, !want)
		}
	}
}
