package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
)

// A move carries each part of a conversation (harness.Part) whole: renamed
// into its new place when that is one filesystem, else copied, every file
// read back and compared, and the old copy deleted last (once the new one
// passed the agent's check and the record names it), file by file, only
// what was copied and has not changed since. Files the agent's rewrite
// names are then rewritten in place, through a temporary file and a rename.
// Until the record is written every step can be undone.

// maxMovedFile bounds one file read for a rewrite.
const maxMovedFile = 256 << 20

// rename is os.Rename; tests make it fail as across filesystems.
var rename = os.Rename

// copied is called once a copy is in place; tests change the old copy then.
var copied = func(harness.Part) {}

// carried is one part on its way.
type carried struct {
	part   harness.Part
	undo   func()
	finish func() (left []string) // deletes the old copy; nil when there is none
}

// carryPart takes one part to its place: by rename unless keep (or the
// filesystems differ), else by copy.
func carryPart(p harness.Part, keep bool) (*carried, error) {
	if p.From == p.To {
		restore, err := editAll(p)
		if err != nil {
			return nil, err
		}
		return &carried{part: p, undo: restore}, nil
	}
	made, err := mkdirs(filepath.Dir(p.To))
	if err != nil {
		return nil, err
	}
	if !keep {
		err = rename(p.From, p.To)
		if err == nil {
			moved := harness.Part{From: p.To, To: p.To, Dir: p.Dir, Edit: p.Edit}
			restore, err := editAll(moved)
			if err != nil {
				rename(p.To, p.From)
				unmake(made)
				return nil, err
			}
			return &carried{part: p, undo: func() {
				restore()
				rename(p.To, p.From)
				unmake(made)
			}}, nil
		}
		if !errors.Is(err, syscall.EXDEV) {
			unmake(made)
			return nil, err
		}
	}
	files, err := copyPart(p)
	if err != nil {
		unmake(made)
		return nil, err
	}
	c := &carried{part: p, undo: func() {
		os.RemoveAll(p.To)
		unmake(made)
	}}
	if !keep {
		c.finish = func() []string { return removeCopied(p.From, p.Dir, files) }
	}
	return c, nil
}

// editAll rewrites, in place, the files of a part its Edit names, and
// returns how to put them back.
func editAll(p harness.Part) (restore func(), err error) {
	type saved struct {
		path string
		data []byte
		mode fs.FileMode
	}
	var done []saved
	restore = func() {
		for _, s := range slices.Backward(done) {
			safe.WriteFile(s.path, s.data, s.mode)
		}
	}
	files, err := partFiles(p.From, p.Dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		edit := p.Edit(f.rel)
		if edit == nil {
			continue
		}
		path := filepath.Join(p.From, filepath.FromSlash(f.rel))
		data, err := safe.ReadFile(path, maxMovedFile, safe.NoFollow)
		if err != nil {
			restore()
			return nil, err
		}
		out := edit(data)
		if bytes.Equal(out, data) {
			continue
		}
		if err := safe.WriteFile(path, out, f.mode.Perm()); err != nil {
			restore()
			return nil, err
		}
		done = append(done, saved{path, data, f.mode.Perm()})
	}
	return restore, nil
}

// partFile is one file of a part: its path inside the part ("" for a file
// part), its mode, and what it was when listed.
type partFile struct {
	rel   string
	mode  fs.FileMode
	size  int64
	mtime time.Time
}

// partFiles lists a part's regular files; anything else in it (a symlink,
// a FIFO) is an error: a copy would not carry it.
func partFiles(root string, dir bool) ([]partFile, error) {
	if !dir {
		fi, err := os.Lstat(root)
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", root)
		}
		return []partFile{{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime()}}, nil
	}
	var out []partFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s holds %s, which is not a regular file: fleetcom would not carry it", root, rel)
		}
		out = append(out, partFile{rel: filepath.ToSlash(rel), mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime()})
		return nil
	})
	return out, err
}

// copyPart copies a part beside its place, rewritten, reads every file back
// to compare it with what it should hold, and renames the copy into place.
// It returns the files it copied, as they were.
func copyPart(p harness.Part) ([]partFile, error) {
	files, err := partFiles(p.From, p.Dir)
	if err != nil {
		return nil, err
	}
	tmp := p.To + ".fleetcom-copy"
	os.RemoveAll(tmp) // left by a copy that was killed
	fail := func(err error) ([]partFile, error) {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("copy %s: %w", p.From, err)
	}
	if p.Dir {
		if err := copyDirs(p.From, tmp); err != nil {
			return fail(err)
		}
	}
	for _, f := range files {
		src := filepath.Join(p.From, filepath.FromSlash(f.rel))
		dst := filepath.Join(tmp, filepath.FromSlash(f.rel))
		if !p.Dir {
			dst = tmp
		}
		if err := copyFile(src, dst, f, p.Edit(f.rel)); err != nil {
			return fail(err)
		}
	}
	if err := os.Rename(tmp, p.To); err != nil {
		return fail(err)
	}
	copied(p)
	return files, nil
}

// copyDirs makes the folders of the tree at root under dst.
func copyDirs(root, dst string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		return os.Mkdir(filepath.Join(dst, rel), fi.Mode().Perm()|0o700)
	})
}

// copyFile copies one file, rewritten by edit when it is set, syncs it and
// reads it back: the copy must hold exactly what it should.
func copyFile(src, dst string, f partFile, edit func([]byte) []byte) error {
	in, err := safe.Open(src, safe.NoFollow)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, f.mode.Perm())
	if err != nil {
		return err
	}
	var want []byte
	if edit != nil {
		var data []byte
		data, err = io.ReadAll(io.LimitReader(in, maxMovedFile+1))
		if err == nil && len(data) > maxMovedFile {
			err = fmt.Errorf("%s is larger than %d MiB", src, maxMovedFile>>20)
		}
		if err != nil {
			out.Close()
			return err
		}
		want = edit(data)
		_, err = out.Write(want)
	} else {
		_, err = io.Copy(out, in)
	}
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if want != nil {
		got, err := safe.ReadFile(dst, int64(len(want))+1, safe.NoFollow)
		if err != nil {
			return fmt.Errorf("read back %s: %w", dst, err)
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s does not read back as written", dst)
		}
		return nil
	}
	return sameFiles(src, dst)
}

// sameFiles compares two files byte for byte.
func sameFiles(a, b string) error {
	fa, err := safe.Open(a, safe.NoFollow)
	if err != nil {
		return err
	}
	defer fa.Close()
	fb, err := safe.Open(b, safe.NoFollow)
	if err != nil {
		return err
	}
	defer fb.Close()
	if err := sameContent(fa, fb); err != nil {
		if errors.Is(err, errDiffer) {
			return fmt.Errorf("%s does not read back as %s", b, a)
		}
		return err
	}
	return nil
}

// errDiffer is sameContent's answer for two readers that differ.
var errDiffer = errors.New("contents differ")

// sameContent compares two readers to their ends. Only the end of both
// ends the comparison: a read that fails, after however many equal bytes,
// is that failure.
func sameContent(a, b io.Reader) error {
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, ea := io.ReadFull(a, ba)
		nb, eb := io.ReadFull(b, bb)
		for _, err := range []error{ea, eb} {
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				return err
			}
		}
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return errDiffer
		}
		if ea != nil || eb != nil {
			return nil // both ended: equal counts short of a full buffer
		}
	}
}

// removeCopied deletes, of the old copy at root, the files copied that are
// as they were when copied, then the folders left empty; it returns what it
// left.
func removeCopied(root string, dir bool, copied []partFile) (left []string) {
	for _, f := range copied {
		path := filepath.Join(root, filepath.FromSlash(f.rel))
		fi, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if !fi.Mode().IsRegular() || fi.Size() != f.size || !fi.ModTime().Equal(f.mtime) {
			left = append(left, path) // changed since it was copied
			continue
		}
		if err := os.Remove(path); err != nil {
			left = append(left, path)
		}
	}
	if dir {
		var dirs []string
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, path)
			}
			return nil
		})
		for _, d := range slices.Backward(dirs) {
			os.Remove(d) // only ever empty: deepest first
		}
		if exists(root) {
			filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && !slices.Contains(left, path) {
					left = append(left, path)
				}
				return nil
			})
		}
	}
	return left
}

// mkdirs makes dir and the folders above it that are missing, and returns
// the ones it made, deepest first.
func mkdirs(dir string) ([]string, error) {
	var made []string
	for d := dir; !exists(d); d = filepath.Dir(d) {
		made = append(made, d)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		unmake(made)
		return nil, err
	}
	return made, nil
}

// unmake removes folders mkdirs made, when they are empty.
func unmake(made []string) {
	for _, d := range made {
		os.Remove(d)
	}
}
