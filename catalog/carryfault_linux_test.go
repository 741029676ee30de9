package catalog

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/fleetcom/fleetcom/harness"
)

// A copy onto a full disk fails with the disk's own error, not with a
// read-back mismatch that hides it (issue 29, item 14). The test binary
// runs itself again in a private mount namespace, where the destination is
// a tmpfs of 16 KiB and the rewritten file is 64 KiB.
func TestCopyOntoFullDisk(t *testing.T) {
	if dir := os.Getenv("FLEETCOM_TEST_FULL_DISK"); dir != "" {
		copyOntoFullDisk(t, dir)
		return
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("needs unshare(1) from util-linux to mount a scratch filesystem")
	}
	if err := exec.Command("unshare", "--map-root-user", "--mount", "true").Run(); err != nil {
		t.Skipf("this kernel refuses a user mount namespace, so no scratch filesystem can be mounted: %v", err)
	}
	cmd := exec.Command("unshare", "--map-root-user", "--mount", os.Args[0], "-test.run=^TestCopyOntoFullDisk$", "-test.v")
	cmd.Env = append(os.Environ(), "FLEETCOM_TEST_FULL_DISK="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestCopyOntoFullDisk") {
		t.Errorf("in the mount namespace: %v\n%s", err, out)
	}
}

// copyOntoFullDisk is the part of TestCopyOntoFullDisk that runs in the
// mount namespace, with dir its scratch directory.
func copyOntoFullDisk(t *testing.T, dir string) {
	full := filepath.Join(dir, "full")
	os.Mkdir(full, 0o700)
	if err := syscall.Mount("tmpfs", full, "tmpfs", 0, "size=16k"); err != nil {
		t.Fatalf("mount a tmpfs: %v", err)
	}
	from := filepath.Join(dir, "conversation.jsonl")
	if err := os.WriteFile(from, []byte("a line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	grow := func(data []byte) []byte { return bytes.Repeat(data, 64<<10/len(data)) }
	p := harness.Part{From: from, To: filepath.Join(full, "conversation.jsonl"),
		Edit: func(string) func([]byte) []byte { return grow }}
	c, err := carryPart(p, false) // across filesystems: copied
	if err == nil {
		c.undo()
		t.Fatal("a 64 KiB file was copied onto a 16 KiB disk")
	}
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "no space left on device") {
		t.Errorf("the copy failed with %q, want the disk's own error (no space left on device)", err)
	}
	if left, _ := os.ReadDir(full); len(left) != 0 {
		t.Errorf("a failed copy left %v on the disk", left)
	}
	if got, err := os.ReadFile(from); err != nil || string(got) != "a line\n" {
		t.Errorf("the file copied from is now %q, %v", got, err)
	}
}

// Two files are the same only when both end together: a read that fails
// after equal bytes is an error, not the end (issue 29, item 14).
func TestSameContent(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 5000) // more than one buffer
	failing := func(n int) io.Reader {
		return io.MultiReader(bytes.NewReader(data[:n]), iotest.ErrReader(syscall.EIO))
	}
	for _, tc := range []struct {
		name string
		a, b io.Reader
		want error // nil: the same
	}{
		{"equal", bytes.NewReader(data), bytes.NewReader(data), nil},
		{"empty", bytes.NewReader(nil), bytes.NewReader(nil), nil},
		{"shorter", bytes.NewReader(data), bytes.NewReader(data[:len(data)-1]), errDiffer},
		{"longer", bytes.NewReader(data[:64<<10]), bytes.NewReader(data), errDiffer},
		{"one byte changed", bytes.NewReader(data), bytes.NewReader(append(bytes.Clone(data[:len(data)-1]), 'x')), errDiffer},
		{"copy fails after a partial buffer", bytes.NewReader(data), failing(len(data)), syscall.EIO},
		{"copy fails at a buffer's end", bytes.NewReader(data[:64<<10]), failing(64 << 10), syscall.EIO},
		{"original fails", failing(len(data)), bytes.NewReader(data), syscall.EIO},
		{"both fail", failing(100), failing(100), syscall.EIO},
		{"copy fails at once", bytes.NewReader(nil), iotest.ErrReader(syscall.EIO), syscall.EIO},
	} {
		err := sameContent(tc.a, tc.b)
		if (err == nil) != (tc.want == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}
