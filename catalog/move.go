package catalog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fleetcom/fleetcom/harness"
	"github.com/fleetcom/fleetcom/internal/safe"
	"github.com/fleetcom/fleetcom/store"
)

// Export returns the bundle of the conversation ref names (an ID or a
// prefix, of one tool when tool is set), found as resume finds it from dir.
func (c *Catalog) Export(tool, ref, dir string) (Bundle, error) {
	p, err := c.Resolve(Query{Tool: tool, Ref: ref, Dir: dir})
	if err != nil {
		return Bundle{}, err
	}
	m, ok := p.Agent.Behaviour.(harness.Mover)
	if !ok {
		return Bundle{}, invalid("%s conversations cannot be exported", p.Agent.Name)
	}
	e := p.Entry
	home := c.entryHome(p.Agent, e)
	files, err := m.Pack(home, e.Cwd, e.ID)
	if err != nil {
		return Bundle{}, notFound(listHint, "cannot export %s conversation %s: %v", e.Tool, e.ID, err)
	}
	return bundleOf(e, files), nil
}

// entryHome is the home an entry's files are in: the record's, else this
// environment's.
func (c *Catalog) entryHome(a harness.Agent, e Entry) string {
	if e.Home != "" {
		return e.Home
	}
	return c.Home(a)
}

// Import files a bundle's conversation in this environment's home of its
// agent, for the physical directory dir, and records it. The same bundle
// twice is a no-op; a different conversation with the same ID is never
// overwritten, and nothing is written unless every check passed.
func (c *Catalog) Import(b Bundle, a harness.Agent, dir string) (store.Record, bool, error) {
	m := a.Behaviour.(harness.Mover)
	home := c.Home(a)
	place, err := m.Place(home, dir, b.ID, b.Cwd, b.files())
	if err != nil {
		return store.Record{}, false, invalid("cannot import %s conversation %s: %v", b.Tool, b.ID, err)
	}
	if old, ok := m.Locate(home, "", b.ID); ok && old.Path != place.Path {
		return store.Record{}, false, notFound("run 'fleetcom move' to move it, or 'fleetcom export' it from there",
			"%s conversation %s is already in %s: importing it would make a second copy", b.Tool, b.ID, old.Path)
	}
	same, err := placed(place)
	if err != nil {
		return store.Record{}, false, notFound(listHint, "cannot import %s conversation %s: %v", b.Tool, b.ID, err)
	}
	if !same {
		if err := write(place); err != nil {
			return store.Record{}, false, fmt.Errorf("import %s conversation %s: %w", b.Tool, b.ID, err)
		}
		if err := a.Check(home, dir, b.ID); err != nil {
			unwrite(place)
			return store.Record{}, false, fmt.Errorf("import %s conversation %s: the agent would not take it: %w", b.Tool, b.ID, err)
		}
	}
	active := b.Active
	if active.IsZero() {
		active = time.Now()
	}
	r, err := c.record(store.Record{Tool: b.Tool, ID: b.ID, Cwd: dir, Program: b.Tool, Source: "imported",
		Started: active, Ended: &active, Resumable: true, Home: home, Title: b.Title, Version: b.CLIVersion})
	return r, same, err
}

// record writes a record of an imported or moved conversation, replacing
// the directory of one recorded before.
func (c *Catalog) record(r store.Record) (store.Record, error) {
	if old, ok, _ := c.st.Get(r.Tool, r.ID); ok && old.Cwd != r.Cwd {
		if _, err := c.st.Relocate(r.Tool, r.ID, r.Cwd); err != nil {
			return store.Record{}, err
		}
	}
	c.st.Remember(r.Tool, r.ID)
	return c.st.Put(r)
}

// Moved is a conversation that moved: its record, and what its agent says
// the user should know (Placement.Note), if anything.
type Moved struct {
	store.Record
	Note string
}

// Move files the conversation ref names under the physical directory dir,
// on this machine: the new copy is written and checked first, and the old
// one removed only then, unless keep.
func (c *Catalog) Move(tool, ref, from, dir string, keep bool) (Moved, error) {
	p, err := c.Resolve(Query{Tool: tool, Ref: ref, Dir: from})
	if err != nil {
		return Moved{}, err
	}
	return c.move(p.Agent, p.Entry, dir, keep)
}

// MoveDir moves every conversation of directory from (records and those
// found in the agents' stores) to dir, for a renamed project.
func (c *Catalog) MoveDir(from, dir string, keep bool) ([]Moved, []error) {
	entries, _ := c.Dir(from, "", true)
	var out []Moved
	var errs []error
	for _, e := range entries {
		if !e.Resumable {
			continue
		}
		a, _ := harness.Lookup(e.Tool)
		r, err := c.move(a, e, dir, keep)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, r)
	}
	return out, errs
}

func (c *Catalog) move(a harness.Agent, e Entry, dir string, keep bool) (Moved, error) {
	m, ok := a.Behaviour.(harness.Mover)
	if !ok {
		return Moved{}, invalid("%s conversations cannot be moved", a.Name)
	}
	if e.Cwd == dir {
		return Moved{}, invalid("%s conversation %s is in %s already", e.Tool, e.ID, dir)
	}
	for _, pid := range a.Holders(c.entryHome(a, e), e.ID) {
		if pid != os.Getpid() && alive(pid) {
			return Moved{}, notFound(fmt.Sprintf("quit %s in process %d, then move it", e.Tool, pid),
				"%s conversation %s is open in process %d", e.Tool, e.ID, pid)
		}
	}
	home := c.entryHome(a, e)
	old, ok := m.Locate(home, e.Cwd, e.ID)
	if !ok {
		return Moved{}, notFound(listHint, "%s conversation %s is not in %s", e.Tool, e.ID, home)
	}
	files, err := m.Pack(home, e.Cwd, e.ID)
	if err != nil {
		return Moved{}, err
	}
	place, err := m.Place(home, dir, e.ID, e.Cwd, files)
	if err != nil {
		return Moved{}, invalid("cannot move %s conversation %s: %v", e.Tool, e.ID, err)
	}
	inPlace := place.Path == old.Path // an agent that files by date, not directory
	var before []harness.File
	if inPlace {
		before = files
	} else if exists(place.Path) {
		return Moved{}, notFound("", "cannot move %s conversation %s: %s holds one already", e.Tool, e.ID, place.Path)
	}
	if err := write(place); err != nil {
		return Moved{}, fmt.Errorf("move %s conversation %s: %w", e.Tool, e.ID, err)
	}
	if err := a.Check(home, dir, e.ID); err != nil {
		if inPlace {
			write(harness.Placement{Path: old.Path, Dir: old.Dir, Files: before})
		} else {
			unwrite(place)
		}
		return Moved{}, fmt.Errorf("move %s conversation %s: the agent would not take the moved copy, which is undone: %w", e.Tool, e.ID, err)
	}
	if !inPlace && !keep {
		if err := unwrite(old); err != nil {
			return Moved{}, fmt.Errorf("move %s conversation %s: the new copy is in place, the old one could not be removed: %w", e.Tool, e.ID, err)
		}
		os.Remove(filepath.Dir(old.Path)) // the old directory's folder, when nothing else is left in it
	}
	r := e.Record
	r.Cwd, r.Home, r.Source, r.Resumable = dir, home, "moved", true
	if r.Program == "" {
		r.Program = a.Name
	}
	r, err = c.record(r)
	return Moved{Record: r, Note: place.Note}, err
}

// placed reports whether a placement is there already, byte for byte; one
// that is there with other contents is an error.
func placed(p harness.Placement) (bool, error) {
	if !exists(p.Path) {
		return false, nil
	}
	for _, f := range p.Files {
		path := p.Path
		if p.Dir {
			path = filepath.Join(p.Path, f.Name)
		}
		got, err := safe.ReadFile(path, int64(len(f.Data))+1, safe.NoFollow)
		if err != nil || !bytes.Equal(got, f.Data) {
			return false, fmt.Errorf("a different conversation with the same id is already at %s: not overwriting it", p.Path)
		}
	}
	return true, nil
}

// write puts a placement on disk atomically: a file through a temporary
// file and a rename, a directory written whole beside its place and
// renamed into it, so a failure (a full or read-only disk) leaves nothing
// half written.
func write(p harness.Placement) (err error) {
	parent := filepath.Dir(p.Path)
	// The folders made on the way are removed again if the write fails.
	var made []string
	for d := parent; !exists(d); d = filepath.Dir(d) {
		made = append(made, d)
	}
	defer func() {
		if err != nil {
			for _, d := range made {
				os.Remove(d) // only ever empty: deepest first
			}
		}
	}()
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return err
	}
	if !p.Dir {
		return safe.WriteFile(p.Path, p.Files[0].Data, p.Files[0].Mode)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(p.Path)+".tmp-")
	if err != nil {
		return err
	}
	for _, f := range p.Files {
		if err := os.WriteFile(filepath.Join(tmp, f.Name), f.Data, f.Mode|0o600); err != nil {
			os.RemoveAll(tmp)
			return err
		}
	}
	os.Chmod(tmp, 0o755)
	if err := os.Rename(tmp, p.Path); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

// unwrite removes what a placement put on disk.
func unwrite(p harness.Placement) error {
	if p.Path == "" {
		return errors.New("nothing to remove")
	}
	if p.Dir {
		return os.RemoveAll(p.Path)
	}
	return os.Remove(p.Path)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, fs.ErrNotExist)
}
