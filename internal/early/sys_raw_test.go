//go:build linux && (amd64 || arm64)

package early

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"unsafe"
)

// The system calls sys_raw.go makes itself give what package syscall's
// give.
func TestRawCalls(t *testing.T) {
	if n := unsafe.Sizeof(statxBuf{}); n != 256 {
		t.Fatalf("statxBuf is %d bytes, struct statx 256", n)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "prog")
	if err := os.WriteFile(name, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{name, dir, "/proc/self/exe"} {
		var st syscall.Stat_t
		if err := syscall.Stat(p, &st); err != nil {
			t.Fatal(err)
		}
		fi, e := sysStat(p)
		if e != 0 || fi.ino != st.Ino || fi.mode != st.Mode {
			t.Errorf("sysStat(%s) = %+v, %d; syscall.Stat has ino %d mode %o", p, fi, e, st.Ino, st.Mode)
		}
	}
	a, _ := sysStat(name)
	b, _ := sysStat(dir + "/./prog")
	c, _ := sysStat(dir)
	if !a.same(b) || a.same(c) || !a.executable() || c.executable() {
		t.Errorf("same and executable: %+v %+v %+v", a, b, c)
	}
	if _, e := sysStat(filepath.Join(dir, "none")); e != eNOENT {
		t.Errorf("a missing file: %d", e)
	}
	if _, e := sysStat(name + "\x00x"); e != eINVAL {
		t.Errorf("a name with a NUL: %d", e)
	}
	fd, e := sysOpen(name, oRDONLY|oCLOEXEC)
	if e != 0 {
		t.Fatal(e)
	}
	mode, size, e := sysFstat(fd)
	buf := make([]byte, 64)
	n, re := sysRead(fd, buf)
	sysClose(fd)
	if e != 0 || mode&sIFMT != sIFREG || size != 10 || re != 0 || string(buf[:n]) != "#!/bin/sh\n" {
		t.Errorf("fstat %o %d %d, read %q %d", mode, size, e, buf[:n], re)
	}
	if _, e := sysRead(fd, buf); e == 0 {
		t.Error("read after close")
	}
	exe, _ := os.Readlink("/proc/self/exe")
	big := make([]byte, 4096)
	if n, e := sysReadlink("/proc/self/exe", big); e != 0 || string(big[:n]) != exe {
		t.Errorf("readlink: %q %d, want %q", big[:n], e, exe)
	}
	if sysAccess(name, xOK) != 0 || sysAccess(filepath.Join(dir, "none"), xOK) != eNOENT {
		t.Error("access")
	}
	if sysGetpid() != os.Getpid() {
		t.Error("getpid")
	}
	if !slices.Equal(sysEnviron(), os.Environ()) {
		t.Error("the environment differs from os.Environ")
	}
	if e := sysExec(filepath.Join(dir, "none"), []string{"none"}, nil); e != eNOENT {
		t.Errorf("exec of a missing file: %d", e)
	}
	if e := sysExec(name, []string{"a\x00b"}, nil); e != eINVAL {
		t.Errorf("exec with a NUL in an argument: %d", e)
	}
}
