package index

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// What a quick refresh takes for an unchanged file: the same regular file,
// size, mtime and inode, looked at from its folder or, for a file of
// another folder or of a folder below, by its path.
func TestFolderSame(t *testing.T) {
	dir := t.TempDir()
	other := t.TempDir()
	p := filepath.Join(dir, "a.jsonl")
	q := filepath.Join(other, "b.jsonl")
	for _, f := range []string{p, q} {
		if err := os.WriteFile(f, []byte("hello\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	type seen struct{ size, mtime, ino int64 }
	look := func(path string) seen {
		fi, err := os.Lstat(path)
		if err != nil {
			t.Fatal(err)
		}
		return seen{fi.Size(), fi.ModTime().UnixNano(), int64(fi.Sys().(*syscall.Stat_t).Ino)}
	}
	f := openFolder(dir)
	defer f.close()
	same := func(path string, s seen) bool { return f.same([]byte(path), s.size, s.mtime, s.ino) }

	sub := filepath.Join(dir, "sub", "c.jsonl")
	if err := os.MkdirAll(filepath.Dir(sub), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sub, []byte("hi\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, b, c := look(p), look(q), look(sub)
	if !same(p, a) || !same(q, b) || !same(sub, c) {
		t.Fatal("an unchanged file looks changed")
	}
	if same(sub, seen{c.size + 1, c.mtime, c.ino}) {
		t.Error("a file of a subfolder, of another size, looks unchanged")
	}
	if same(p, seen{a.size + 1, a.mtime, a.ino}) || same(p, seen{a.size, a.mtime + 1, a.ino}) || same(p, seen{a.size, a.mtime, a.ino + 1}) {
		t.Error("a file of another size, mtime or inode looks unchanged")
	}
	if same(q, seen{b.size, b.mtime - 1, b.ino}) {
		t.Error("another folder's file of another mtime looks unchanged")
	}

	// Rewritten in place, same size, a second later.
	later := time.Unix(0, a.mtime).Add(time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if same(p, a) {
		t.Error("a file written again looks unchanged")
	}
	// Replaced by another file of the same size and mtime.
	a = look(p)
	n := filepath.Join(dir, "new")
	if err := os.WriteFile(n, []byte("HELLO\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(n, later, later); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(n, p); err != nil {
		t.Fatal(err)
	}
	if look(p).ino == a.ino {
		t.Skip("the file system reused the inode")
	}
	if same(p, a) {
		t.Error("a file replaced by another of the same size and mtime looks unchanged")
	}
	// A symlink, or nothing, in its place.
	a = look(p)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if same(p, a) {
		t.Error("a file gone looks unchanged")
	}
	if err := os.Symlink(q, p); err != nil {
		t.Fatal(err)
	}
	if same(p, look(q)) {
		t.Error("a symlink looks like the file it points to")
	}
}
